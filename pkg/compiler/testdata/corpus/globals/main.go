package globals

import "github.com/nspcc-dev/neo-go/pkg/interop/runtime"

const (
	A = iota
	B
	C
)

const Big uint64 = 1 << 63

var (
	counter int
	name    = "g"
	list    = []int{A, B, C}
	unused  = 42
	table   = map[string]int{"x": 1}
)

var typed int = 7

var _ = compute()

func compute() int {
	return 5
}

func init() {
	counter = 10
	x := 3
	counter += x
}

func init() {
	y := "z"
	name += y
}

func Get() int {
	return counter + len(name) + list[2] + table["x"] + typed
}

func BigC() int {
	return int(Big >> 60)
}

func Log() {
	runtime.Log(name)
}
