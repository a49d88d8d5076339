package runtimeops

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
)

func Info() int {
	t := runtime.GetTime()
	h := runtime.GetCallingScriptHash()
	e := runtime.GetExecutingScriptHash()
	tr := runtime.GetTrigger()
	if tr == runtime.Application {
		runtime.Log("app")
	}
	return t + len(h) + len(e) + runtime.GasLeft() + len(runtime.Platform())
}

func Witness(owner interop.Hash160) bool {
	return runtime.CheckWitness(owner)
}

func Emit(from interop.Hash160, amount int, data []byte) {
	runtime.Notify("Transfer", from, amount)
	runtime.Notify("Data", data, "s", 5)
}

func Rand() int {
	return runtime.GetRandom()
}
