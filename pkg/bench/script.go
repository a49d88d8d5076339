package bench

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// TransferScript returns the NEP-17 transfer script of the benchmark:
// System.Contract.Call(token, "transfer", CallFlags.All, [from, to, amount,
// null]) followed by ASSERT, byte for byte what neo-go's emit.AppCall plus
// emit.Opcodes(ASSERT) produce.
func TransferScript(token, from, to hash.Uint160, amount int64) []byte {
	w := nio.NewBinWriterWithCap(96)
	emit.Opcodes(w, opcode.PUSHNULL) // data
	emit.IntNeoGo(w, amount)
	emit.Bytes(w, to[:])
	emit.Bytes(w, from[:])
	emit.IntNeoGo(w, 4)
	emit.Opcodes(w, opcode.PACK)
	emit.IntNeoGo(w, int64(callflag.All))
	emit.String(w, "transfer")
	emit.Bytes(w, token[:])
	emit.Syscall(w, "System.Contract.Call")
	emit.Opcodes(w, opcode.ASSERT)
	return w.Bytes()
}
