package shadowing

var x = 1

func Shadow(a int) int {
	x := a
	{
		x := x + 1
		a += x
	}
	if x := 5; x > a {
		return x
	}
	for x := 0; x < 2; x++ {
		a += x
	}
	return x + a
}
