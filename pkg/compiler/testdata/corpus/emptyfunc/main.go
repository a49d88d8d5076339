package emptyfunc

func Nothing() {
}

func Something() int {
	return 1
}
