package switchinit

func Classify(x int) string {
	switch y := x * 2; {
	case y > 100:
		return "huge"
	case y > 10:
		switch x % 3 {
		case 0:
			return "fizz"
		case 1:
			return "one"
		}
		return "big"
	}
	return "small"
}

func Loop(xs []int) int {
	s := 0
loop:
	for _, x := range xs {
		switch {
		case x < 0:
			break loop
		case x == 0:
			continue
		default:
			s += x
		}
	}
	return s
}
