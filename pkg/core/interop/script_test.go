package interop_test

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// checkScriptMap is CheckScript as first written (instruction starts in a
// map), the reference for the allocation-free version.
func checkScriptMap(script []byte, methodOffsets []int) bool {
	ins, err := vm.Instructions(script)
	if err != nil {
		return false
	}
	starts := make(map[int]bool, len(ins))
	for _, in := range ins {
		starts[in.IP] = true
	}
	ok := func(in vm.Instruction, off int64) bool {
		t := int64(in.IP) + off
		return t >= 0 && t <= int64(len(script)) && (t == int64(len(script)) || starts[int(t)])
	}
	for _, in := range ins {
		good := true
		switch in.Op {
		case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.JMPEQ, opcode.JMPNE, opcode.JMPGT,
			opcode.JMPGE, opcode.JMPLT, opcode.JMPLE, opcode.CALL, opcode.ENDTRY:
			good = ok(in, int64(int8(in.Operand[0])))
		case opcode.PUSHA, opcode.JMPL, opcode.JMPIFL, opcode.JMPIFNOTL, opcode.JMPEQL, opcode.JMPNEL,
			opcode.JMPGTL, opcode.JMPGEL, opcode.JMPLTL, opcode.JMPLEL, opcode.CALLL, opcode.ENDTRYL:
			good = ok(in, int64(int32(binary.LittleEndian.Uint32(in.Operand))))
		case opcode.TRY:
			good = ok(in, int64(int8(in.Operand[0]))) && ok(in, int64(int8(in.Operand[1])))
		case opcode.TRYL:
			good = ok(in, int64(int32(binary.LittleEndian.Uint32(in.Operand)))) &&
				ok(in, int64(int32(binary.LittleEndian.Uint32(in.Operand[4:]))))
		case opcode.NEWARRAYT, opcode.ISTYPE, opcode.CONVERT:
			t := stackitem.Type(in.Operand[0])
			good = t.IsValid() && (t != stackitem.AnyT || in.Op == opcode.NEWARRAYT)
		}
		if !good {
			return false
		}
	}
	for _, off := range methodOffsets {
		if !starts[off] {
			return false
		}
	}
	return true
}

// randomScript draws a script of mostly valid instructions with jumps,
// TRYs and type operands (the cases CheckScript judges), of up to n bytes.
func randomScript(r *rand.Rand, n int) []byte {
	var s []byte
	ops := []opcode.Opcode{opcode.JMP, opcode.JMPIF, opcode.CALL, opcode.ENDTRY, opcode.JMPL, opcode.PUSHA,
		opcode.CALLL, opcode.TRY, opcode.TRYL, opcode.NEWARRAYT, opcode.ISTYPE, opcode.CONVERT,
		opcode.PUSH1, opcode.NOP, opcode.PUSHINT16, opcode.PUSHDATA1, opcode.RET, opcode.ASSERT}
	for len(s) < n {
		op := ops[r.IntN(len(ops))]
		if r.IntN(4) != 0 { // mostly plain instructions
			op = ops[12+r.IntN(len(ops)-12)]
		}
		s = append(s, byte(op))
		// Jump offsets: mostly 0 (the instruction itself, a boundary).
		short := func() byte {
			if r.IntN(4) != 0 {
				return 0
			}
			return byte(int8(r.IntN(2*len(s)+8) - len(s) - 4))
		}
		long := func() []byte {
			if r.IntN(4) != 0 {
				return make([]byte, 4)
			}
			return binary.LittleEndian.AppendUint32(nil, uint32(int32(r.IntN(2*len(s)+16)-len(s)-8)))
		}
		switch op {
		case opcode.JMP, opcode.JMPIF, opcode.CALL, opcode.ENDTRY:
			s = append(s, short())
		case opcode.JMPL, opcode.PUSHA, opcode.CALLL:
			s = append(s, long()...)
		case opcode.TRY:
			s = append(s, short(), short())
		case opcode.TRYL:
			s = append(append(s, long()...), long()...)
		case opcode.NEWARRAYT, opcode.ISTYPE, opcode.CONVERT:
			types := []byte{0x00, 0x10, 0x11, 0x20, 0x21, 0x28, 0x30, 0x40, 0x41, 0x48, 0x60, 0x13}
			s = append(s, types[r.IntN(len(types))])
		case opcode.PUSHINT16:
			s = append(s, byte(r.Uint32()), byte(r.Uint32()))
		case opcode.PUSHDATA1:
			k := r.IntN(4)
			s = append(s, byte(k))
			s = append(s, make([]byte, k)...)
		}
	}
	if r.IntN(16) == 0 && len(s) > 0 { // sometimes a truncated or undecodable tail
		s = s[:r.IntN(len(s))]
		s = append(s, byte(r.IntN(256)))
	}
	return s
}

// TestCheckScriptMatchesMapVersion compares CheckScript with the map-based
// reference on random scripts around the stack buffers' limits (32
// instructions, 1,024 bytes).
func TestCheckScriptMatchesMapVersion(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var valid, invalid int
	for i := range 20000 {
		n := 1 + r.IntN(64)
		if i%10 == 0 {
			n = 900 + r.IntN(300)
		}
		s := randomScript(r, n)
		var offs []int
		if i%3 == 0 {
			offs = []int{r.IntN(len(s) + 2)}
		}
		want := checkScriptMap(s, offs)
		err := interop.CheckScript(s, offs)
		if (err == nil) != want {
			t.Fatalf("script %x, offsets %v: CheckScript %v, reference valid %v", s, offs, err, want)
		}
		if err != nil && !errors.Is(err, interop.ErrInvalidScript) {
			t.Fatalf("script %x: error %v is not ErrInvalidScript", s, err)
		}
		if want {
			valid++
		} else {
			invalid++
		}
	}
	if valid < 500 || invalid < 500 {
		t.Fatalf("unbalanced cases: %d valid, %d invalid", valid, invalid)
	}
	if testing.Verbose() {
		t.Logf("%d valid, %d invalid scripts agree", valid, invalid)
	}
}

// BenchmarkCheckScript: the checks of a transaction's admission, a NEP-17
// transfer script and a signature verification script.
func BenchmarkCheckScript(b *testing.B) {
	var acc hash.Uint160
	w := nio.NewBufBinWriter()
	emit.AppCall(w, acc, "transfer", callflag.All, acc, acc, 1, nil)
	emit.Opcodes(w, opcode.ASSERT)
	transfer := w.Bytes()
	sig := append([]byte{byte(opcode.PUSHDATA1), 33}, make([]byte, 33)...)
	sig = append(sig, byte(opcode.SYSCALL), 0x56, 0xe7, 0xb3, 0x27)
	for _, c := range []struct {
		name   string
		script []byte
	}{{"transfer", transfer}, {"signature", sig}} {
		if err := interop.CheckScript(c.script, nil); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = interop.CheckScript(c.script, nil)
			}
		})
	}
}
