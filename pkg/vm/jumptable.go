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

func init() {
	for i := range latestTable {
		latestTable[i] = opInvalid
	}
	for op, h := range handlers {
		latestTable[op] = h
	}
	preGorgonTable = latestTable
	preGorgonTable[opcode.HASKEY] = opHasKeyV0
	preGorgonTable[opcode.PICKITEM] = opPickItemV0
	preGorgonTable[opcode.SETITEM] = opSetItemV0
	preGorgonTable[opcode.REMOVE] = opRemoveV0
	preGorgonTable[opcode.SHL] = opShiftV0
	preGorgonTable[opcode.SHR] = opShiftV0
	preEchidnaTable = preGorgonTable
	preEchidnaTable[opcode.SUBSTR] = opSubstrV0
}

var handlers = map[opcode.Opcode]handler{
	opcode.PUSHINT8: opPushInt, opcode.PUSHINT16: opPushInt, opcode.PUSHINT32: opPushInt,
	opcode.PUSHINT64: opPushInt, opcode.PUSHINT128: opPushInt, opcode.PUSHINT256: opPushInt,
	opcode.PUSHT: opPushT, opcode.PUSHF: opPushF, opcode.PUSHA: opPushA, opcode.PUSHNULL: opPushNull,
	opcode.PUSHDATA1: opPushData, opcode.PUSHDATA2: opPushData, opcode.PUSHDATA4: opPushData,
	opcode.PUSHM1: opPushSmall, opcode.PUSH0: opPushSmall, opcode.PUSH1: opPushSmall, opcode.PUSH2: opPushSmall,
	opcode.PUSH3: opPushSmall, opcode.PUSH4: opPushSmall, opcode.PUSH5: opPushSmall, opcode.PUSH6: opPushSmall,
	opcode.PUSH7: opPushSmall, opcode.PUSH8: opPushSmall, opcode.PUSH9: opPushSmall, opcode.PUSH10: opPushSmall,
	opcode.PUSH11: opPushSmall, opcode.PUSH12: opPushSmall, opcode.PUSH13: opPushSmall, opcode.PUSH14: opPushSmall,
	opcode.PUSH15: opPushSmall, opcode.PUSH16: opPushSmall,

	opcode.NOP: opNop, opcode.JMP: opJmp, opcode.JMPL: opJmp,
	opcode.JMPIF: opJmpIf, opcode.JMPIFL: opJmpIf, opcode.JMPIFNOT: opJmpIf, opcode.JMPIFNOTL: opJmpIf,
	opcode.JMPEQ: opJmpCmp, opcode.JMPEQL: opJmpCmp, opcode.JMPNE: opJmpCmp, opcode.JMPNEL: opJmpCmp,
	opcode.JMPGT: opJmpCmp, opcode.JMPGTL: opJmpCmp, opcode.JMPGE: opJmpCmp, opcode.JMPGEL: opJmpCmp,
	opcode.JMPLT: opJmpCmp, opcode.JMPLTL: opJmpCmp, opcode.JMPLE: opJmpCmp, opcode.JMPLEL: opJmpCmp,
	opcode.CALL: opCall, opcode.CALLL: opCall, opcode.CALLA: opCallA, opcode.CALLT: opCallT,
	opcode.ABORT: opAbort, opcode.ASSERT: opAssert, opcode.THROW: opThrow,
	opcode.TRY: opTry, opcode.TRYL: opTry, opcode.ENDTRY: opEndTry, opcode.ENDTRYL: opEndTry,
	opcode.ENDFINALLY: opEndFinally, opcode.RET: opRet, opcode.SYSCALL: opSyscall,

	opcode.DEPTH: opDepth, opcode.DROP: opDrop, opcode.NIP: opNip, opcode.XDROP: opXDrop,
	opcode.CLEAR: opClear, opcode.DUP: opDup, opcode.OVER: opOver, opcode.PICK: opPick,
	opcode.TUCK: opTuck, opcode.SWAP: opSwap, opcode.ROT: opRot, opcode.ROLL: opRoll,
	opcode.REVERSE3: opReverse, opcode.REVERSE4: opReverse, opcode.REVERSEN: opReverse,

	opcode.INITSSLOT: opInitSSlot, opcode.INITSLOT: opInitSlot,
	opcode.LDSFLD0: opLdSFld, opcode.LDSFLD1: opLdSFld, opcode.LDSFLD2: opLdSFld, opcode.LDSFLD3: opLdSFld,
	opcode.LDSFLD4: opLdSFld, opcode.LDSFLD5: opLdSFld, opcode.LDSFLD6: opLdSFld, opcode.LDSFLD: opLdSFld,
	opcode.STSFLD0: opStSFld, opcode.STSFLD1: opStSFld, opcode.STSFLD2: opStSFld, opcode.STSFLD3: opStSFld,
	opcode.STSFLD4: opStSFld, opcode.STSFLD5: opStSFld, opcode.STSFLD6: opStSFld, opcode.STSFLD: opStSFld,
	opcode.LDLOC0: opLdLoc, opcode.LDLOC1: opLdLoc, opcode.LDLOC2: opLdLoc, opcode.LDLOC3: opLdLoc,
	opcode.LDLOC4: opLdLoc, opcode.LDLOC5: opLdLoc, opcode.LDLOC6: opLdLoc, opcode.LDLOC: opLdLoc,
	opcode.STLOC0: opStLoc, opcode.STLOC1: opStLoc, opcode.STLOC2: opStLoc, opcode.STLOC3: opStLoc,
	opcode.STLOC4: opStLoc, opcode.STLOC5: opStLoc, opcode.STLOC6: opStLoc, opcode.STLOC: opStLoc,
	opcode.LDARG0: opLdArg, opcode.LDARG1: opLdArg, opcode.LDARG2: opLdArg, opcode.LDARG3: opLdArg,
	opcode.LDARG4: opLdArg, opcode.LDARG5: opLdArg, opcode.LDARG6: opLdArg, opcode.LDARG: opLdArg,
	opcode.STARG0: opStArg, opcode.STARG1: opStArg, opcode.STARG2: opStArg, opcode.STARG3: opStArg,
	opcode.STARG4: opStArg, opcode.STARG5: opStArg, opcode.STARG6: opStArg, opcode.STARG: opStArg,

	opcode.NEWBUFFER: opNewBuffer, opcode.MEMCPY: opMemcpy, opcode.CAT: opCat, opcode.SUBSTR: opSubstr,
	opcode.LEFT: opLeft, opcode.RIGHT: opRight,

	opcode.INVERT: opUnaryInt, opcode.AND: opBinaryInt, opcode.OR: opBinaryInt, opcode.XOR: opBinaryInt,
	opcode.EQUAL: opEqual, opcode.NOTEQUAL: opEqual,

	opcode.SIGN: opSign, opcode.ABS: opUnaryInt, opcode.NEGATE: opUnaryInt, opcode.INC: opUnaryInt,
	opcode.DEC: opUnaryInt, opcode.ADD: opBinaryInt, opcode.SUB: opBinaryInt, opcode.MUL: opBinaryInt,
	opcode.DIV: opBinaryInt, opcode.MOD: opBinaryInt, opcode.POW: opPow, opcode.SQRT: opUnaryInt,
	opcode.MODMUL: opModArith, opcode.MODPOW: opModArith, opcode.SHL: opShift, opcode.SHR: opShift,
	opcode.NOT: opNot, opcode.BOOLAND: opBoolAndOr, opcode.BOOLOR: opBoolAndOr, opcode.NZ: opNz,
	opcode.NUMEQUAL: opNumEqual, opcode.NUMNOTEQUAL: opNumEqual,
	opcode.LT: opCompare, opcode.LE: opCompare, opcode.GT: opCompare, opcode.GE: opCompare,
	opcode.MIN: opBinaryInt, opcode.MAX: opBinaryInt, opcode.WITHIN: opWithin,

	opcode.PACKMAP: opPackMap, opcode.PACKSTRUCT: opPack, opcode.PACK: opPack, opcode.UNPACK: opUnpack,
	opcode.NEWARRAY0: opNewArray0, opcode.NEWARRAY: opNewArray, opcode.NEWARRAYT: opNewArray,
	opcode.NEWSTRUCT0: opNewArray0, opcode.NEWSTRUCT: opNewArray, opcode.NEWMAP: opNewMap,
	opcode.SIZE: opSize, opcode.HASKEY: opHasKey, opcode.KEYS: opKeys, opcode.VALUES: opValues,
	opcode.PICKITEM: opPickItem, opcode.APPEND: opAppend, opcode.SETITEM: opSetItem,
	opcode.REVERSEITEMS: opReverseItems, opcode.REMOVE: opRemove, opcode.CLEARITEMS: opClearItems,
	opcode.POPITEM: opPopItem,

	opcode.ISNULL: opIsNull, opcode.ISTYPE: opIsType, opcode.CONVERT: opConvert,
	opcode.ABORTMSG: opAbortMsg, opcode.ASSERTMSG: opAssertMsg,
}
