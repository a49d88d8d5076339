package adder

var base = 40

// Add returns a + b + base (base is set by _initialize).
func Add(a, b int) int {
	return a + b + base
}

// Greet returns a greeting.
func Greet(name string) string {
	return "hello, " + name
}
