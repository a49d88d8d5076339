package chaingen

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Opcode is a NeoVM instruction (values from neo-vm src/Neo.VM/OpCode.cs).
type Opcode byte

// The opcodes the scenario's scripts use, by what they do.
const (
	// Constants.
	PUSHINT8 Opcode = 0x00
	PUSHT    Opcode = 0x08
	PUSHF    Opcode = 0x09
	PUSHNULL Opcode = 0x0B
	PUSHM1   Opcode = 0x0F
	PUSH0    Opcode = 0x10
	PUSH1    Opcode = 0x11
	PUSH2    Opcode = 0x12
	PUSH15   Opcode = 0x1F

	// Byte strings with a 1-, 2- or 4-byte length prefix.
	PUSHDATA1 Opcode = 0x0C
	PUSHDATA2 Opcode = 0x0D
	PUSHDATA4 Opcode = 0x0E

	// Control flow.
	NOP       Opcode = 0x21
	JMP       Opcode = 0x22
	JMPIF     Opcode = 0x24
	JMPIFNOT  Opcode = 0x26
	CALL      Opcode = 0x34
	ABORT     Opcode = 0x38
	ASSERT    Opcode = 0x39
	THROW     Opcode = 0x3A
	RET       Opcode = 0x40
	SYSCALL   Opcode = 0x41
	ASSERTMSG Opcode = 0xE1

	// Stack, slots, arithmetic and compound types.
	DROP      Opcode = 0x45
	DUP       Opcode = 0x4A
	INITSLOT  Opcode = 0x57
	LDARG0    Opcode = 0x78
	LDARG1    Opcode = 0x79
	LDARG2    Opcode = 0x7A
	INC       Opcode = 0x9C
	ADD       Opcode = 0x9E
	DIV       Opcode = 0xA1
	PACK      Opcode = 0xC0
	NEWARRAY0 Opcode = 0xC2
	ISNULL    Opcode = 0xD8
)

// CallFlags values (C#: Neo.SmartContract.CallFlags).
const (
	CallFlagsReadOnly = 0x05 // ReadStates | AllowCall
	CallFlagsAll      = 0x0F
)

// SyscallID returns the interop id of a syscall name: the first four bytes
// of SHA-256(name), read as a little-endian u32.
func SyscallID(name string) uint32 {
	h := sha256.Sum256([]byte(name))
	return binary.LittleEndian.Uint32(h[:4])
}

// Builder assembles a NeoVM script. Jumps name labels and are emitted in
// their 4-byte (_L) form, resolved by Script.
type Builder struct {
	buf    []byte
	labels map[string]int
	fixups []fixup
	err    error
}

type fixup struct {
	at    int // position of the i32 operand
	instr int // position of the jump instruction
	label string
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{labels: make(map[string]int)} }

// Len is the current script length (the offset of the next instruction).
func (b *Builder) Len() int { return len(b.buf) }

// Op emits operand-less instructions.
func (b *Builder) Op(ops ...Opcode) {
	for _, o := range ops {
		b.buf = append(b.buf, byte(o))
	}
}

// OpArgs emits one instruction with raw operand bytes.
func (b *Builder) OpArgs(o Opcode, operand ...byte) {
	b.buf = append(b.buf, byte(o))
	b.buf = append(b.buf, operand...)
}

// Label marks the current offset.
func (b *Builder) Label(name string) {
	if _, dup := b.labels[name]; dup && b.err == nil {
		b.err = fmt.Errorf("chaingen: label %q defined twice", name)
	}
	b.labels[name] = len(b.buf)
}

// Jump emits the long form of a jump or CALL opcode (given by its short
// form, e.g. JMPIF) to label.
func (b *Builder) Jump(short Opcode, label string) {
	instr := len(b.buf)
	b.buf = append(b.buf, byte(short)+1, 0, 0, 0, 0)
	b.fixups = append(b.fixups, fixup{at: instr + 1, instr: instr, label: label})
}

// Syscall emits SYSCALL with the id of name.
func (b *Builder) Syscall(name string) {
	b.buf = append(b.buf, byte(SYSCALL))
	b.buf = binary.LittleEndian.AppendUint32(b.buf, SyscallID(name))
}

