package compiler

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/n3node/n3node/pkg/vm/opcode"
)

// label names a code position that may not be known yet. Jumps, calls,
// PUSHA and TRY_L are emitted in their long form with label numbers as
// operands; link replaces them with offsets.
type label uint16

// jumpRef is an emitted instruction whose operand holds labels.
type jumpRef struct {
	at     int
	op     opcode.Opcode
	target label
	second label // TRY_L's finally label
}

// slotRef is an emitted INITSLOT whose local count is filled in by link.
type slotRef struct {
	at     int
	locals *int
	name   string
}

// asm is the output buffer of the code generator: raw bytes plus the
// places that link must patch. Offsets recorded by other passes (sequence
// points, method ranges) are positions in buf before link.
type asm struct {
	buf    []byte
	labels []int // label -> position, -1 while unset
	jumps  []jumpRef
	slots  []slotRef
	err    error
}

func (a *asm) pos() int { return len(a.buf) }

func (a *asm) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

func (a *asm) newLabel() label {
	if len(a.labels) > math.MaxUint16 {
		a.fail(errors.New("too many labels"))
		return 0
	}
	a.labels = append(a.labels, -1)
	return label(len(a.labels) - 1)
}

// mark binds l to the current position.
func (a *asm) mark(l label) { a.labels[l] = len(a.buf) }

func (a *asm) op(ops ...opcode.Opcode) {
	for _, o := range ops {
		a.buf = append(a.buf, byte(o))
	}
}

func (a *asm) instr(o opcode.Opcode, operand ...byte) {
	a.buf = append(a.buf, byte(o))
	a.buf = append(a.buf, operand...)
}

// jump emits a long-form jump or call (JMP_L family, CALL_L, ENDTRY_L,
// PUSHA) to l.
func (a *asm) jump(o opcode.Opcode, l label) {
	a.jumps = append(a.jumps, jumpRef{at: len(a.buf), op: o, target: l})
	a.instr(o, byte(l), byte(l>>8), 0, 0)
}

// skip emits a short jump over the next n bytes (JMPIF +n and the like,
// whose target is the position after those bytes).
func (a *asm) skip(o opcode.Opcode, n int) {
	l := label(len(a.labels))
	a.labels = append(a.labels, len(a.buf)+n)
	a.jumps = append(a.jumps, jumpRef{at: len(a.buf), op: o, target: l})
	a.instr(o, byte(int8(n)))
}

func isShortJump(o opcode.Opcode) bool {
	switch o {
	case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.JMPEQ, opcode.JMPNE,
		opcode.JMPGT, opcode.JMPGE, opcode.JMPLT, opcode.JMPLE, opcode.CALL, opcode.ENDTRY:
		return true
	}
	return false
}

// try emits TRY_L with catch and finally labels.
func (a *asm) try(catch, finally label) {
	a.jumps = append(a.jumps, jumpRef{at: len(a.buf), op: opcode.TRYL, target: catch, second: finally})
	a.instr(opcode.TRYL, byte(catch), byte(catch>>8), 0, 0, byte(finally), byte(finally>>8), 0, 0)
}

// initSlot emits INITSLOT whose locals count is read from *locals at link
// time.
func (a *asm) initSlot(locals *int, args int, name string) {
	a.slots = append(a.slots, slotRef{at: len(a.buf), locals: locals, name: name})
	a.instr(opcode.INITSLOT, 0, byte(args))
}

// truncate drops everything emitted at or after p (used to take back an
// INITSLOT that got no code after it).
func (a *asm) truncate(p int) {
	a.buf = a.buf[:p]
	a.jumps = slices.DeleteFunc(a.jumps, func(j jumpRef) bool { return j.at >= p })
	a.slots = slices.DeleteFunc(a.slots, func(s slotRef) bool { return s.at >= p })
}

// shortOf maps the long jumps that link may shorten to their int8 forms.
var shortOf = map[opcode.Opcode]opcode.Opcode{
	opcode.JMPL: opcode.JMP, opcode.JMPIFL: opcode.JMPIF, opcode.JMPIFNOTL: opcode.JMPIFNOT,
	opcode.JMPEQL: opcode.JMPEQ, opcode.JMPNEL: opcode.JMPNE, opcode.JMPGTL: opcode.JMPGT,
	opcode.JMPGEL: opcode.JMPGE, opcode.JMPLTL: opcode.JMPLT, opcode.JMPLEL: opcode.JMPLE,
	opcode.CALLL: opcode.CALL, opcode.ENDTRYL: opcode.ENDTRY,
}

