package basic

import "github.com/nspcc-dev/neo-go/pkg/interop/runtime"

var counter = 5

func Add(a, b int) int {
	c := a + b
	if c > 10 {
		return c - counter
	}
	return c
}

func Hello() {
	runtime.Log("hello")
	runtime.Notify("Event", 1, "x")
}
