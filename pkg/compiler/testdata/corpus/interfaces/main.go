package interfaces

type Thing any

func Pass(v any) any {
	return v
}

func Use(x int, s string) int {
	var a any = x
	var b Thing = s
	vals := []any{a, b, nil, true}
	n := 0
	for _, v := range vals {
		if v == nil {
			continue
		}
		n++
	}
	if Pass(a) != nil {
		n += Pass(x).(int)
	}
	return n
}
