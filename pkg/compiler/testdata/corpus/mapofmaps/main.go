package mapofmaps

func Build() map[string]map[string]int {
	m := map[string]map[string]int{
		"a": {"x": 1},
	}
	m["b"] = map[string]int{}
	m["b"]["y"] = 2
	inner, ok := m["a"]
	if ok {
		inner["z"] = 3
	}
	return m
}

func Keys(m map[int]string) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
