package smartcontract

// NeoVM opcodes used by the standard scripts (values from C# Neo.VM.OpCode).
const (
	opPUSHINT8  = 0x00
	opPUSHINT16 = 0x01
	opPUSHINT32 = 0x02
	opPUSHINT64 = 0x03
	opPUSHM1    = 0x0f
	opPUSH0     = 0x10
	opPUSH1     = 0x11
	opPUSH16    = 0x20
	opPUSHDATA1 = 0x0c
	opPUSHDATA2 = 0x0d
	opPUSHDATA4 = 0x0e
	opABORT     = 0x38
	opSYSCALL   = 0x41
)