// layout is the result of link: which old bytes were removed.
type layout struct {
	removed []int // sorted positions of removed bytes in the pre-link buffer
}

// newPos maps a pre-link position to the linked script.
func (l *layout) newPos(p int) int {
	n, _ := slices.BinarySearch(l.removed, p)
	return p - n
}

// newEnd maps the last byte of a range.
func (l *layout) newEnd(p int) int {
	n, found := slices.BinarySearch(l.removed, p)
	if found {
		n++
	}
	return p - n
}

// link resolves labels and shrinks the program. The decisions follow
// neo-go: each long jump whose offset, measured in the unshrunk program,
// fits int8 becomes short (3 bytes removed), a JMP_L to the very next
// instruction disappears (5 bytes), an INITSLOT with no locals and no
// arguments disappears (3 bytes). Offsets are then recomputed over the
// shrunk program; jumps that would only fit after shrinking stay long.
func (a *asm) link() ([]byte, *layout, error) {
	if a.err != nil {
		return nil, nil, a.err
	}
	type fix struct {
		jumpRef
		short bool
		gone  bool
	}
	lay := &layout{}
	fixes := make([]fix, 0, len(a.jumps))
	target := func(l label) (int, error) {
		if int(l) >= len(a.labels) || a.labels[l] < 0 {
			return 0, fmt.Errorf("internal error: label %d is not bound", l)
		}
		return a.labels[l], nil
	}
	for _, j := range a.jumps {
		f := fix{jumpRef: j}
		t, err := target(j.target)
		if err != nil {
			return nil, nil, err
		}
		if isShortJump(j.op) {
			if off := t - j.at; off < math.MinInt8 || off > math.MaxInt8 {
				return nil, nil, fmt.Errorf("internal error: short jump at %d out of range", j.at)
			}
			f.short = true
		} else if _, ok := shortOf[j.op]; ok {
			if off := t - j.at; off >= math.MinInt8 && off <= math.MaxInt8 {
				if j.op == opcode.JMPL && off == 5 {
					f.gone = true
					lay.removed = append(lay.removed, j.at, j.at+1, j.at+2, j.at+3, j.at+4)
				} else {
					f.short = true
					lay.removed = append(lay.removed, j.at+2, j.at+3, j.at+4)
				}
			}
		}
		fixes = append(fixes, f)
	}
	for _, s := range a.slots {
		locals := *s.locals
		if locals == 0 && a.buf[s.at+2] == 0 {
			lay.removed = append(lay.removed, s.at, s.at+1, s.at+2)
			continue
		}
		if locals > math.MaxUint8 {
			return nil, nil, fmt.Errorf("func '%s' has %d local variables (maximum is 255)", s.name, locals)
		}
		a.buf[s.at+1] = byte(locals)
	}
	slices.Sort(lay.removed)
	for _, f := range fixes {
		if f.gone {
			continue
		}
		t, _ := target(f.target)
		off := lay.newPos(t) - lay.newPos(f.at)
		switch {
		case f.short:
			if !isShortJump(f.op) {
				a.buf[f.at] = byte(shortOf[f.op])
			}
			a.buf[f.at+1] = byte(int8(off))
		case f.op == opcode.TRYL:
			binary.LittleEndian.PutUint32(a.buf[f.at+1:], uint32(int32(off)))
			t2, err := target(f.second)
			if err != nil {
				return nil, nil, err
			}
			binary.LittleEndian.PutUint32(a.buf[f.at+5:], uint32(int32(lay.newPos(t2)-lay.newPos(f.at))))
		default:
			binary.LittleEndian.PutUint32(a.buf[f.at+1:], uint32(int32(off)))
		}
	}
	out := make([]byte, 0, len(a.buf)-len(lay.removed))
	r := 0
	for i, b := range a.buf {
		if r < len(lay.removed) && lay.removed[r] == i {
			r++
			continue
		}
		out = append(out, b)
	}
	return out, lay, nil
}
