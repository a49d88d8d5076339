// want: main.go:4:11: exported method is not allowed to have unnamed parameter: Main
package unnamed

func Main(int) int {
	return 1
}
