package multipkg

import (
	"n3node.test/corpus/lib/mathx"
	st "n3node.test/corpus/lib/store"
)

var s = st.New("p")

func Calc(a int) int {
	x, y := mathx.Pair(a)
	mathx.Scale = 2
	return mathx.Mul(x, y) + mathx.Offset + mathx.Scale
}

func Save(k string, v int) {
	s.Put(k, v)
}
