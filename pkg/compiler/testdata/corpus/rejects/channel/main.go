// want: main.go:5:12: channel type is not supported
package channel

func Main() int {
	c := make(chan int, 1)
	c <- 1
	return <-c
}
