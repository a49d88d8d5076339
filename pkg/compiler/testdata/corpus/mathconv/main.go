package mathconv

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/convert"
	"github.com/nspcc-dev/neo-go/pkg/interop/math"
)

func M(a, b int) int {
	return math.Pow(a, 2) + math.Sqrt(b) + math.Abs(a) + math.Sign(b) + math.ModPow(a, b, 7) + math.ModMul(a, b, 5)
}

func In(x int) bool {
	return math.Within(x, 1, 10)
}

func C(v any) int {
	s := convert.ToString(v)
	b := convert.ToBytes(v)
	if convert.ToBool(v) {
		return convert.ToInteger(v) + len(s) + len(b)
	}
	return 0
}

func U(n int) []byte {
	return convert.Uint32ToBytesBE(uint32(n))
}