// Bytes pushes a byte string (PUSHDATA1/2/4).
func (b *Builder) Bytes(data []byte) {
	switch n := len(data); {
	case n < 0x100:
		b.buf = append(b.buf, byte(PUSHDATA1), byte(n))
	case n < 0x10000:
		b.buf = append(b.buf, byte(PUSHDATA2))
		b.buf = binary.LittleEndian.AppendUint16(b.buf, uint16(n))
	default:
		b.buf = append(b.buf, byte(PUSHDATA4))
		b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(n))
	}
	b.buf = append(b.buf, data...)
}

// String pushes a UTF-8 string.
func (b *Builder) String(s string) { b.Bytes([]byte(s)) }

// Int pushes an integer with the shortest instruction.
func (b *Builder) Int(v int64) { b.BigInt(big.NewInt(v)) }

// BigInt pushes an integer of up to 256 bits with the shortest instruction.
func (b *Builder) BigInt(v *big.Int) {
	if v.IsInt64() && v.Int64() >= -1 && v.Int64() <= 16 {
		b.Op(PUSH0 + Opcode(v.Int64()))
		return
	}
	le := twosComplementLE(v)
	for i, size := range []int{1, 2, 4, 8, 16, 32} {
		if len(le) <= size {
			pad := byte(0)
			if v.Sign() < 0 {
				pad = 0xff
			}
			for len(le) < size {
				le = append(le, pad)
			}
			b.OpArgs(PUSHINT8+Opcode(i), le...)
			return
		}
	}
	if b.err == nil {
		b.err = fmt.Errorf("chaingen: integer %s exceeds 256 bits", v)
	}
}

// twosComplementLE is C#'s BigInteger.ToByteArray: minimal two's complement,
// little-endian.
func twosComplementLE(v *big.Int) []byte {
	if v.Sign() == 0 {
		return []byte{0}
	}
	var be []byte
	if v.Sign() > 0 {
		be = v.Bytes()
		if be[0]&0x80 != 0 {
			be = append([]byte{0}, be...)
		}
	} else {
		// two's complement of |v| in n bytes, n minimal
		n := (v.BitLen() + 8) / 8
		m := new(big.Int).Lsh(big.NewInt(1), uint(n*8))
		m.Add(m, v)
		be = m.FillBytes(make([]byte, n))
		for len(be) > 1 && be[0] == 0xff && be[1]&0x80 != 0 {
			be = be[1:]
		}
	}
	slices.Reverse(be)
	return be
}

// Push pushes a Go value: integers, *big.Int, bool, []byte, string,
// hash.Uint160 (its 20 bytes), nil (PUSHNULL) and []any (an array, built with
// PACK so that element 0 comes first).
func (b *Builder) Push(v any) {
	switch x := v.(type) {
	case nil:
		b.Op(PUSHNULL)
	case bool:
		if x {
			b.Op(PUSHT)
		} else {
			b.Op(PUSHF)
		}
	case int:
		b.Int(int64(x))
	case int64:
		b.Int(x)
	case uint32:
		b.Int(int64(x))
	case *big.Int:
		b.BigInt(x)
	case []byte:
		b.Bytes(x)
	case string:
		b.String(x)
	case hash.Uint160:
		b.Bytes(x[:])
	case []any:
		if len(x) == 0 {
			b.Op(NEWARRAY0)
			return
		}
		for i := len(x) - 1; i >= 0; i-- {
			b.Push(x[i])
		}
		b.Int(int64(len(x)))
		b.Op(PACK)
	default:
		if b.err == nil {
			b.err = fmt.Errorf("chaingen: cannot push %T", v)
		}
	}
}

// Call emits System.Contract.Call of method on contract with args; the
// callee's return value (Null for void methods) is left on the stack.
func (b *Builder) Call(contract hash.Uint160, method string, flags byte, args ...any) {
	if args == nil {
		args = []any{}
	}
	b.Push(args)
	b.Int(int64(flags))
	b.String(method)
	b.Bytes(contract[:])
	b.Syscall("System.Contract.Call")
}

// Script resolves jumps and returns the script.
func (b *Builder) Script() ([]byte, error) {
	if b.err != nil {
		return nil, b.err
	}
	out := slices.Clone(b.buf)
	for _, f := range b.fixups {
		target, ok := b.labels[f.label]
		if !ok {
			return nil, fmt.Errorf("chaingen: undefined label %q", f.label)
		}
		binary.LittleEndian.PutUint32(out[f.at:], uint32(int32(target-f.instr)))
	}
	return out, nil
}
