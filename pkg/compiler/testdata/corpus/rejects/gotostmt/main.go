// want: main.go:7:3: goto is not supported
package gotostmt

func Main(x int) int {
loop:
	if x > 0 {
		goto loop
	}
	return x
}
