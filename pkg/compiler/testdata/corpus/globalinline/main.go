package globalinline

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

var ctx = storage.GetContext()

var start = runtime.GetTime()

var trig = runtime.GetTrigger() == runtime.Application

func Get(k string) any {
	if trig {
		return storage.Get(ctx, k)
	}
	return start
}
