package listing

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

// errNoParam is neo-go's text for an instruction cut short.
var errNoParam = errors.New("failed to read instruction parameter")

// syscallNames maps interop ids to names.
var syscallNames = func() map[uint32]string {
	m := make(map[uint32]string)
	for _, f := range interop.Functions() {
		m[f.ID] = f.Name
	}
	return m
}()

// opName is an opcode as neo-go prints it (undefined bytes as Opcode(N)).
func opName(op opcode.Opcode) string {
	if !op.IsValid() {
		return fmt.Sprintf("Opcode(%d)", byte(op))
	}
	return op.String()
}

// nextInstr reads the instruction at ip the way neo-go's script printer
// does (its operand, without a PUSHDATA length prefix) and returns the
// offset of the next one.
func nextInstr(script []byte, ip int) (opcode.Opcode, []byte, int, error) {
	op := opcode.Opcode(script[ip])
	if !op.IsValid() {
		return op, nil, ip, fmt.Errorf("incorrect opcode %s", opName(op))
	}
	p := ip + 1
	n := op.OperandSize()
	if pre := op.PrefixSize(); pre > 0 {
		if p+pre > len(script) {
			return op, nil, ip, errNoParam
		}
		switch pre {
		case 1:
			n = int(script[p])
		case 2:
			n = int(binary.LittleEndian.Uint16(script[p:]))
		default:
			v := binary.LittleEndian.Uint32(script[p:])
			if v > stackitem.MaxSize {
				return op, nil, ip, errors.New("parameter is too big")
			}
			n = int(v)
		}
		p += pre
	}
	if n == 0 && op.PrefixSize() == 0 {
		return op, nil, p, nil
	}
	if p+n > len(script) {
		return op, nil, ip, errNoParam
	}
	return op, script[p : p+n], p + n, nil
}

// jumpDesc is "target (relative/operand hex)" of a jump-like operand at ip.
func jumpDesc(script []byte, ip int, op opcode.Opcode, param []byte) string {
	var rel int32
	switch len(param) {
	case 1:
		rel = int32(int8(param[0]))
	case 4:
		rel = int32(binary.LittleEndian.Uint32(param))
	default:
		return fmt.Sprintf("ERROR: invalid %s parameter length: %d", opName(op), len(param))
	}
	target := ip + int(rel)
	if target < 0 || target > len(script) {
		return fmt.Sprintf("ERROR: invalid offset %d ip at %d", target, ip)
	}
	return fmt.Sprintf("%d (%d/%x)", target, rel, param)
}

// paramDesc describes an operand as neo-go's VM.PrintOps does.
func paramDesc(script []byte, ip int, op opcode.Opcode, param []byte) string {
	switch op {
	case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.CALL, opcode.JMPEQ, opcode.JMPNE,
		opcode.JMPGT, opcode.JMPGE, opcode.JMPLE, opcode.JMPLT, opcode.JMPL, opcode.JMPIFL,
		opcode.JMPIFNOTL, opcode.CALLL, opcode.JMPEQL, opcode.JMPNEL, opcode.JMPGTL,
		opcode.JMPGEL, opcode.JMPLEL, opcode.JMPLTL, opcode.PUSHA, opcode.ENDTRY, opcode.ENDTRYL:
		return jumpDesc(script, ip, op, param)
	case opcode.TRY, opcode.TRYL:
		half := len(param) / 2
		return fmt.Sprintf("catch %s, finally %s", jumpDesc(script, ip, op, param[:half]), jumpDesc(script, ip, op, param[half:]))
	case opcode.INITSSLOT:
		return fmt.Sprint(param[0])
	case opcode.CONVERT, opcode.ISTYPE:
		t := stackitem.Type(param[0])
		name := "INVALID"
		if t.IsValid() {
			name = t.String()
		}
		return fmt.Sprintf("%s (%x)", name, param[0])
	case opcode.INITSLOT:
		return fmt.Sprintf("%d local, %d arg", param[0], param[1])
	case opcode.SYSCALL:
		name, ok := syscallNames[binary.LittleEndian.Uint32(param)]
		if !ok {
			name = "not found"
		}
		return fmt.Sprintf("%s (%x)", name, param)
	case opcode.PUSHINT8, opcode.PUSHINT16, opcode.PUSHINT32, opcode.PUSHINT64, opcode.PUSHINT128, opcode.PUSHINT256:
		return fmt.Sprintf("%d (%x)", bigint.FromBytes(param), param)
	case opcode.LDLOC, opcode.STLOC, opcode.LDARG, opcode.STARG, opcode.LDSFLD, opcode.STSFLD:
		return fmt.Sprintf("%d (%x)", param[0], param)
	}
	if utf8.Valid(param) {
		return fmt.Sprintf("%x (%q)", param, param)
	}
	if len(param) == hash.Uint160Size {
		u := hash.Uint160(param)
		return fmt.Sprintf("%x (%q, %q)", param, address.FromUint160(u), "0x"+u.StringLE())
	}
	return fmt.Sprintf("%x", param)
}

// Write writes the listing of script to out. With before (may be nil),
// the text it gives for an instruction's offset (none when empty) is
// printed on a line of its own above that instruction, after the columns
// are aligned, so the table itself stays neo-go's.
func Write(out io.Writer, script []byte, before func(offset int) string) error {
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 0, 4, ' ', 0)
	fmt.Fprintln(w, "INDEX\tOPCODE\tPARAMETER")
	var rows []int // the offset of each listed instruction
	for ip := 0; ; {
		rows = append(rows, ip)
		cursor := ""
		if ip == 0 {
			cursor = "\t<<"
		}
		if ip >= len(script) { // an empty script: neo-go shows the implicit RET
			fmt.Fprintf(w, "%d\t%s\t%s\n", ip, opcode.RET, cursor)
			break
		}
		op, param, next, err := nextInstr(script, ip)
		if err != nil {
			fmt.Fprintf(w, "%d\t%s\tERROR: %s%s\n", ip, opName(op), err, cursor)
			break
		}
		desc := ""
		if param != nil {
			desc = paramDesc(script, ip, op, param)
		}
		fmt.Fprintf(w, "%d\t%s\t%s%s\n", ip, opName(op), desc, cursor)
		if next >= len(script) {
			break
		}
		ip = next
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if before == nil {
		_, err := out.Write(buf.Bytes())
		return err
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	var sb strings.Builder
	sb.WriteString(lines[0])
	for i, off := range rows {
		if l := before(off); l != "" {
			sb.WriteString(l + "\n")
		}
		sb.WriteString(lines[i+1])
	}
	_, err := io.WriteString(out, sb.String())
	return err
}
