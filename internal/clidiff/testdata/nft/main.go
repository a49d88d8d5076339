// Package nft is the non-divisible NEP-11 token that make cli-diff deploys
// on each node: the deployer is its administrator, who mints cards
// ("card-1", "card-2", ...) and may update or destroy the contract; verify
// holds for the administrator's witness (a contract account for
// `wallet import-deployed`).
package nft

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/contract"
	"github.com/nspcc-dev/neo-go/pkg/interop/iterator"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/std"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

// Storage layout: the administrator, the number of cards, a card's holder
// by id, a holder's card count, and (holder, id) pairs for tokensOf.
const (
	adminKey   = "admin"
	countKey   = "count"
	holderOf   = "h"
	cardsOf    = "c"
	balanceKey = "b"
)

func _deploy(_ any, isUpdate bool) {
	if isUpdate {
		return
	}
	tx := runtime.GetScriptContainer()
	storage.Put(storage.GetContext(), adminKey, tx.Sender)
}

func admin() interop.Hash160 {
	return storage.Get(storage.GetReadOnlyContext(), adminKey).(interop.Hash160)
}

func Symbol() string { return "CARD" }

func Decimals() int { return 0 }

func TotalSupply() int {
	n := storage.Get(storage.GetReadOnlyContext(), countKey)
	if n == nil {
		return 0
	}
	return n.(int)
}

func BalanceOf(holder interop.Hash160) int {
	if len(holder) != interop.Hash160Len {
		panic("bad holder")
	}
	n := storage.Get(storage.GetReadOnlyContext(), balanceKey+string(holder))
	if n == nil {
		return 0
	}
	return n.(int)
}

func OwnerOf(id []byte) interop.Hash160 {
	h := storage.Get(storage.GetReadOnlyContext(), holderOf+string(id))
	if h == nil {
		panic("no such card")
	}
	return h.(interop.Hash160)
}

func TokensOf(holder interop.Hash160) iterator.Iterator {
	if len(holder) != interop.Hash160Len {
		panic("bad holder")
	}
	return storage.Find(storage.GetReadOnlyContext(), cardsOf+string(holder), storage.ValuesOnly)
}

func Tokens() iterator.Iterator {
	return storage.Find(storage.GetReadOnlyContext(), holderOf, storage.KeysOnly|storage.RemovePrefix)
}

func Properties(id []byte) map[string]string {
	OwnerOf(id)
	return map[string]string{"name": "Card " + string(id)}
}

// give moves card id to holder to (from is nil when it is minted).
func give(ctx storage.Context, from, to interop.Hash160, id []byte) {
	if from != nil {
		storage.Delete(ctx, cardsOf+string(from)+string(id))
		storage.Put(ctx, balanceKey+string(from), BalanceOf(from)-1)
	}
	storage.Put(ctx, holderOf+string(id), to)
	storage.Put(ctx, cardsOf+string(to)+string(id), id)
	storage.Put(ctx, balanceKey+string(to), BalanceOf(to)+1)
}

func Transfer(to interop.Hash160, id []byte, data any) bool {
	if len(to) != interop.Hash160Len {
		panic("bad recipient")
	}
	from := OwnerOf(id)
	if !runtime.CheckWitness(from) {
		return false
	}
	if !from.Equals(to) {
		give(storage.GetContext(), from, to, id)
	}
	runtime.Notify("Transfer", from, to, 1, id)
	if management.GetContract(to) != nil {
		contract.Call(to, "onNEP11Payment", contract.All, from, 1, id, data)
	}
	return true
}

// Mint gives the next card to holder; the administrator only.
func Mint(holder interop.Hash160) []byte {
	if !runtime.CheckWitness(admin()) {
		panic("not the administrator")
	}
	ctx := storage.GetContext()
	n := TotalSupply() + 1
	storage.Put(ctx, countKey, n)
	id := []byte("card-" + std.Itoa(n, 10))
	give(ctx, nil, holder, id)
	runtime.Notify("Transfer", nil, holder, 1, id)
	return id
}

func Verify() bool {
	return runtime.CheckWitness(admin())
}

// Update has the two-argument form, so that the CLIs' update falls back
// from the NEP-22 one (update/3).
func Update(nef, manifest []byte) {
	if !runtime.CheckWitness(admin()) {
		panic("not the administrator")
	}
	management.Update(nef, manifest)
}

func Destroy() {
	if !runtime.CheckWitness(admin()) {
		panic("not the administrator")
	}
	management.Destroy()
}
