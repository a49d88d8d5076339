package multiglobal

func pair() (int, string) {
	return 4, "four"
}

var n, s = pair()

var _, onlyS = pair()

var unusedA, unusedB = pair()

var (
	p, q   int
	r      = []int{1}
	xs, ys = []int{}, []string{}
)

func Get() int {
	return n + len(s) + len(onlyS) + p + q + len(r) + len(xs) + len(ys)
}
