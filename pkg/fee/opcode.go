package fee

import "github.com/n3node/n3node/pkg/vm/opcode"

// priceTiers is C# ApplicationEngine.OpCodePriceTable grouped by price: every
// opcode costs a power of two times the exec fee factor, so the table is
// written as the opcodes of each power. Opcodes in no tier (SYSCALL, whose
// price is the syscall's, and the undefined ones, which fault when decoded
// before any charge) cost 0. testdata/opcode_prices.txt pins every price.
var priceTiers = [...]struct {
	log2 uint
	ops  []opcode.Opcode
}{
	{0, []opcode.Opcode{
		opcode.PUSHINT8, opcode.PUSHINT16, opcode.PUSHINT32, opcode.PUSHINT64, opcode.PUSHT,
		opcode.PUSHF, opcode.PUSHNULL, opcode.PUSHM1, opcode.PUSH0, opcode.PUSH1, opcode.PUSH2,
		opcode.PUSH3, opcode.PUSH4, opcode.PUSH5, opcode.PUSH6, opcode.PUSH7, opcode.PUSH8,
		opcode.PUSH9, opcode.PUSH10, opcode.PUSH11, opcode.PUSH12, opcode.PUSH13, opcode.PUSH14,
		opcode.PUSH15, opcode.PUSH16, opcode.NOP, opcode.ASSERT, opcode.ASSERTMSG,
	}},
	{1, []opcode.Opcode{
		opcode.JMP, opcode.JMPL, opcode.JMPIF, opcode.JMPIFL, opcode.JMPIFNOT, opcode.JMPIFNOTL,
		opcode.JMPEQ, opcode.JMPEQL, opcode.JMPNE, opcode.JMPNEL, opcode.JMPGT, opcode.JMPGTL,
		opcode.JMPGE, opcode.JMPGEL, opcode.JMPLT, opcode.JMPLTL, opcode.JMPLE, opcode.JMPLEL,
		opcode.DEPTH, opcode.DROP, opcode.NIP, opcode.DUP, opcode.OVER, opcode.PICK, opcode.TUCK,
		opcode.SWAP, opcode.ROT, opcode.REVERSE3, opcode.REVERSE4, opcode.LDSFLD0, opcode.LDSFLD1,
		opcode.LDSFLD2, opcode.LDSFLD3, opcode.LDSFLD4, opcode.LDSFLD5, opcode.LDSFLD6,
		opcode.LDSFLD, opcode.STSFLD0, opcode.STSFLD1, opcode.STSFLD2, opcode.STSFLD3,
		opcode.STSFLD4, opcode.STSFLD5, opcode.STSFLD6, opcode.STSFLD, opcode.LDLOC0, opcode.LDLOC1,
		opcode.LDLOC2, opcode.LDLOC3, opcode.LDLOC4, opcode.LDLOC5, opcode.LDLOC6, opcode.LDLOC,
		opcode.STLOC0, opcode.STLOC1, opcode.STLOC2, opcode.STLOC3, opcode.STLOC4, opcode.STLOC5,
		opcode.STLOC6, opcode.STLOC, opcode.LDARG0, opcode.LDARG1, opcode.LDARG2, opcode.LDARG3,
		opcode.LDARG4, opcode.LDARG5, opcode.LDARG6, opcode.LDARG, opcode.STARG0, opcode.STARG1,
		opcode.STARG2, opcode.STARG3, opcode.STARG4, opcode.STARG5, opcode.STARG6, opcode.STARG,
		opcode.ISNULL, opcode.ISTYPE,
	}},
	{2, []opcode.Opcode{
		opcode.PUSHINT128, opcode.PUSHINT256, opcode.PUSHA, opcode.TRY, opcode.TRYL, opcode.ENDTRY,
		opcode.ENDTRYL, opcode.ENDFINALLY, opcode.INVERT, opcode.SIGN, opcode.ABS, opcode.NEGATE,
		opcode.INC, opcode.DEC, opcode.NOT, opcode.NZ, opcode.SIZE,
	}},
	{3, []opcode.Opcode{
		opcode.PUSHDATA1, opcode.AND, opcode.OR, opcode.XOR, opcode.ADD, opcode.SUB, opcode.MUL,
		opcode.DIV, opcode.MOD, opcode.SHL, opcode.SHR, opcode.BOOLAND, opcode.BOOLOR,
		opcode.NUMEQUAL, opcode.NUMNOTEQUAL, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.MIN,
		opcode.MAX, opcode.WITHIN, opcode.NEWMAP,
	}},
	{4, []opcode.Opcode{
		opcode.XDROP, opcode.CLEAR, opcode.ROLL, opcode.REVERSEN, opcode.INITSSLOT, opcode.NEWARRAY0,
		opcode.NEWSTRUCT0, opcode.KEYS, opcode.REMOVE, opcode.CLEARITEMS, opcode.POPITEM,
	}},
	{5, []opcode.Opcode{
		opcode.EQUAL, opcode.NOTEQUAL, opcode.MODMUL,
	}},
	{6, []opcode.Opcode{
		opcode.INITSLOT, opcode.POW, opcode.SQRT, opcode.HASKEY, opcode.PICKITEM,
	}},
	{8, []opcode.Opcode{
		opcode.NEWBUFFER,
	}},
	{9, []opcode.Opcode{
		opcode.PUSHDATA2, opcode.CALL, opcode.CALLL, opcode.CALLA, opcode.THROW, opcode.NEWARRAY,
		opcode.NEWARRAYT, opcode.NEWSTRUCT,
	}},
	{11, []opcode.Opcode{
		opcode.MEMCPY, opcode.CAT, opcode.SUBSTR, opcode.LEFT, opcode.RIGHT, opcode.MODPOW,
		opcode.PACKMAP, opcode.PACKSTRUCT, opcode.PACK, opcode.UNPACK,
	}},
	{12, []opcode.Opcode{
		opcode.PUSHDATA4,
	}},
	{13, []opcode.Opcode{
		opcode.VALUES, opcode.APPEND, opcode.SETITEM, opcode.REVERSEITEMS, opcode.CONVERT,
	}},
	{15, []opcode.Opcode{
		opcode.CALLT,
	}},
}

// opcodePrices is priceTiers indexed by opcode.
var opcodePrices = func() (t [256]uint32) {
	for _, tier := range priceTiers {
		for _, op := range tier.ops {
			t[op] = 1 << tier.log2
		}
	}
	return t
}()

// Opcode returns the price of op in units of the exec fee factor.
func Opcode(op opcode.Opcode) int64 { return int64(opcodePrices[op]) }
