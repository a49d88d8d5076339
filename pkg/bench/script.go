package bench

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// contractCallID is the SYSCALL id of System.Contract.Call.
var contractCallID = smartcontract.InteropID("System.Contract.Call")

// appendInt appends the shortest push of v as neo-go's emit.Int writes it:
// PUSHM1, PUSH0..PUSH15, or PUSHINT8..PUSHINT64 with the minimal two's
// complement width. (C# ScriptBuilder.EmitPush uses PUSH16 for 16 where
// neo-go writes PUSHINT8 16; neo-bench's transactions are neo-go's.)
func appendInt(s []byte, v int64) []byte {
	if v >= -1 && v < 16 {
		return append(s, byte(opcode.PUSH0)+byte(v))
	}
	n := 1
	for ; n < 8; n++ {
		lim := int64(1) << (8*n - 1)
		if v >= -lim && v < lim {
			break
		}
	}
	size, op := 1, opcode.PUSHINT8
	for size < n {
		size *= 2
		op++
	}
	s = append(s, byte(op))
	for i := range size {
		s = append(s, byte(v>>(8*i)))
	}
	return s
}

// appendData appends PUSHDATA1 of b (len(b) < 256 for everything here).
func appendData(s []byte, b []byte) []byte {
	s = append(s, byte(opcode.PUSHDATA1), byte(len(b)))
	return append(s, b...)
}

// TransferScript returns the NEP-17 transfer script of the benchmark:
// System.Contract.Call(token, "transfer", CallFlags.All, [from, to, amount,
// null]) followed by ASSERT, byte for byte what neo-go's emit.AppCall plus
// emit.Opcodes(ASSERT) produce.
func TransferScript(token, from, to hash.Uint160, amount int64) []byte {
	s := make([]byte, 0, 96)
	s = append(s, byte(opcode.PUSHNULL)) // data
	s = appendInt(s, amount)
	s = appendData(s, to[:])
	s = appendData(s, from[:])
	s = appendInt(s, 4)
	s = append(s, byte(opcode.PACK))
	s = appendInt(s, int64(callflag.All))
	s = appendData(s, []byte("transfer"))
	s = appendData(s, token[:])
	s = append(s, byte(opcode.SYSCALL),
		byte(contractCallID), byte(contractCallID>>8), byte(contractCallID>>16), byte(contractCallID>>24))
	return append(s, byte(opcode.ASSERT))
}
