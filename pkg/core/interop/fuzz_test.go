package interop_test

import (
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// FuzzCheckScript: the deploy-time script check never panics.
func FuzzCheckScript(f *testing.F) {
	f.Add([]byte{byte(opcode.JMP), 2}, 0)
	f.Add([]byte{byte(opcode.TRY), 3, 0, byte(opcode.PUSH1)}, 1)
	f.Fuzz(func(t *testing.T, script []byte, off int) {
		_ = interop.CheckScript(script, []int{off})
	})
}

// FuzzExecute runs arbitrary scripts (prefixed by pushes of fuzzed data)
// through the interop layer: whatever the syscalls get, execution ends in
// HALT or FAULT without a Go panic.
func FuzzExecute(f *testing.F) {
	for _, fn := range interop.Functions() {
		id := fn.ID
		f.Add([]byte{byte(opcode.SYSCALL), byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)}, []byte{1, 2, 3})
		f.Add([]byte{byte(opcode.PUSH1), byte(opcode.NEWARRAY), byte(opcode.SYSCALL), byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)}, []byte{})
	}
	c := chaintest.New(f)
	f.Fuzz(func(t *testing.T, script, data []byte) {
		pre := append([]byte{byte(opcode.PUSHDATA1), byte(len(data) & 0xff)}, data[:len(data)&0xff]...)
		full := append(pre, script...)
		ic := c.Invoke(full, callflag.All, 10_0000_0000)
		_ = ic.ResultItems()
	})
}
