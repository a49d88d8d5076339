package namedtypes

type Amount int

type Names []string

type Index map[string]Amount

type Alias = int

func (a Amount) Double() Amount {
	return a * 2
}

func (n Names) First() string {
	return n[0]
}

func Use(x Alias) int {
	a := Amount(x)
	n := Names{"a", "b"}
	idx := Index{"a": a}
	return int(a.Double()) + len(n.First()) + int(idx["a"])
}
