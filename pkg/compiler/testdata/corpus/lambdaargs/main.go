package lambdaargs

func Sub(a, b int) int {
	sub := func(x, y int) int { return x - y }
	return sub(a, b)
}
