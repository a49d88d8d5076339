package vm

import (
	"errors"
	"strings"
	"testing"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// TestIndexOutOfRange pins what an index out of range does for each
// collection: PICKITEM and SETITEM throw C#'s message as a catchable
// exception, REMOVE faults with it.
func TestIndexOutOfRange(t *testing.T) {
	// The exception stays on the stack.
	caught := func(body func(w *nio.BinWriter)) []byte {
		return tryCatch(t, body, func(*nio.BinWriter) {})
	}
	cases := []struct {
		name string
		body func(w *nio.BinWriter)
		want string
	}{
		{"PICKITEM Array", func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0, opcode.PUSH5, opcode.PICKITEM)
		}, "The index of VMArray is out of range, 5/[0, 0)."},
		{"PICKITEM Buffer", func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.PUSH2, opcode.NEWBUFFER, opcode.PUSH3, opcode.PICKITEM)
		}, "The index of Buffer is out of range, 3/[0, 2)."},
		{"PICKITEM ByteString", func(w *nio.BinWriter) {
			emit.String(w, "ab")
			emit.Opcodes(w, opcode.PUSHM1, opcode.PICKITEM)
		}, "The index of PrimitiveType is out of range, -1/[0, 2)."},
		{"SETITEM Array", func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.PUSH1, opcode.NEWARRAY, opcode.PUSH1, opcode.NEWMAP, opcode.SETITEM)
		}, "The index of VMArray is out of range, 1/[0, 1)."},
		{"SETITEM Buffer", func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.PUSH1, opcode.NEWBUFFER, opcode.PUSH1, opcode.PUSH7, opcode.SETITEM)
		}, "The index of Buffer is out of range, 1/[0, 1)."},
	}
	for _, c := range cases {
		v := New()
		if st := run(t, v, caught(c.body)); st != vmstate.Halt {
			t.Fatalf("%s: %s (%v)", c.name, st, v.FaultError())
		}
		top := v.ResultStack().Items()[v.ResultStack().Len()-1]
		if got, _ := top.TryBytes(); string(got) != c.want {
			t.Errorf("%s: caught %q, want %q", c.name, got, c.want)
		}
		if v.refs.Count() != 1 {
			t.Errorf("%s: %d references left, want 1", c.name, v.refs.Count())
		}
	}

	v := New()
	rm := build(t, func(w *nio.BinWriter) { emit.Opcodes(w, opcode.NEWARRAY0, opcode.PUSH0, opcode.REMOVE) })
	if st := run(t, v, caught(func(w *nio.BinWriter) { w.WriteBytes(rm) })); st != vmstate.Fault {
		t.Fatalf("REMOVE: %s", st)
	}
	err := v.FaultError()
	if !errors.Is(err, ErrInvalidOperation) || !strings.HasSuffix(err.Error(), "The index of VMArray is out of range, 0/[0, 0).") {
		t.Errorf("REMOVE: %v", err)
	}
}
