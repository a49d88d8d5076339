package builtins

func MinMax(a, b, c int) int {
	return min(a, b, c) + max(a, b) + min(a, 3)
}

func Clear(m map[string]int, s []int) int {
	clear(m)
	clear(s)
	return len(m) + len(s)
}

func Lens(s string, b []byte, xs []int, m map[int]int) int {
	return len(s) + len(b) + len(xs) + len(m)
}
