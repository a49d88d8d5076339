// want: main.go:4:1: exported method is not allowed to have more than one return value: Main/2 return values
package multiret

func Main() (int, int) {
	return 1, 2
}
