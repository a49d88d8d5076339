package maps

func Lit() map[string]int {
	m := map[string]int{"a": 1, "b": 2}
	m["c"] = 3
	delete(m, "a")
	return m
}

func Get(m map[string]int, k string) int {
	v, ok := m[k]
	if !ok {
		return -1
	}
	x := m["b"]
	return v + x + len(m)
}

func Make() map[int][]byte {
	m := make(map[int][]byte)
	m[1] = []byte{1}
	m[1][0] = 2
	return m
}

func Has(m map[string]bool, k string) bool {
	_, ok := m[k]
	return ok
}
