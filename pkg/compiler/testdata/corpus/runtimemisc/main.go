package runtimemisc

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
)

func Notifs(h interop.Hash160) int {
	ns := runtime.GetNotifications(h)
	n := 0
	for _, x := range ns {
		n += len(x[0].([]byte)) + len(x)
	}
	return n
}

func Misc() int {
	runtime.BurnGas(100)
	return runtime.GetNetwork() + runtime.GetInvocationCounter() + runtime.GetAddressVersion()
}

func Entry() interop.Hash160 {
	return runtime.GetEntryScriptHash()
}

func Load(h []byte) any {
	return runtime.LoadScript(h, 1, []any{1})
}
