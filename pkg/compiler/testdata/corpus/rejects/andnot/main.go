// want: main.go:5:9: operator &^ is not supported
package andnot

func Main(a, b int) int {
	return a &^ b
}
