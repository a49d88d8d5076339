package deferrecover

import "github.com/nspcc-dev/neo-go/pkg/interop/runtime"

func Safe(x int) (res int) {
	defer func() {
		if r := recover(); r != nil {
			res = -1
		}
	}()
	if x == 0 {
		panic("zero")
	}
	return 10 / x
}

func Logs() {
	defer runtime.Log("done")
	runtime.Log("start")
}
