package boolexpr

func Eval(a, b, c bool, x int) bool {
	r := (a || b) && !c
	if !(x > 0 && x < 10) || (a && (b || c)) {
		r = !r
	}
	ok := x == 3 || x == 5 && b
	return r == ok || (a != b) && x != 0
}

func Ret(x int) bool {
	return x > 0 && x%2 == 0 || x < -10
}

func Loop(xs []int) bool {
	for i := 0; i < len(xs) && xs[i] > 0; i++ {
		if xs[i] == 5 || xs[i] == 7 && i > 1 {
			return true
		}
	}
	return false
}
