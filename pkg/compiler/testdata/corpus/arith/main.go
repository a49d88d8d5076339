package arith

func Calc(a, b int) int {
	x := a + b*3 - (a/2)%5
	x += 4
	x -= b
	x *= 2
	x /= 3
	x %= 1000
	y := -a
	z := ^b
	w := a&b | a ^ b
	s := a << 2 >> 1
	x++
	y--
	return x + y + z + w + s
}

func Compare(a, b int) bool {
	return a < b || a <= b && a > 0 || a >= b && a != b || a == b
}

func Neg() int {
	return -1 + 0
}

func Shift(n int) int {
	n <<= 1
	n >>= 2
	n |= 8
	n &= 255
	return n
}
