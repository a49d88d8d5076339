package oraclecb

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/native/oracle"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

func Request(url string) {
	oracle.Request(url, []byte("$.value"), "callback", "ud", 2*oracle.MinimumResponseGas)
}

func Callback(url string, userData any, code int, result []byte) {
	callingHash := runtime.GetCallingScriptHash()
	if !callingHash.Equals(oracle.Hash) {
		panic("not called from the oracle contract")
	}
	if code != oracle.Success {
		panic("request failed for " + url + " with code " + std(code))
	}
	storage.Put(storage.GetContext(), url, result)
	runtime.Log("result for " + url + " is: " + string(result))
}

func std(c int) string {
	if c == 0 {
		return "0"
	}
	return "x"
}
