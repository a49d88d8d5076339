package forloop

func Sum(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			continue
		}
		if i > 50 {
			break
		}
		s += i
	}
	return s
}

func Nested(n int) int {
	s := 0
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j > i {
				continue outer
			}
			if i*j > 100 {
				break outer
			}
			s++
		}
	}
	return s
}

func While(n int) int {
	for n > 1 {
		n = n / 2
	}
	for {
		n++
		if n > 5 {
			break
		}
	}
	return n
}
