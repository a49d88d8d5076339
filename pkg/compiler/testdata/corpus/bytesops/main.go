package bytesops

func Lit(x byte) []byte {
	b := []byte{1, 2, x, 4}
	b[0] = 7
	return b
}

func App(a []byte, c byte) []byte {
	a = append(a, c, 5)
	a = append(a, []byte{9, 9}...)
	return a
}

func Copy(dst, src []byte) int {
	n := copy(dst, src)
	copy(dst[1:], src[:2])
	return n
}

func Make(n int) []byte {
	b := make([]byte, n)
	return b[1:]
}

func At(b []byte, i int) byte {
	return b[i]
}
