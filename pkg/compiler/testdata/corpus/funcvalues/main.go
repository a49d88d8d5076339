package funcvalues

func add(a, b int) int {
	return a + b
}

func twice(f func(int) int, x int) int {
	return f(f(x))
}

func Apply(x int) int {
	mul := func(a, b int) int { return a * b }
	inc := func(a int) int { return a + 1 }
	return mul(x, 2) + twice(inc, x) + add(x, 1)
}
