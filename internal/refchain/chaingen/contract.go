package chaingen

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// RefChain contract: a hand-assembled test contract. Methods:
//
//	put(key, value)        Storage.Put, then notify Put(key, value)
//	get(key) ByteArray     Storage.Get through a read-only context (safe)
//	delete(key)            Storage.Delete, then notify Deleted(key)
//	inc() Integer          read-modify-write of the "counter" key
//	fail()                 THROW "refchain: deliberate fault"
//	abort()                ABORT
//	onNEP17Payment(from, amount, data)  notify Payment(from, amount)
//	update(nef, manifest)  ContractManagement.update with data "refchain-update"
//	destroy()              ContractManagement.destroy
//	_deploy(data, isUpdate)  stores data under "init" on first deployment
//
// Version 2 (the update) adds version() Integer returning 2.

// RefChainName is the manifest name of the RefChain contract.
const RefChainName = "RefChain"

// CompilerName is written into the NEF of hand-assembled contracts.
const CompilerName = "n3node-refchain-asm"

// Contract is an assembled contract: its NEF file and manifest JSON.
type Contract struct {
	NEF      []byte
	Manifest []byte
}

// RefChainContract assembles the RefChain contract; version 2 adds
// version(). name is the manifest name (the destroy test deploys a copy
// under another name). mgmt is the ContractManagement hash.
func RefChainContract(name string, version int, mgmt hash.Uint160) (Contract, error) {
	b := NewBuilder()
	var methods []Method
	method := func(name string, ret string, safe bool, params ...Param) {
		methods = append(methods, Method{Name: name, Parameters: params, ReturnType: ret, Offset: b.Len(), Safe: safe})
	}
	bytesP := func(n string) Param { return Param{Name: n, Type: "ByteArray"} }

	method("put", "Void", false, bytesP("key"), bytesP("value"))
	b.OpArgs(INITSLOT, 0, 2)
	b.Op(LDARG1, LDARG0)
	b.Syscall("System.Storage.GetContext")
	b.Syscall("System.Storage.Put")
	b.Op(LDARG1, LDARG0, PUSH2, PACK)
	b.String("Put")
	b.Syscall("System.Runtime.Notify")
	b.Op(RET)

	method("get", "ByteArray", true, bytesP("key"))
	b.OpArgs(INITSLOT, 0, 1)
	b.Op(LDARG0)
	b.Syscall("System.Storage.GetReadOnlyContext")
	b.Syscall("System.Storage.Get")
	b.Op(RET)

	method("delete", "Void", false, bytesP("key"))
	b.OpArgs(INITSLOT, 0, 1)
	b.Op(LDARG0)
	b.Syscall("System.Storage.GetContext")
	b.Syscall("System.Storage.Delete")
	b.Op(LDARG0, PUSH1, PACK)
	b.String("Deleted")
	b.Syscall("System.Runtime.Notify")
	b.Op(RET)

	method("inc", "Integer", false)
	b.String("counter")
	b.Syscall("System.Storage.GetReadOnlyContext")
	b.Syscall("System.Storage.Get")
	b.Op(DUP, ISNULL)
	b.Jump(JMPIFNOT, "inc_have")
	b.Op(DROP, PUSH0)
	b.Label("inc_have")
	b.Op(INC, DUP)
	b.String("counter")
	b.Syscall("System.Storage.GetContext")
	b.Syscall("System.Storage.Put")
	b.Op(RET)

	method("fail", "Void", false)
	b.String("refchain: deliberate fault")
	b.Op(THROW)

	method("abort", "Void", false)
	b.Op(ABORT)

	method("onNEP17Payment", "Void", false,
		Param{"from", "Hash160"}, Param{"amount", "Integer"}, Param{"data", "Any"})
	b.OpArgs(INITSLOT, 0, 3)
	b.Op(LDARG1, LDARG0, PUSH2, PACK)
	b.String("Payment")
	b.Syscall("System.Runtime.Notify")
	b.Op(RET)

	method("update", "Void", false, bytesP("nef"), Param{"manifest", "String"})
	b.OpArgs(INITSLOT, 0, 2)
	b.String("refchain-update")
	b.Op(LDARG1, LDARG0)
	b.Int(3)
	b.Op(PACK)
	b.Int(CallFlagsAll)
	b.String("update")
	b.Bytes(mgmt[:])
	b.Syscall("System.Contract.Call")
	b.Op(DROP, RET)

	method("destroy", "Void", false)
	b.Call(mgmt, "destroy", CallFlagsAll)
	b.Op(DROP, RET)

	method("_deploy", "Void", false, Param{"data", "Any"}, Param{"isUpdate", "Boolean"})
	b.OpArgs(INITSLOT, 0, 2)
	b.Op(LDARG1)
	b.Jump(JMPIF, "deploy_done")
	b.Op(LDARG0)
	b.String("init")
	b.Syscall("System.Storage.GetContext")
	b.Syscall("System.Storage.Put")
	b.Label("deploy_done")
	b.Op(RET)

	if version >= 2 {
		method("version", "Integer", true)
		b.Int(int64(version))
		b.Op(RET)
	}

	script, err := b.Script()
	if err != nil {
		return Contract{}, err
	}
	nef, err := NEF(CompilerName, "https://github.com/n3node/n3node/internal/refchain/chaingen", script)
	if err != nil {
		return Contract{}, err
	}
	m := NewManifest(name, methods, []Event{
		{Name: "Put", Parameters: []Param{bytesP("key"), bytesP("value")}},
		{Name: "Deleted", Parameters: []Param{bytesP("key")}},
		{Name: "Payment", Parameters: []Param{{"from", "Hash160"}, {"amount", "Integer"}}},
	})
	mj, err := m.JSON()
	if err != nil {
		return Contract{}, err
	}
	return Contract{NEF: nef, Manifest: mj}, nil
}
