package contractcmd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// instr is one decoded instruction.
type instr struct {
	pos     int
	op      opcode.Opcode
	operand []byte // nil for opcodes without an operand
	size    int
}

var errTruncated = errors.New("instruction out of bounds")

// decodeInstr decodes the instruction at pos of script.
func decodeInstr(script []byte, pos int) (instr, error) {
	op := opcode.Opcode(script[pos])
	in := instr{pos: pos, op: op, size: 1}
	if !op.IsValid() {
		return in, fmt.Errorf("invalid opcode %s", op)
	}
	n := op.OperandSize()
	p := pos + 1
	if ps := op.PrefixSize(); ps > 0 {
		if p+ps > len(script) {
			return in, errTruncated
		}
		switch ps {
		case 1:
			n = int(script[p])
		case 2:
			n = int(binary.LittleEndian.Uint16(script[p:]))
		default:
			n = int(binary.LittleEndian.Uint32(script[p:]))
		}
		p += ps
	} else if n == 0 {
		return in, nil
	}
	if n < 0 || n > len(script)-p {
		return in, errTruncated
	}
	in.operand = script[p : p+n : p+n]
	in.size = p + n - pos
	return in, nil
}

// syscallNames maps syscall IDs to names.
var syscallNames = func() map[uint32]string {
	m := map[uint32]string{}
	for _, f := range interop.Functions() {
		m[f.ID] = f.Name
	}
	return m
}()

// jumpTarget describes a relative jump operand as "target (offset/hex)".
func jumpTarget(in instr, operand []byte, length int) string {
	var rel int
	switch len(operand) {
	case 1:
		rel = int(int8(operand[0]))
	case 4:
		rel = int(int32(binary.LittleEndian.Uint32(operand)))
	default:
		return fmt.Sprintf("ERROR: invalid %s parameter length: %d", in.op, len(operand))
	}
	to := in.pos + rel
	if to < 0 || to > length {
		return fmt.Sprintf("ERROR: invalid offset %d ip at %d", to, in.pos)
	}
	return fmt.Sprintf("%d (%d/%x)", to, rel, operand)
}

// describe is the PARAMETER column of an instruction, as neo-go prints it.
func describe(in instr, length int) string {
	p := in.operand
	if p == nil {
		return ""
	}
	switch in.op {
	case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.CALL, opcode.JMPEQ, opcode.JMPNE,
		opcode.JMPGT, opcode.JMPGE, opcode.JMPLE, opcode.JMPLT,
		opcode.JMPL, opcode.JMPIFL, opcode.JMPIFNOTL, opcode.CALLL, opcode.JMPEQL, opcode.JMPNEL,
		opcode.JMPGTL, opcode.JMPGEL, opcode.JMPLEL, opcode.JMPLTL,
		opcode.PUSHA, opcode.ENDTRY, opcode.ENDTRYL:
		return jumpTarget(in, p, length)
	case opcode.TRY, opcode.TRYL:
		half := len(p) / 2
		return fmt.Sprintf("catch %s, finally %s", jumpTarget(in, p[:half], length), jumpTarget(in, p[half:], length))
	case opcode.INITSSLOT:
		return fmt.Sprint(p[0])
	case opcode.INITSLOT:
		return fmt.Sprintf("%d local, %d arg", p[0], p[1])
	case opcode.CONVERT, opcode.ISTYPE:
		t := stackitem.Type(p[0])
		name := "INVALID"
		if t.IsValid() {
			name = t.String()
		}
		return fmt.Sprintf("%s (%x)", name, p[0])
	case opcode.SYSCALL:
		name, ok := syscallNames[binary.LittleEndian.Uint32(p)]
		if !ok {
			name = "not found"
		}
		return fmt.Sprintf("%s (%x)", name, p)
	case opcode.PUSHINT8, opcode.PUSHINT16, opcode.PUSHINT32, opcode.PUSHINT64, opcode.PUSHINT128, opcode.PUSHINT256:
		return fmt.Sprintf("%d (%x)", bigint.FromBytes(p), p)
	case opcode.LDLOC, opcode.STLOC, opcode.LDARG, opcode.STARG, opcode.LDSFLD, opcode.STSFLD:
		return fmt.Sprintf("%d (%x)", p[0], p)
	}
	if utf8.Valid(p) {
		return fmt.Sprintf("%x (%q)", p, p)
	}
	if len(p) == hash.Uint160Size {
		u := hash.Uint160(p)
		return fmt.Sprintf("%x (%q, %q)", p, address.FromUint160(u), "0x"+u.StringLE())
	}
	return fmt.Sprintf("%x", p)
}

// sourceLines gives, for a script offset, the source line to print before
// the instruction there (empty: none).
type sourceLines func(offset int) string

// writeOps writes neo-go's `contract inspect` listing of script: INDEX,
// OPCODE and PARAMETER columns (tab-aligned), the first instruction marked
// "<<" (the instruction pointer of a freshly loaded script). With src,
// each instruction starting a sequence point is preceded by its source
// line (added after alignment, so the columns stay neo-go's).
func writeOps(out io.Writer, script []byte, src sourceLines) error {
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 0, 4, ' ', 0)
	fmt.Fprintln(w, "INDEX\tOPCODE\tPARAMETER")
	var rows []int // offset of each listed instruction
	for pos := 0; ; {
		rows = append(rows, pos)
		cursor := ""
		if pos == 0 {
			cursor = "\t<<"
		}
		if pos >= len(script) {
			// neo-go decodes the implicit RET past the end of an empty
			// script.
			fmt.Fprintf(w, "%d\t%s\t%s\n", pos, opcode.RET, cursor)
			break
		}
		in, err := decodeInstr(script, pos)
		if err != nil {
			fmt.Fprintf(w, "%d\t%s\tERROR: %s%s\n", pos, in.op, err, cursor)
			break
		}
		fmt.Fprintf(w, "%d\t%s\t%s%s\n", pos, in.op, describe(in, len(script)), cursor)
		pos += in.size
		if pos >= len(script) {
			break
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if src == nil {
		_, err := out.Write(buf.Bytes())
		return err
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	var sb strings.Builder
	sb.WriteString(lines[0])
	for i, off := range rows {
		if l := src(off); l != "" {
			sb.WriteString(l + "\n")
		}
		sb.WriteString(lines[i+1])
	}
	_, err := io.WriteString(out, sb.String())
	return err
}
