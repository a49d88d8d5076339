package rangeloop

func Slice(xs []int) int {
	s := 0
	for i, x := range xs {
		s += i * x
	}
	for i := range xs {
		s += i
	}
	for _, x := range xs {
		if x == 3 {
			break
		}
		s -= x
	}
	for range xs {
		s++
	}
	return s
}

func Map(m map[string]int) int {
	s := 0
	for k, v := range m {
		s += v + len(k)
	}
	for k := range m {
		s += len(k)
	}
	for _, v := range m {
		s += v
	}
	return s
}

func Int(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	return s
}
