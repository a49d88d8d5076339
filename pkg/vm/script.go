package vm

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrBadScript is returned for bytes that do not decode as instructions
// (C# BadScriptException).
var ErrBadScript = errors.New("bad script")

// Script is a loaded program. Its identity matters: pointers (PUSHA) are
// valid only within the Script object that created them, as in C#, so load
// every contract invocation from a new Script (NewScript is cheap and does
// not copy).
type Script struct {
	b []byte
}

// NewScript wraps b, which the VM never modifies; the caller must not modify
// it while the script may run.
func NewScript(b []byte) *Script { return &Script{b: b} }

// Bytes returns the script bytes.
func (s *Script) Bytes() []byte { return s.b }

// Len returns the script length.
func (s *Script) Len() int { return len(s.b) }

// decodeAt decodes the instruction at ip (0 <= ip < len(b)) and returns its
// opcode, operand and size (C# Instruction constructor).
func decodeAt(b []byte, ip int) (opcode.Opcode, []byte, int, error) {
	op := opcode.Opcode(b[ip])
	info := operandInfo[op]
	if info == 0 {
		return op, nil, 1, nil
	}
	if info == undefinedOp {
		return op, nil, 0, fmt.Errorf("%w: invalid opcode 0x%02X at %d", ErrBadScript, byte(op), ip)
	}
	p := ip + 1
	var n int
	if info > 0 {
		n = int(info)
	} else {
		switch info {
		case -1:
			if p >= len(b) {
				return op, nil, 0, fmt.Errorf("%w: Instruction out of bounds. InstructionPointer: %d", ErrBadScript, p)
			}
			n = int(b[p])
			p++
		case -2:
			if p+1 >= len(b) {
				return op, nil, 0, fmt.Errorf("%w: Instruction out of bounds. InstructionPointer: %d", ErrBadScript, p)
			}
			n = int(binary.LittleEndian.Uint16(b[p:]))
			p += 2
		case -4:
			if p+3 >= len(b) {
				return op, nil, 0, fmt.Errorf("%w: Instruction out of bounds. InstructionPointer: %d", ErrBadScript, p)
			}
			n = int(int32(binary.LittleEndian.Uint32(b[p:])))
			if n < 0 {
				return op, nil, 0, fmt.Errorf("%w: Instruction out of bounds. InstructionPointer: %d, operandSize: %d", ErrBadScript, p, n)
			}
			p += 4
		}
	}
	if n > len(b)-p {
		return op, nil, 0, fmt.Errorf("%w: Instruction out of bounds. InstructionPointer: %d, operandSize: %d, length: %d", ErrBadScript, p, n, len(b))
	}
	return op, b[p : p+n : p+n], p + n - ip, nil
}

const undefinedOp = int8(-128)

// operandInfo: 0 = no operand, >0 fixed operand size, -1/-2/-4 = length
// prefix size, undefinedOp = undefined opcode.
var operandInfo = func() [256]int8 {
	var t [256]int8
	for i := range t {
		op := opcode.Opcode(i)
		switch {
		case !op.IsValid():
			t[i] = undefinedOp
		case op.PrefixSize() > 0:
			t[i] = int8(-op.PrefixSize())
		default:
			t[i] = int8(op.OperandSize())
		}
	}
	return t
}()

// Instruction is a decoded instruction, as returned by Instructions.
type Instruction struct {
	IP      int
	Op      opcode.Opcode
	Operand []byte
}

// Instructions decodes b from the start; it stops at the first undecodable
// instruction and returns the error.
func Instructions(b []byte) ([]Instruction, error) {
	return AppendInstructions(nil, b)
}

// AppendInstructions is Instructions appending to dst (so a caller can
// decode into a buffer of its own, e.g. on its stack). The operands are
// sub-slices of b.
func AppendInstructions(dst []Instruction, b []byte) ([]Instruction, error) {
	for ip := 0; ip < len(b); {
		op, operand, size, err := decodeAt(b, ip)
		if err != nil {
			return dst, err
		}
		dst = append(dst, Instruction{IP: ip, Op: op, Operand: operand})
		ip += size
	}
	return dst, nil
}

// ValidateScript is the strict-mode check of C# Script (used when contracts
// are deployed or updated): every instruction decodes, every jump, call,
// TRY and PUSHA target is the start of an instruction, and the type operand
// of NEWARRAY_T, ISTYPE and CONVERT is a defined type (not Any, except for
// NEWARRAY_T).
func ValidateScript(b []byte) error {
	ins, err := Instructions(b)
	if err != nil {
		return err
	}
	starts := make(map[int]struct{}, len(ins))
	for _, in := range ins {
		starts[in.IP] = struct{}{}
	}
	check := func(in Instruction, off int64) error {
		t := int64(in.IP) + off
		if t < -1<<31 || t > 1<<31-1 {
			return fmt.Errorf("%w: ip: %d, opcode: %s: target overflow", ErrBadScript, in.IP, in.Op)
		}
		if _, ok := starts[int(t)]; !ok {
			return fmt.Errorf("%w: ip: %d, opcode: %s", ErrBadScript, in.IP, in.Op)
		}
		return nil
	}
	return CheckOperands(ins, check, func(in Instruction, t stackitem.Type) error {
		if !t.IsValid() || (in.Op != opcode.NEWARRAYT && t == stackitem.AnyT) {
			return fmt.Errorf("%w: ip: %d, opcode: %s: invalid type %d", ErrBadScript, in.IP, in.Op, byte(t))
		}
		return nil
	})
}

// CheckOperands walks ins and calls target with every jump, CALL, TRY,
// ENDTRY and PUSHA offset (relative to the instruction's IP; TRY gives its
// catch, then its finally offset) and typ with the type operand of
// NEWARRAY_T, ISTYPE and CONVERT, stopping at the first error. It is the
// one operand walk of ValidateScript and of the ledger's script check
// (interop.CheckScript), which word their errors differently.
func CheckOperands(ins []Instruction, target func(in Instruction, off int64) error, typ func(in Instruction, t stackitem.Type) error) error {
	for _, in := range ins {
		var err error
		switch in.Op {
		case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.JMPEQ, opcode.JMPNE, opcode.JMPGT,
			opcode.JMPGE, opcode.JMPLT, opcode.JMPLE, opcode.CALL, opcode.ENDTRY:
			err = target(in, int64(int8(in.Operand[0])))
		case opcode.PUSHA, opcode.JMPL, opcode.JMPIFL, opcode.JMPIFNOTL, opcode.JMPEQL, opcode.JMPNEL,
			opcode.JMPGTL, opcode.JMPGEL, opcode.JMPLTL, opcode.JMPLEL, opcode.CALLL, opcode.ENDTRYL:
			err = target(in, int64(int32(binary.LittleEndian.Uint32(in.Operand))))
		case opcode.TRY:
			if err = target(in, int64(int8(in.Operand[0]))); err == nil {
				err = target(in, int64(int8(in.Operand[1])))
			}
		case opcode.TRYL:
			if err = target(in, int64(int32(binary.LittleEndian.Uint32(in.Operand)))); err == nil {
				err = target(in, int64(int32(binary.LittleEndian.Uint32(in.Operand[4:]))))
			}
		case opcode.NEWARRAYT, opcode.ISTYPE, opcode.CONVERT:
			err = typ(in, stackitem.Type(in.Operand[0]))
		}
		if err != nil {
			return err
		}
	}
	return nil
}
