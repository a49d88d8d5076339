package opcode

import "fmt"

// Opcode is a single NeoVM instruction byte.
type Opcode byte

// String returns the C# mnemonic, or "UNKNOWN(0xNN)" for undefined bytes.
func (op Opcode) String() string {
	if s := names[op]; s != "" {
		return s
	}
	return fmt.Sprintf("UNKNOWN(0x%02X)", byte(op))
}

// IsValid reports whether op is a defined opcode.
func (op Opcode) IsValid() bool { return names[op] != "" }

// OperandSize returns the fixed operand size of op in bytes (0 for opcodes
// without an operand and for PUSHDATA*, see PrefixSize).
func (op Opcode) OperandSize() int {
	if s := operandSizes[op]; s > 0 {
		return int(s)
	}
	return 0
}

// PrefixSize returns the size of the operand-length prefix: 1, 2 or 4 for
// PUSHDATA1, PUSHDATA2 and PUSHDATA4, 0 otherwise.
func (op Opcode) PrefixSize() int {
	if s := operandSizes[op]; s < 0 {
		return int(-s)
	}
	return 0
}

var byName = func() map[string]Opcode {
	m := make(map[string]Opcode, 200)
	for i, n := range names {
		if n != "" {
			m[n] = Opcode(i)
		}
	}
	return m
}()

// FromString returns the opcode with the given C# mnemonic (case-sensitive,
// e.g. "JMP_L").
func FromString(s string) (Opcode, error) {
	if op, ok := byName[s]; ok {
		return op, nil
	}
	return 0, fmt.Errorf("unknown opcode %q", s)
}

// All returns every defined opcode in ascending order.
func All() []Opcode {
	res := make([]Opcode, 0, len(byName))
	for i, n := range names {
		if n != "" {
			res = append(res, Opcode(i))
		}
	}
	return res
}
