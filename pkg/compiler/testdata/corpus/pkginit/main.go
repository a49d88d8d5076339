package pkginit

import "n3node.test/corpus/lib/counter"

var local = counter.Count * 2

func init() {
	y, z := 1, 2
	local += y + z
}

func Get() int {
	return counter.Inc() + local
}
