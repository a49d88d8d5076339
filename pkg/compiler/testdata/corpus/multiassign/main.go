package multiassign

type P struct{ A, B int }

func swap(a, b int) (int, int) {
	a, b = b, a
	return a, b
}

func Fields() int {
	p := P{1, 2}
	p.A, p.B = p.B, p.A
	xs := []int{1, 2, 3}
	xs[0], xs[2] = xs[2], xs[0]
	var u, v int = 3, 4
	a, b := swap(u, v)
	return a + b + p.A*10 + xs[0] + u + v
}
