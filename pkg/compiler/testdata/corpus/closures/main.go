package closures

func apply(f func(int) int, x int) int {
	return f(x)
}

func Use(x int) int {
	double := func(y int) int {
		return y * 2
	}
	return apply(double, x) + double(3)
}

func Direct() int {
	return func(a int) int { return a + 1 }(5)
}
