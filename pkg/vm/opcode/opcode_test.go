package opcode

import "testing"

func TestTables(t *testing.T) {
	all := All()
	if len(all) != 196 {
		t.Fatalf("%d opcodes, want 196", len(all))
	}
	for _, op := range all {
		got, err := FromString(op.String())
		if err != nil || got != op {
			t.Errorf("FromString(%s) = %v, %v", op, got, err)
		}
	}
	cases := []struct {
		op     Opcode
		name   string
		size   int
		prefix int
	}{
		{PUSHINT8, "PUSHINT8", 1, 0},
		{PUSHINT256, "PUSHINT256", 32, 0},
		{PUSHDATA1, "PUSHDATA1", 0, 1},
		{PUSHDATA2, "PUSHDATA2", 0, 2},
		{PUSHDATA4, "PUSHDATA4", 0, 4},
		{JMPL, "JMP_L", 4, 0},
		{TRYL, "TRY_L", 8, 0},
		{TRY, "TRY", 2, 0},
		{CALLT, "CALLT", 2, 0},
		{SYSCALL, "SYSCALL", 4, 0},
		{INITSLOT, "INITSLOT", 2, 0},
		{NEWARRAYT, "NEWARRAY_T", 1, 0},
		{RET, "RET", 0, 0},
		{ASSERTMSG, "ASSERTMSG", 0, 0},
	}
	for _, c := range cases {
		if c.op.String() != c.name || c.op.OperandSize() != c.size || c.op.PrefixSize() != c.prefix {
			t.Errorf("%s: name %s size %d prefix %d", c.name, c.op, c.op.OperandSize(), c.op.PrefixSize())
		}
	}
	if Opcode(0x06).IsValid() || Opcode(0xff).IsValid() {
		t.Error("undefined byte reported valid")
	}
	if Opcode(0xff).String() != "UNKNOWN(0xFF)" {
		t.Error(Opcode(0xff).String())
	}
	if _, err := FromString("JMPL"); err == nil {
		t.Error("Go name accepted as mnemonic")
	}
}
