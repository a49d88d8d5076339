package notary

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/pkg/vm/opcode"
)

// TestInt64OfPushes pins the integer pushes the parser reads: every width
// sign-extends, and the 16- and 32-byte forms are taken only for
// non-negative values that fit int64 (neo-go's GetInt64FromInstr).
func TestInt64OfPushes(t *testing.T) {
	le := func(n int, fill byte, low ...byte) []byte {
		b := bytes.Repeat([]byte{fill}, n)
		copy(b, low)
		return b
	}
	cases := []struct {
		op    opcode.Opcode
		param []byte
		want  int64
		ok    bool
	}{
		{opcode.PUSHM1, nil, -1, true},
		{opcode.PUSH16, nil, 16, true},
		{opcode.PUSHINT8, []byte{0x80}, -128, true},
		{opcode.PUSHINT16, []byte{0xff, 0xff}, -1, true},
		{opcode.PUSHINT32, le(4, 0, 0x01, 0x02), 0x0201, true},
		{opcode.PUSHINT64, le(8, 0xff), -1, true},
		{opcode.PUSHINT128, le(16, 0, 0x2a), 42, true},
		{opcode.PUSHINT256, le(32, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), 1<<63 - 1, true},
		{opcode.PUSHINT128, le(16, 0xff), 0, false},                         // -1: negative
		{opcode.PUSHINT128, le(16, 0, 0, 0, 0, 0, 0, 0, 0, 0x80), 0, false}, // 2^63
		{opcode.PUSHINT256, le(32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 0, false}, // 2^64
		{opcode.PUSHDATA1, []byte{1}, 0, false},
	}
	for _, c := range cases {
		v, err := int64Of(instr{c.op, c.param})
		if c.ok {
			require.NoError(t, err, "%s %x", c.op, c.param)
			require.Equal(t, c.want, v, "%s %x", c.op, c.param)
		} else {
			require.Error(t, err, "%s %x", c.op, c.param)
		}
	}
}
