package ifelse

func Sign(x int) int {
	if x > 0 {
		return 1
	} else if x < 0 {
		return -1
	}
	return 0
}

func Both(a, b bool) bool {
	if a && b {
		return true
	}
	if a || !b {
		return false
	}
	c := a && !b || b
	return c
}

func Nil(b []byte) bool {
	if b == nil {
		return true
	}
	return b != nil && len(b) > 1
}

func Init(x int) int {
	if y := x * 2; y > 10 {
		return y
	} else {
		x = y + 1
	}
	return x
}
