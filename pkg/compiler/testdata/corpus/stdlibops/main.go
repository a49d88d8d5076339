package stdlibops

import "github.com/nspcc-dev/neo-go/pkg/interop/native/std"

func Conv(s string) int {
	n := std.Atoi10(s) + std.Atoi(s, 16)
	b := std.Base64Encode([]byte(s))
	d := std.Base64Decode([]byte(b))
	j := std.JSONSerialize(n)
	v := std.JSONDeserialize(j).(int)
	return n + len(d) + v + std.MemoryCompare([]byte("a"), []byte("b"))
}

func Split(s string) []string {
	return std.StringSplit(s, ",")
}

func Find(s, sub string) int {
	return std.MemorySearch([]byte(s), []byte(sub)) + std.StrLen(s)
}

func B58(b []byte) string {
	return std.Base58CheckEncode(b) + std.Base58Encode(b)
}
