package nep17

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/contract"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

const (
	decimals   = 8
	multiplier = 100000000
)

var (
	token          Token
	ctx            storage.Context
	totalSupplyKey = []byte("s")
)

// Token holds the token's parameters.
type Token struct {
	Name           string
	Symbol         string
	Decimals       int
	Owner          interop.Hash160
	TotalSupply    int
	CirculationKey string
}

func init() {
	token = Token{
		Name:           "Awesome NEO Token",
		Symbol:         "ANT",
		Decimals:       decimals,
		Owner:          interop.Hash160("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14"),
		TotalSupply:    11000000 * multiplier,
		CirculationKey: "TokenCirculation",
	}
	ctx = storage.GetContext()
}

func Symbol() string {
	return token.Symbol
}

func Decimals() int {
	return token.Decimals
}

func TotalSupply() int {
	return getIntFromDB(ctx, totalSupplyKey)
}

func BalanceOf(holder interop.Hash160) int {
	if len(holder) != 20 {
		panic("bad owner address")
	}
	return getIntFromDB(ctx, holder)
}

func Transfer(from interop.Hash160, to interop.Hash160, amount int, data any) bool {
	if amount < 0 {
		panic("negative amount")
	}
	if !runtime.CheckWitness(from) && !from.Equals(runtime.GetCallingScriptHash()) {
		return false
	}
	amountFrom := getIntFromDB(ctx, from)
	if amountFrom < amount {
		return false
	}
	if amountFrom == amount {
		storage.Delete(ctx, from)
	} else {
		storage.Put(ctx, from, amountFrom-amount)
	}
	amountTo := getIntFromDB(ctx, to)
	storage.Put(ctx, to, amountTo+amount)
	runtime.Notify("Transfer", from, to, amount)
	if to != nil && management.GetContract(to) != nil {
		contract.Call(to, "onNEP17Payment", contract.All, from, amount, data)
	}
	return true
}

func getIntFromDB(ctx storage.Context, key []byte) int {
	var res int
	val := storage.Get(ctx, key)
	if val != nil {
		res = val.(int)
	}
	return res
}
