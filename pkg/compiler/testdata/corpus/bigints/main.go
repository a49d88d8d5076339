package bigints

const Max64 = 9223372036854775807

func Values() []int {
	return []int{17, 127, 128, 255, 256, 32767, 32768, 65535, 2147483647, 2147483648, -2, -128, -129, -32768, -32769, Max64, -Max64 - 1, 0x7fffffff}
}

func U64() uint64 {
	var u uint64 = 1 << 63
	return u + 1
}

func Mul(x int) int {
	return x * 1000000000000
}
