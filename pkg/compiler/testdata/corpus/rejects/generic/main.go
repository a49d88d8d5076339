// want: main.go:4:1: generic function Sum is not supported
package generic

func Sum[T int | int64](a, b T) T {
	return a + b
}

func Main() int {
	return Sum(1, 2)
}
