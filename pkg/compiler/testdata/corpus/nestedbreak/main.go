package nestedbreak

func Find(grid [][]int, v int) int {
	found := -1
rows:
	for i, row := range grid {
		for j, x := range row {
			switch {
			case x == v:
				found = i*10 + j
				break rows
			case x < 0:
				continue rows
			}
		}
	}
	return found
}

func Map(m map[string][]int) int {
	n := 0
outer:
	for _, xs := range m {
		for _, x := range xs {
			if x == 0 {
				continue outer
			}
			n += x
		}
	}
	return n
}
