package emit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/interopid"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrUnsupported is recorded for values Any cannot emit.
var ErrUnsupported = errors.New("unsupported value")

// ErrTooBig is recorded for integers beyond 32 bytes.
var ErrTooBig = errors.New("integer too big")

// Opcodes emits operand-less opcodes.
func Opcodes(w *nio.BinWriter, ops ...opcode.Opcode) {
	for _, op := range ops {
		w.WriteU8(byte(op))
	}
}

// Instruction emits op followed by the raw operand bytes.
func Instruction(w *nio.BinWriter, op opcode.Opcode, operand []byte) {
	w.WriteU8(byte(op))
	w.WriteBytes(operand)
}

// Bool emits PUSHT or PUSHF.
func Bool(w *nio.BinWriter, b bool) {
	if b {
		Opcodes(w, opcode.PUSHT)
	} else {
		Opcodes(w, opcode.PUSHF)
	}
}

// Null emits PUSHNULL.
func Null(w *nio.BinWriter) { Opcodes(w, opcode.PUSHNULL) }

// Int emits the shortest push of i (C# EmitPush(BigInteger)).
func Int(w *nio.BinWriter, i int64) {
	if i >= -1 && i <= 16 {
		w.WriteU8(byte(opcode.PUSH0) + byte(i))
		return
	}
	var buf [8]byte
	pushIntBytes(w, bigint.AppendInt64(buf[:0], i), i < 0)
}

// IntNeoGo emits i as neo-go's emit.Int does, which differs from Int in
// one value: 16 is PUSHINT8 16 (neo-go pushes only PUSHM1 and PUSH0..PUSH15
// with a single opcode), where C# ScriptBuilder.EmitPush writes PUSH16.
// Scripts that must equal neo-go-built ones byte for byte (neo-bench's
// transactions) use it; everything else uses Int.
func IntNeoGo(w *nio.BinWriter, i int64) {
	if i == 16 {
		pushIntBytes(w, []byte{16}, false)
		return
	}
	Int(w, i)
}

// BigInt emits the shortest push of n.
func BigInt(w *nio.BinWriter, n *big.Int) {
	if n.IsInt64() {
		Int(w, n.Int64())
		return
	}
	b := bigint.ToBytes(n)
	if len(b) > bigint.MaxBytesLen {
		w.SetError(fmt.Errorf("%w: %d bytes", ErrTooBig, len(b)))
		return
	}
	pushIntBytes(w, b, n.Sign() < 0)
}

// pushIntBytes emits PUSHINT8..256 with b padded to the operand size.
func pushIntBytes(w *nio.BinWriter, b []byte, neg bool) {
	var op opcode.Opcode
	var size int
	switch n := len(b); {
	case n == 1:
		op, size = opcode.PUSHINT8, 1
	case n == 2:
		op, size = opcode.PUSHINT16, 2
	case n <= 4:
		op, size = opcode.PUSHINT32, 4
	case n <= 8:
		op, size = opcode.PUSHINT64, 8
	case n <= 16:
		op, size = opcode.PUSHINT128, 16
	default:
		op, size = opcode.PUSHINT256, 32
	}
	pad := byte(0)
	if neg {
		pad = 0xff
	}
	w.WriteU8(byte(op))
	w.WriteBytes(b)
	for range size - len(b) {
		w.WriteU8(pad)
	}
}

// Bytes emits PUSHDATA1/2/4 with b.
func Bytes(w *nio.BinWriter, b []byte) {
	switch n := len(b); {
	case n < 0x100:
		w.WriteU8(byte(opcode.PUSHDATA1))
		w.WriteU8(byte(n))
	case n < 0x10000:
		w.WriteU8(byte(opcode.PUSHDATA2))
		w.WriteU16LE(uint16(n))
	default:
		w.WriteU8(byte(opcode.PUSHDATA4))
		w.WriteU32LE(uint32(n))
	}
	w.WriteBytes(b)
}

// String emits the UTF-8 bytes of s.
func String(w *nio.BinWriter, s string) { Bytes(w, []byte(s)) }

// Syscall emits SYSCALL for the named interop.
func Syscall(w *nio.BinWriter, name string) {
	SyscallID(w, interopid.FromName(name))
}

