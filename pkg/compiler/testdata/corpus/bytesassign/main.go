package bytesassign

func Set(b []byte, i int, v byte) []byte {
	b[i] = v
	b[0]++
	b[1] += 2
	c := b[1:3]
	c[0] = 9
	return append(b, c...)
}
