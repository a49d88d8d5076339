package strs

func Concat(a, b string) string {
	c := a + "-" + b
	c += "!"
	return c
}

func Slice(s string) string {
	return s[1:3] + s[2:] + s[:1]
}

func Len(s string) int {
	return len(s)
}

func Eq(a, b string) bool {
	if a == b {
		return true
	}
	return a != "x"
}

func ToBytes(s string) []byte {
	return []byte(s)
}

func FromBytes(b []byte) string {
	return string(b)
}
