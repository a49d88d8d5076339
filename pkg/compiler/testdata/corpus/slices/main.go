package slices

func Make(n int) []int {
	xs := make([]int, n)
	xs[0] = 5
	return xs
}

func App(xs []int, ys []int) []int {
	xs = append(xs, 1, 2)
	xs = append(xs, ys...)
	var zs []string
	zs = append(zs, "a")
	return append(xs, len(zs))
}

func Lit() []string {
	s := []string{"a", "b", "c"}
	s[1] = "x"
	return s
}

func Nested() [][]int {
	return [][]int{{1, 2}, {3}}
}

func Idx(xs []int, i int) int {
	xs[i]++
	xs[i] += 2
	return xs[i] + len(xs)
}

func Arr() int {
	a := [3]int{1, 2, 3}
	return a[1]
}
