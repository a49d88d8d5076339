package notifyconv

import "github.com/nspcc-dev/neo-go/pkg/interop/runtime"

func Emit(b bool, s string, n int, data []byte) {
	runtime.Notify("Conv", s, data, n, b)
	name := "Dyn"
	runtime.Notify(name, 1)
	args := []any{1, 2}
	runtime.Notify("Ell", args...)
}
