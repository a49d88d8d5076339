package overloads

func Add(a int) int {
	return a + 1
}

func AddTwo(a, b int) int {
	return a + b
}

func Get() int {
	return 1
}
