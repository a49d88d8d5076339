package multidefer

var log []int

func record(x int) {
	log = append(log, x)
}

func Run(x int) int {
	defer record(1)
	if x > 0 {
		defer record(2)
	}
	record(x)
	return len(log)
}

func Recover() (n int) {
	defer func() {
		r := recover()
		if r != nil {
			n = 5
		}
	}()
	panic("boom")
}
