// Package opcode defines the NeoVM instruction set: every opcode of the C#
// neo-vm OpCode enum with its mnemonic and operand layout.
//
// Go names drop the underscore of the C# names (JMP_L is JMPL, NEWARRAY_T is
// NEWARRAYT); String and FromString use the C# mnemonic, which is what the
// JSON test suite, debuggers and neo-go's tooling print.
//
// An operand is either fixed-size (OperandSize > 0) or prefixed by its length
// in 1, 2 or 4 little-endian bytes (PUSHDATA1/2/4, PrefixSize). Bytes that are
// not defined opcodes are invalid: the VM faults when it reaches one.
package opcode
