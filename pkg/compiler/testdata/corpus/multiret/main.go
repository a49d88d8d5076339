package multiret

func pair(x int) (int, string) {
	return x * 2, "two"
}

func named(x int) (a int, b bool) {
	a = x
	if x > 3 {
		b = true
		return
	}
	return a + 1, false
}

func triple() (int, int, int) {
	return 1, 2, 3
}

func Use(x int) int {
	a, s := pair(x)
	b, ok := named(a)
	_, t := pair(b)
	p, q, r := triple()
	var u, v = pair(p)
	if ok {
		return a + b + len(s) + len(t) + q + r + u + len(v)
	}
	a, _ = named(q)
	return a
}