// SyscallID emits SYSCALL with a numeric id.
func SyscallID(w *nio.BinWriter, id uint32) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], id)
	Instruction(w, opcode.SYSCALL, b[:])
}

// InitSlot emits INITSLOT.
func InitSlot(w *nio.BinWriter, locals, args uint8) {
	Instruction(w, opcode.INITSLOT, []byte{locals, args})
}

// Jmp emits a jump or call by relative offset. A short opcode (JMP, CALL,
// JMPIF, ...) whose offset does not fit int8 becomes its _L form, as C#
// EmitJump and EmitCall do. ENDTRY is handled the same way.
func Jmp(w *nio.BinWriter, op opcode.Opcode, offset int32) {
	long, ok := longForm[op]
	if !ok {
		if _, isLong := shortForm[op]; !isLong {
			w.SetError(fmt.Errorf("%w: %s is not a jump", ErrUnsupported, op))
			return
		}
	} else if offset >= -128 && offset <= 127 {
		Instruction(w, op, []byte{byte(int8(offset))})
		return
	} else {
		op = long
	}
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(offset))
	Instruction(w, op, b[:])
}

var longForm = map[opcode.Opcode]opcode.Opcode{
	opcode.JMP: opcode.JMPL, opcode.JMPIF: opcode.JMPIFL, opcode.JMPIFNOT: opcode.JMPIFNOTL,
	opcode.JMPEQ: opcode.JMPEQL, opcode.JMPNE: opcode.JMPNEL, opcode.JMPGT: opcode.JMPGTL,
	opcode.JMPGE: opcode.JMPGEL, opcode.JMPLT: opcode.JMPLTL, opcode.JMPLE: opcode.JMPLEL,
	opcode.CALL: opcode.CALLL, opcode.ENDTRY: opcode.ENDTRYL,
}

var shortForm = func() map[opcode.Opcode]opcode.Opcode {
	m := make(map[opcode.Opcode]opcode.Opcode, len(longForm))
	for s, l := range longForm {
		m[l] = s
	}
	return m
}()

// Try emits TRY (or TRY_L when an offset does not fit int8) with the catch
// and finally offsets relative to the TRY instruction (0 = none).
func Try(w *nio.BinWriter, catchOffset, finallyOffset int32) {
	if catchOffset >= -128 && catchOffset <= 127 && finallyOffset >= -128 && finallyOffset <= 127 {
		Instruction(w, opcode.TRY, []byte{byte(int8(catchOffset)), byte(int8(finallyOffset))})
		return
	}
	var b [8]byte
	binary.LittleEndian.PutUint32(b[:], uint32(catchOffset))
	binary.LittleEndian.PutUint32(b[4:], uint32(finallyOffset))
	Instruction(w, opcode.TRYL, b[:])
}

// Array emits the elements as an array (C# CreateArray): NEWARRAY0 when
// empty, else the elements pushed last first, the count and PACK.
func Array(w *nio.BinWriter, elems ...any) {
	if len(elems) == 0 {
		Opcodes(w, opcode.NEWARRAY0)
		return
	}
	for i := len(elems) - 1; i >= 0; i-- {
		Any(w, elems[i])
	}
	Int(w, int64(len(elems)))
	Opcodes(w, opcode.PACK)
}

// Struct emits the elements as a struct (C# CreateStruct).
func Struct(w *nio.BinWriter, elems ...any) {
	if len(elems) == 0 {
		Opcodes(w, opcode.NEWSTRUCT0)
		return
	}
	for i := len(elems) - 1; i >= 0; i-- {
		Any(w, elems[i])
	}
	Int(w, int64(len(elems)))
	Opcodes(w, opcode.PACKSTRUCT)
}

// KeyValue is one entry for Map.
type KeyValue struct {
	Key, Value any
}

// Map emits the entries as a map (C# CreateMap): NEWMAP when empty, else
// value and key of every entry, last entry first, the count and PACKMAP.
func Map(w *nio.BinWriter, entries ...KeyValue) {
	if len(entries) == 0 {
		Opcodes(w, opcode.NEWMAP)
		return
	}
	for i := len(entries) - 1; i >= 0; i-- {
		Any(w, entries[i].Value)
		Any(w, entries[i].Key)
	}
	Int(w, int64(len(entries)))
	Opcodes(w, opcode.PACKMAP)
}

