package variadic

func sum(base int, xs ...int) int {
	for _, x := range xs {
		base += x
	}
	return base
}

func Use(a int) int {
	s := sum(a)
	s += sum(a, 1)
	s += sum(a, 1, 2, 3)
	ys := []int{4, 5}
	return s + sum(0, ys...)
}
