package nilvalues

type S struct {
	M map[string]int
	L []int
	P *S
}

func Nils() int {
	var m map[string]int
	var l []int
	var p *S
	var a any
	n := 0
	if m == nil && l == nil && p == nil && a == nil {
		n++
	}
	s := S{}
	if s.M == nil || s.P != nil {
		n++
	}
	return n + len(l) + len(m)
}