// Any emits a push of v: nil, bool, Go integers, *big.Int, string, []byte,
// hash.Uint160/Uint256 (serialized bytes), []any (array), []KeyValue (map),
// stackitem.Item, stackitem.Convertible, or a type implementing
// Bytes() []byte (serialized form, like C# ISerializable).
func Any(w *nio.BinWriter, v any) {
	switch x := v.(type) {
	case nil:
		Null(w)
	case bool:
		Bool(w, x)
	case int:
		Int(w, int64(x))
	case int8:
		Int(w, int64(x))
	case int16:
		Int(w, int64(x))
	case int32:
		Int(w, int64(x))
	case int64:
		Int(w, x)
	case uint8:
		Int(w, int64(x))
	case uint16:
		Int(w, int64(x))
	case uint32:
		Int(w, int64(x))
	case uint:
		BigInt(w, new(big.Int).SetUint64(uint64(x)))
	case uint64:
		BigInt(w, new(big.Int).SetUint64(x))
	case *big.Int:
		BigInt(w, x)
	case string:
		String(w, x)
	case []byte:
		Bytes(w, x)
	case hash.Uint160:
		Bytes(w, x[:])
	case hash.Uint256:
		Bytes(w, x[:])
	case []any:
		Array(w, x...)
	case []KeyValue:
		Map(w, x...)
	case stackitem.Item:
		StackItem(w, x)
	case stackitem.Convertible:
		item, err := x.ToStackItem()
		if err != nil {
			w.SetError(err)
			return
		}
		StackItem(w, item)
	case interface{ Bytes() []byte }:
		Bytes(w, x.Bytes())
	default:
		w.SetError(fmt.Errorf("%w: %T", ErrUnsupported, v))
	}
}

// StackItem emits a script that pushes an equal item: primitives directly,
// Buffer as bytes converted with CONVERT, compounds element by element.
// Pointers and interop items cannot be emitted.
func StackItem(w *nio.BinWriter, item stackitem.Item) {
	switch x := item.(type) {
	case stackitem.Null:
		Null(w)
	case stackitem.Bool:
		Bool(w, bool(x))
	case *stackitem.Integer:
		if v, ok := x.Int64(); ok {
			Int(w, v)
		} else {
			BigInt(w, x.Big())
		}
	case *stackitem.ByteString:
		Bytes(w, x.Bytes())
	case *stackitem.Buffer:
		Bytes(w, x.Bytes())
		Instruction(w, opcode.CONVERT, []byte{byte(stackitem.BufferT)})
	case *stackitem.Array:
		items := x.Items()
		elems := make([]any, len(items))
		for i := range items {
			elems[i] = items[i]
		}
		if x.IsStruct() {
			Struct(w, elems...)
		} else {
			Array(w, elems...)
		}
	case *stackitem.Map:
		es := x.Elements()
		entries := make([]KeyValue, len(es))
		for i := range es {
			entries[i] = KeyValue{Key: es[i].Key, Value: es[i].Value}
		}
		Map(w, entries...)
	default:
		w.SetError(fmt.Errorf("%w: %s item", ErrUnsupported, item.Type()))
	}
}

// AppCall emits System.Contract.Call of method on contract with the call
// flags and arguments (C# EmitDynamicCall): the arguments as an array, the
// flags, the method name, the contract hash (serialized bytes), SYSCALL.
func AppCall[F ~uint8](w *nio.BinWriter, contract hash.Uint160, method string, flags F, args ...any) {
	Array(w, args...)
	Int(w, int64(flags))
	String(w, method)
	Bytes(w, contract[:])
	Syscall(w, "System.Contract.Call")
}

// CheckSig emits a push of the public key and System.Crypto.CheckSig (the
// standard signature verification script).
func CheckSig(w *nio.BinWriter, pubKey []byte) {
	Bytes(w, pubKey)
	Syscall(w, "System.Crypto.CheckSig")
}

// Script is a convenience that runs f on a fresh writer and returns the
// script bytes or the first error.
func Script(f func(w *nio.BinWriter)) ([]byte, error) {
	w := nio.NewBufBinWriter()
	f(w)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}
