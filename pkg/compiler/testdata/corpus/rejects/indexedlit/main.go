// want: main.go:5:15: indexed elements in slice and array literals are not supported
package indexedlit

func Main() []int {
	return []int{2: 1}
}
