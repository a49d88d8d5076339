package structmap

type Acc struct {
	Owner   string
	Balance int
	Tags    map[string]bool
}

func Run() int {
	m := map[string]Acc{}
	m["a"] = Acc{Owner: "a", Balance: 5}
	a := m["a"]
	a.Balance = 7
	list := []Acc{a, {Owner: "b"}}
	list[1].Balance = 3
	ptrs := []*Acc{&Acc{Owner: "c"}}
	ptrs[0].Balance = 9
	total := 0
	for _, x := range list {
		total += x.Balance
	}
	return total + m["a"].Balance + ptrs[0].Balance
}
