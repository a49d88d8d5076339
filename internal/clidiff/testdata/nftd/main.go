// Package nftd is the divisible NEP-11 token that make cli-diff deploys on
// each node: the deployer mints shares ("share-1", "share-2"; two
// decimals) to a holder; holders transfer parts of them.
package nftd

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/contract"
	"github.com/nspcc-dev/neo-go/pkg/interop/iterator"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/std"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

// Storage: the administrator, the number of shares, the supply, every
// share id, a holder's total, a holder's part of a share, the holders of
// a share and the shares of a holder.
const (
	adminKey  = "admin"
	countKey  = "count"
	supplyKey = "supply"
	idsOf     = "i"
	totalOf   = "t"
	partOf    = "p"
	holdersOf = "o"
	sharesOf  = "s"
)

func _deploy(_ any, isUpdate bool) {
	if !isUpdate {
		storage.Put(storage.GetContext(), adminKey, runtime.GetScriptContainer().Sender)
	}
}

func getInt(key string) int {
	v := storage.Get(storage.GetReadOnlyContext(), key)
	if v == nil {
		return 0
	}
	return v.(int)
}

func Symbol() string { return "SHARE" }

func Decimals() int { return 2 }

func TotalSupply() int { return getInt(supplyKey) }

func BalanceOf(holder interop.Hash160) int {
	if len(holder) != interop.Hash160Len {
		panic("bad holder")
	}
	return getInt(totalOf + string(holder))
}

func BalanceOfDivisible(holder interop.Hash160, id []byte) int {
	if len(holder) != interop.Hash160Len {
		panic("bad holder")
	}
	return getInt(partOf + string(holder) + string(id))
}

func OwnerOf(id []byte) iterator.Iterator {
	return storage.Find(storage.GetReadOnlyContext(), holdersOf+string(id), storage.ValuesOnly)
}

func TokensOf(holder interop.Hash160) iterator.Iterator {
	if len(holder) != interop.Hash160Len {
		panic("bad holder")
	}
	return storage.Find(storage.GetReadOnlyContext(), sharesOf+string(holder), storage.ValuesOnly)
}

func Tokens() iterator.Iterator {
	return storage.Find(storage.GetReadOnlyContext(), idsOf, storage.KeysOnly|storage.RemovePrefix)
}

func Properties(id []byte) map[string]string {
	if storage.Get(storage.GetReadOnlyContext(), idsOf+string(id)) == nil {
		panic("no such share")
	}
	return map[string]string{"name": "Share " + string(id)}
}

// move adds delta to holder's part of share id (and total), keeping the
// holder and share indexes.
func move(ctx storage.Context, holder interop.Hash160, id []byte, delta int) {
	part := BalanceOfDivisible(holder, id) + delta
	if part < 0 {
		panic("insufficient part")
	}
	storage.Put(ctx, totalOf+string(holder), BalanceOf(holder)+delta)
	if part == 0 {
		storage.Delete(ctx, partOf+string(holder)+string(id))
		storage.Delete(ctx, holdersOf+string(id)+string(holder))
		storage.Delete(ctx, sharesOf+string(holder)+string(id))
		return
	}
	storage.Put(ctx, partOf+string(holder)+string(id), part)
	storage.Put(ctx, holdersOf+string(id)+string(holder), holder)
	storage.Put(ctx, sharesOf+string(holder)+string(id), id)
}

// Transfer moves a whole share held by one holder (NEP-11 asks divisible
// tokens for the three-argument form too).
func Transfer(to interop.Hash160, id []byte, data any) bool {
	it := OwnerOf(id)
	if !iterator.Next(it) {
		return false
	}
	from := iterator.Value(it).(interop.Hash160)
	if iterator.Next(it) {
		return false
	}
	return TransferDivisible(from, to, BalanceOfDivisible(from, id), id, data)
}

func TransferDivisible(from, to interop.Hash160, amount int, id []byte, data any) bool {
	if len(from) != interop.Hash160Len || len(to) != interop.Hash160Len {
		panic("bad address")
	}
	if amount < 0 {
		panic("negative amount")
	}
	if !runtime.CheckWitness(from) {
		return false
	}
	if BalanceOfDivisible(from, id) < amount {
		return false
	}
	if !from.Equals(to) && amount > 0 {
		ctx := storage.GetContext()
		move(ctx, from, id, -amount)
		move(ctx, to, id, amount)
	}
	runtime.Notify("Transfer", from, to, amount, id)
	if management.GetContract(to) != nil {
		contract.Call(to, "onNEP11Payment", contract.All, from, amount, id, data)
	}
	return true
}

// Mint creates the next share, all of it (amount) held by holder; the
// administrator only.
func Mint(holder interop.Hash160, amount int) []byte {
	if !runtime.CheckWitness(storage.Get(storage.GetReadOnlyContext(), adminKey).(interop.Hash160)) {
		panic("not the administrator")
	}
	ctx := storage.GetContext()
	n := getInt(countKey) + 1
	storage.Put(ctx, countKey, n)
	storage.Put(ctx, supplyKey, TotalSupply()+amount)
	id := []byte("share-" + std.Itoa(n, 10))
	storage.Put(ctx, idsOf+string(id), 1)
	move(ctx, holder, id, amount)
	runtime.Notify("Transfer", nil, holder, amount, id)
	return id
}
