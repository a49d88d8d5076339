package panics

func Check(x int) int {
	if x < 0 {
		panic("negative")
	}
	if x == 0 {
		panic(nil)
	}
	return x
}

func Div(a, b int) int {
	if b == 0 {
		panic("division by zero: " + "b")
	}
	return a / b
}
