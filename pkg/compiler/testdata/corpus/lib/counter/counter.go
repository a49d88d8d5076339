package counter

var Count int

var names = []string{"a"}

func init() {
	Count = len(names)
	x := 2
	Count += x
}

func Inc() int {
	Count++
	return Count
}
