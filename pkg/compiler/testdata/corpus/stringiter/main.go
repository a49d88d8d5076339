package stringiter

func Count(s string, c byte) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
		}
	}
	return n
}

func Bytes(b []byte) int {
	s := 0
	for _, c := range b {
		s += int(c)
	}
	return s
}
