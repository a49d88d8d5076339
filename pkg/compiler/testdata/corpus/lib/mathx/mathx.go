package mathx

var Scale = 10

const Offset = 3

func Mul(a, b int) int {
	return a*b*Scale + Offset
}

func Pair(a int) (int, int) {
	return a, a + Offset
}
