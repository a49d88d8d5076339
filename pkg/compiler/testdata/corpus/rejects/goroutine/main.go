// want: main.go:7:2: go statement is not supported
package goroutine

func f() {}

func Main() {
	go f()
}
