package consts

type Kind int

const (
	KA Kind = iota + 1
	KB
	KC
)

const (
	Str        = "hello"
	Flag       = true
	Huge       = 1 << 62
	Neg        = -300
	Mid  int16 = 1000
	Mask       = 0xff
)

func Get(k Kind) int {
	if k == KB {
		return Huge
	}
	const local = 77
	return int(k) + Neg + int(Mid) + Mask + local
}

func Text() string {
	if Flag {
		return Str
	}
	return ""
}

func Big() uint64 {
	var u uint64 = 18446744073709551615
	return u
}
