// Package bank is a neotest test contract: storage, notifications,
// witness checks, GAS transfers and a verify method.
package bank

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/gas"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

const ownerKey = "owner"

func _deploy(data any, isUpdate bool) {
	if isUpdate {
		return
	}
	storage.Put(storage.GetContext(), ownerKey, data.(interop.Hash160))
}

// Add is pure arithmetic.
func Add(a, b int) int {
	return a + b
}

// Owner returns the account given at deployment.
func Owner() interop.Hash160 {
	return storage.Get(storage.GetReadOnlyContext(), ownerKey).(interop.Hash160)
}

// Hello notifies and greets.
func Hello(name string) string {
	runtime.Notify("Hello", name)
	return "hi " + name
}

// Withdraw sends the contract's GAS to to; only the owner may.
func Withdraw(to interop.Hash160, amount int) bool {
	if !runtime.CheckWitness(Owner()) {
		panic("not owner")
	}
	return gas.Transfer(runtime.GetExecutingScriptHash(), to, amount, nil)
}

// SignedByMe reports whether the contract witnessed the transaction.
func SignedByMe() bool {
	return runtime.CheckWitness(runtime.GetExecutingScriptHash())
}

// OnNEP17Payment accepts GAS only.
func OnNEP17Payment(from interop.Hash160, amount int, data any) {
	if string(runtime.GetCallingScriptHash()) != string(gas.Hash) {
		panic("only GAS")
	}
}

// Verify witnesses the contract when the argument is 42.
func Verify(code int) bool {
	return code == 42
}
