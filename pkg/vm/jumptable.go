package vm

import "github.com/n3node/n3node/pkg/vm/opcode"

// handler executes one instruction. ctx is the current context, whose IP
// still points at the instruction; arg is the operand. Handlers that move
// the IP themselves set v.jumping.
type handler func(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error

// jumpTable maps every opcode byte to its handler (C# JumpTable).
type jumpTable [256]handler

var (
	latestTable     jumpTable
	preGorgonTable  jumpTable
	preEchidnaTable jumpTable
)

// forkedHandler executes an instruction whose behaviour changed at a
// hardfork: latest is true from the fork on.
type forkedHandler func(v *VM, ctx *Context, op opcode.Opcode, latest bool) error

// at fixes the fork side of f.
func (f forkedHandler) at(latest bool) handler {
	return func(v *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
		return f(v, ctx, op, latest)
	}
}

// gorgonForked are the instructions changed by HF_Gorgon (neo-vm #543 and
// #567), echidnaForked those changed by HF_Echidna.
var (
	gorgonForked = map[opcode.Opcode]forkedHandler{
		opcode.HASKEY: hasKey, opcode.PICKITEM: pickItem, opcode.SETITEM: setItem,
		opcode.REMOVE: remove, opcode.SHL: shift, opcode.SHR: shift,
	}
	echidnaForked = map[opcode.Opcode]forkedHandler{opcode.SUBSTR: substr}
)

// families are the instructions numbered in a run (PUSH0..PUSH16,
// LDLOC0..LDLOC6 and LDLOC, ...) that share one handler.
var families = []struct {
	first, last opcode.Opcode
	h           handler
}{
	{opcode.PUSHINT8, opcode.PUSHINT256, opPushInt},
	{opcode.PUSHDATA1, opcode.PUSHDATA4, opPushData},
	{opcode.PUSHM1, opcode.PUSH16, opPushSmall},
	{opcode.JMPEQ, opcode.JMPLEL, opJmpCmp},
	{opcode.LDSFLD0, opcode.LDSFLD, opLdSFld},
	{opcode.STSFLD0, opcode.STSFLD, opStSFld},
	{opcode.LDLOC0, opcode.LDLOC, opLdLoc},
	{opcode.STLOC0, opcode.STLOC, opStLoc},
	{opcode.LDARG0, opcode.LDARG, opLdArg},
	{opcode.STARG0, opcode.STARG, opStArg},
}

func init() {
	for i := range latestTable {
		latestTable[i] = opInvalid
	}
	for _, f := range families {
		for op := f.first; op <= f.last; op++ {
			latestTable[op] = f.h
		}
	}
	for op, h := range handlers {
		latestTable[op] = h
	}
	preGorgonTable = latestTable
	preEchidnaTable = latestTable
	// A table before a fork lacks that fork's changes and those of the forks
	// after it.
	for op, f := range gorgonForked {
		latestTable[op] = f.at(true)
		preGorgonTable[op] = f.at(false)
		preEchidnaTable[op] = f.at(false)
	}
	// Echidna came before Gorgon: the table before Gorgon has the Echidna
	// changes.
	for op, f := range echidnaForked {
		latestTable[op] = f.at(true)
		preGorgonTable[op] = f.at(true)
		preEchidnaTable[op] = f.at(false)
	}
}

var handlers = map[opcode.Opcode]handler{
	opcode.PUSHT: opPushT, opcode.PUSHF: opPushF, opcode.PUSHA: opPushA, opcode.PUSHNULL: opPushNull,

	opcode.NOP: opNop, opcode.JMP: opJmp, opcode.JMPL: opJmp,
	opcode.JMPIF: opJmpIf, opcode.JMPIFL: opJmpIf, opcode.JMPIFNOT: opJmpIf, opcode.JMPIFNOTL: opJmpIf,
	opcode.CALL: opCall, opcode.CALLL: opCall, opcode.CALLA: opCallA, opcode.CALLT: opCallT,
	opcode.ABORT: opAbort, opcode.ASSERT: opAssert, opcode.THROW: opThrow,
	opcode.TRY: opTry, opcode.TRYL: opTry, opcode.ENDTRY: opEndTry, opcode.ENDTRYL: opEndTry,
	opcode.ENDFINALLY: opEndFinally, opcode.RET: opRet, opcode.SYSCALL: opSyscall,

	opcode.DEPTH: opDepth, opcode.DROP: opDrop, opcode.NIP: opNip, opcode.XDROP: opXDrop,
	opcode.CLEAR: opClear, opcode.DUP: opDup, opcode.OVER: opOver, opcode.PICK: opPick,
	opcode.TUCK: opTuck, opcode.SWAP: opSwap, opcode.ROT: opRot, opcode.ROLL: opRoll,
	opcode.REVERSE3: opReverse, opcode.REVERSE4: opReverse, opcode.REVERSEN: opReverse,

	opcode.INITSSLOT: opInitSSlot, opcode.INITSLOT: opInitSlot,

	opcode.NEWBUFFER: opNewBuffer, opcode.MEMCPY: opMemcpy, opcode.CAT: opCat, opcode.LEFT: opLeft,
	opcode.RIGHT: opRight,

	opcode.INVERT: opUnaryInt, opcode.AND: opBinaryInt, opcode.OR: opBinaryInt, opcode.XOR: opBinaryInt,
	opcode.EQUAL: opEqual, opcode.NOTEQUAL: opEqual,

	opcode.SIGN: opSign, opcode.ABS: opUnaryInt, opcode.NEGATE: opUnaryInt, opcode.INC: opUnaryInt,
	opcode.DEC: opUnaryInt, opcode.ADD: opBinaryInt, opcode.SUB: opBinaryInt, opcode.MUL: opBinaryInt,
	opcode.DIV: opBinaryInt, opcode.MOD: opBinaryInt, opcode.POW: opPow, opcode.SQRT: opUnaryInt,
	opcode.MODMUL: opModArith, opcode.MODPOW: opModArith,
	opcode.NOT: opNot, opcode.BOOLAND: opBoolAndOr, opcode.BOOLOR: opBoolAndOr, opcode.NZ: opNz,
	opcode.NUMEQUAL: opNumEqual, opcode.NUMNOTEQUAL: opNumEqual,
	opcode.LT: opCompare, opcode.LE: opCompare, opcode.GT: opCompare, opcode.GE: opCompare,
	opcode.MIN: opBinaryInt, opcode.MAX: opBinaryInt, opcode.WITHIN: opWithin,

	opcode.PACKMAP: opPackMap, opcode.PACKSTRUCT: opPack, opcode.PACK: opPack, opcode.UNPACK: opUnpack,
	opcode.NEWARRAY0: opNewArray0, opcode.NEWARRAY: opNewArray, opcode.NEWARRAYT: opNewArray,
	opcode.NEWSTRUCT0: opNewArray0, opcode.NEWSTRUCT: opNewArray, opcode.NEWMAP: opNewMap,
	opcode.SIZE: opSize, opcode.KEYS: opKeys, opcode.VALUES: opValues, opcode.APPEND: opAppend,
	opcode.REVERSEITEMS: opReverseItems, opcode.CLEARITEMS: opClearItems, opcode.POPITEM: opPopItem,

	opcode.ISNULL: opIsNull, opcode.ISTYPE: opIsType, opcode.CONVERT: opConvert,
	opcode.ABORTMSG: opAbortMsg, opcode.ASSERTMSG: opAssertMsg,
}
