package sliceofslices

func Grid(n int) [][]int {
	g := make([][]int, n)
	for i := range n {
		g[i] = make([]int, n)
		g[i][i] = 1
	}
	g = append(g, []int{7})
	g[0] = append(g[0], 9)
	return g
}

func Sum(g [][]int) int {
	s := 0
	for _, row := range g {
		for _, x := range row {
			s += x
		}
	}
	return s
}
