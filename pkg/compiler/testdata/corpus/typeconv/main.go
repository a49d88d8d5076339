package typeconv

type MyInt int

type Wrapper struct {
	V any
}

func Ints(x int) int {
	a := int64(x)
	b := uint8(a)
	c := MyInt(b)
	return int(c)
}

func Assert(v any) int {
	return v.(int) + len(v.(string)) + len(v.([]byte))
}

func Bool(v any) bool {
	return v.(bool)
}

func Iface(x int) any {
	var v any = x
	w := Wrapper{V: v}
	return w.V
}

func Str(b []byte) string {
	s := string(b)
	return s + string(b[1:])
}
