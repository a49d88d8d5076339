package interop_test

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// p256G is the compressed generator of secp256r1, a valid public key.
var p256G = []byte{0x03, 0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40,
	0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96}

// faultCase is one faulting transaction script.
type faultCase struct {
	name   string
	script []byte
	gas    int64 // system fee; 0: defaultFaultGas
}

const defaultFaultGas = 20_0000_0000

// faultHelper is a contract deployed on both chains whose methods fault
// inside a called contract.
func faultHelper() *chaintest.ContractBuilder {
	v := smartcontract.VoidType
	i := smartcontract.IntegerType
	return chaintest.NewContractBuilder("FaultHelper").
		Event("Declared").
		Method("twoValues", nil, i, func(w *nio.BinWriter) { emit.Opcodes(w, opcode.PUSH1, opcode.PUSH2) }).
		Method("noValue", nil, i, func(w *nio.BinWriter) {}).
		Method("throwIt", nil, v, func(w *nio.BinWriter) {
			emit.String(w, "boom")
			emit.Opcodes(w, opcode.THROW)
		}).
		Method("abortIt", nil, v, func(w *nio.BinWriter) { emit.Opcodes(w, opcode.ABORT) }).
		Method("notifyUndeclared", nil, v, func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0)
			emit.String(w, "Undeclared")
			emit.Syscall(w, interop.SystemRuntimeNotify)
		}).
		Method("notifyWrongArgs", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 1)
			emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
			emit.String(w, "Declared")
			emit.Syscall(w, interop.SystemRuntimeNotify)
		}).
		Method("putBigKey", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 1)
			emit.Bytes(w, bytes.Repeat([]byte{1}, 65))
			emit.Syscall(w, interop.SystemStorageGetContext)
			emit.Syscall(w, interop.SystemStoragePut)
		}).
		Method("putBigValue", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 65536)
			emit.Opcodes(w, opcode.NEWBUFFER)
			emit.Int(w, 1)
			emit.Syscall(w, interop.SystemStorageGetContext)
			emit.Syscall(w, interop.SystemStoragePut)
		}).
		Method("putReadOnly", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 1)
			emit.Int(w, 1)
			emit.Syscall(w, interop.SystemStorageGetReadOnlyContext)
			emit.Syscall(w, interop.SystemStoragePut)
		}).
		Method("deleteReadOnly", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 1)
			emit.Syscall(w, interop.SystemStorageGetReadOnlyContext)
			emit.Syscall(w, interop.SystemStorageDelete)
		}).
		Method("findBadOptions", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 0xff)
			emit.Bytes(w, []byte{1})
			emit.Syscall(w, interop.SystemStorageGetContext)
			emit.Syscall(w, interop.SystemStorageFind)
		}).
		Method("findKeysValues", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 3) // KeysOnly|RemovePrefix... 1|2? KeysOnly=1, RemovePrefix=2, ValuesOnly=4
			emit.Int(w, 5)
			emit.Opcodes(w, opcode.DROP)
			emit.Bytes(w, []byte{1})
			emit.Syscall(w, interop.SystemStorageGetContext)
			emit.Syscall(w, interop.SystemStorageFind)
		}).
		Method("localPutBigKey", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, 1)
			emit.Bytes(w, bytes.Repeat([]byte{1}, 65))
			emit.Syscall(w, interop.SystemStorageLocalPut)
		}).
		Method("burnNegative", nil, v, func(w *nio.BinWriter) {
			emit.Int(w, -1)
			emit.Syscall(w, interop.SystemRuntimeBurnGas)
		}).
		Method("callFlagsTooWide", nil, v, func(w *nio.BinWriter) {
			// Called with ReadOnly: a call with All flags is narrowed, a
			// write fails.
			emit.Int(w, 1)
			emit.Int(w, 1)
			emit.Syscall(w, interop.SystemStorageGetContext)
			emit.Syscall(w, interop.SystemStoragePut)
		}).
		Method("iterBadValue", nil, v, func(w *nio.BinWriter) {
			// An item that does not deserialize, read through a
			// deserializing iterator.
			emit.Bytes(w, []byte{0xff})
			emit.Bytes(w, []byte{1})
			emit.Syscall(w, interop.SystemStorageGetContext)
			emit.Syscall(w, interop.SystemStoragePut)
			emit.Int(w, interop.FindDeserialize|interop.FindValuesOnly)
			emit.Bytes(w, []byte{1})
			emit.Syscall(w, interop.SystemStorageGetContext)
			emit.Syscall(w, interop.SystemStorageFind)
			emit.Opcodes(w, opcode.DUP)
			emit.Syscall(w, interop.SystemIteratorNext)
			emit.Opcodes(w, opcode.DROP)
			emit.Syscall(w, interop.SystemIteratorValue)
		})
}

// faultCases lists the faulting scripts: every VM fault class, syscall
// failures and native method failures. helper is the deployed faultHelper.
func faultCases(t *testing.T, helper hash.Uint160) []faultCase {
	t.Helper()
	ops := func(o ...opcode.Opcode) []byte {
		b := make([]byte, len(o))
		for i := range o {
			b[i] = byte(o[i])
		}
		return b
	}
	s := chaintest.Script
	call := func(h hash.Uint160, method string, args ...any) []byte {
		return chaintest.CallScript(h, method, args...)
	}
	callFlags := func(h hash.Uint160, method string, f callflag.CallFlag, args ...any) []byte {
		return s(func(w *nio.BinWriter) { emit.AppCall(w, h, method, f, args...) })
	}
	sys := func(name string, pre func(w *nio.BinWriter)) []byte {
		return s(func(w *nio.BinWriter) {
			if pre != nil {
				pre(w)
			}
			emit.Syscall(w, name)
		})
	}
	big256 := new(big.Int).Lsh(big.NewInt(1), 254)
	cases := []faultCase{
		// Arithmetic.
		{name: "DIV by zero", script: ops(opcode.PUSH1, opcode.PUSH0, opcode.DIV)},
		{name: "MOD by zero", script: ops(opcode.PUSH1, opcode.PUSH0, opcode.MOD)},
		{name: "MODMUL by zero", script: ops(opcode.PUSH1, opcode.PUSH2, opcode.PUSH0, opcode.MODMUL)},
		{name: "MODPOW modulus 0", script: ops(opcode.PUSH2, opcode.PUSH2, opcode.PUSH0, opcode.MODPOW)},
		{name: "MODPOW no inverse", script: ops(opcode.PUSH2, opcode.PUSHM1, opcode.PUSH4, opcode.MODPOW)},
		{name: "POW negative exponent", script: ops(opcode.PUSH2, opcode.PUSHM1, opcode.POW)},
		{name: "POW big exponent", script: s(func(w *nio.BinWriter) { emit.Int(w, 2); emit.Int(w, 1000); emit.Opcodes(w, opcode.POW) })},
		{name: "SQRT negative", script: ops(opcode.PUSHM1, opcode.SQRT)},
		{name: "SHL too far", script: s(func(w *nio.BinWriter) { emit.Int(w, 1); emit.Int(w, 257); emit.Opcodes(w, opcode.SHL) })},
		{name: "SHL negative", script: ops(opcode.PUSH1, opcode.PUSHM1, opcode.SHL)},
		{name: "SHR negative", script: ops(opcode.PUSH1, opcode.PUSHM1, opcode.SHR)},
		{name: "MUL overflow", script: s(func(w *nio.BinWriter) {
			emit.BigInt(w, big256)
			emit.BigInt(w, big256)
			emit.Opcodes(w, opcode.MUL)
		})},
		{name: "ADD overflow", script: s(func(w *nio.BinWriter) {
			m := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(1))
			emit.BigInt(w, m)
			emit.Opcodes(w, opcode.INC)
		})},
		{name: "integer too big from bytes", script: s(func(w *nio.BinWriter) {
			emit.Bytes(w, make([]byte, 33))
			emit.Opcodes(w, opcode.INC)
		})},
		// Stack.
		{name: "SUB on empty stack", script: ops(opcode.SUB)},
		{name: "ADD on one item", script: ops(opcode.PUSH1, opcode.ADD)},
		{name: "DROP on empty stack", script: ops(opcode.DROP)},
		{name: "NIP on one item", script: ops(opcode.PUSH1, opcode.NIP)},
		{name: "DUP on empty stack", script: ops(opcode.DUP)},
		{name: "SWAP on one item", script: ops(opcode.PUSH1, opcode.SWAP)},
		{name: "ROT on two items", script: ops(opcode.PUSH1, opcode.PUSH2, opcode.ROT)},
		{name: "PICK out of range", script: ops(opcode.PUSH1, opcode.PUSH5, opcode.PICK)},
		{name: "PICK negative", script: ops(opcode.PUSH1, opcode.PUSHM1, opcode.PICK)},
		{name: "XDROP negative", script: ops(opcode.PUSH1, opcode.PUSHM1, opcode.XDROP)},
		{name: "XDROP out of range", script: ops(opcode.PUSH1, opcode.PUSH5, opcode.XDROP)},
		{name: "ROLL out of range", script: ops(opcode.PUSH1, opcode.PUSH5, opcode.ROLL)},
		{name: "REVERSEN out of range", script: ops(opcode.PUSH1, opcode.PUSH5, opcode.REVERSEN)},
		{name: "REVERSEN negative", script: ops(opcode.PUSH1, opcode.PUSHM1, opcode.REVERSEN)},
		{name: "stack too big", script: s(func(w *nio.BinWriter) {
			emit.Int(w, 2100)
			emit.Opcodes(w, opcode.NEWARRAY, opcode.UNPACK)
		})},
		// Control flow.
		{name: "invalid opcode", script: []byte{0xff}},
		{name: "truncated PUSHDATA1", script: []byte{byte(opcode.PUSHDATA1), 5, 1}},
		{name: "ABORT", script: ops(opcode.ABORT)},
		{name: "ASSERT false", script: ops(opcode.PUSH0, opcode.ASSERT)},
		{name: "ABORTMSG", script: s(func(w *nio.BinWriter) { emit.String(w, "why"); emit.Opcodes(w, opcode.ABORTMSG) })},
		{name: "ASSERTMSG false", script: s(func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.PUSH0)
			emit.String(w, "why")
			emit.Opcodes(w, opcode.ASSERTMSG)
		})},
		{name: "THROW string", script: s(func(w *nio.BinWriter) { emit.String(w, "boom"); emit.Opcodes(w, opcode.THROW) })},
		{name: "THROW integer", script: ops(opcode.PUSH5, opcode.THROW)},
		{name: "THROW array", script: s(func(w *nio.BinWriter) { emit.Array(w, "x", 1); emit.Opcodes(w, opcode.THROW) })},
		{name: "THROW non-UTF8", script: s(func(w *nio.BinWriter) { emit.Bytes(w, []byte{0xff, 'a'}); emit.Opcodes(w, opcode.THROW) })},
		{name: "JMP out of range", script: []byte{byte(opcode.JMP), 100}},
		{name: "JMP negative", script: []byte{byte(opcode.JMP), 0x80}},
		{name: "CALL out of range", script: []byte{byte(opcode.CALL), 100}},
		{name: "CALLA non-pointer", script: ops(opcode.PUSH1, opcode.CALLA)},
		{name: "ENDTRY without TRY", script: []byte{byte(opcode.ENDTRY), 2, byte(opcode.RET)}},
		{name: "ENDFINALLY without TRY", script: ops(opcode.ENDFINALLY)},
		{name: "TRY both offsets 0", script: []byte{byte(opcode.TRY), 0, 0, byte(opcode.RET)}},
		{name: "invocation stack overflow", script: []byte{byte(opcode.CALL), 0}},
		{name: "GAS limit", script: []byte{byte(opcode.JMP), 0}, gas: 1_0000_0000},
		{name: "SYSCALL unknown", script: []byte{byte(opcode.SYSCALL), 1, 2, 3, 4}},
		{name: "CALLT without tokens", script: []byte{byte(opcode.CALLT), 0, 0}},
		{name: "RET wrong count entry", script: ops(opcode.PUSH1, opcode.RET)}, // entry has no rvcount: HALT
		// Slots.
		{name: "LDLOC without slot", script: ops(opcode.LDLOC0)},
		{name: "LDARG out of range", script: []byte{byte(opcode.INITSLOT), 1, 0, byte(opcode.LDARG0)}},
		{name: "LDLOC out of range", script: []byte{byte(opcode.INITSLOT), 1, 0, byte(opcode.LDLOC1)}},
		{name: "INITSLOT twice", script: []byte{byte(opcode.INITSLOT), 1, 0, byte(opcode.INITSLOT), 1, 0}},
		{name: "INITSLOT zero", script: []byte{byte(opcode.INITSLOT), 0, 0}},
		{name: "INITSSLOT twice", script: []byte{byte(opcode.INITSSLOT), 1, byte(opcode.INITSSLOT), 1}},
		{name: "LDSFLD without slot", script: ops(opcode.LDSFLD0)},
		// Splice.
		{name: "NEWBUFFER too big", script: s(func(w *nio.BinWriter) { emit.Int(w, 2<<20); emit.Opcodes(w, opcode.NEWBUFFER) })},
		{name: "NEWBUFFER negative", script: ops(opcode.PUSHM1, opcode.NEWBUFFER)},
		{name: "CAT too big", script: s(func(w *nio.BinWriter) {
			emit.Int(w, 1<<20)
			emit.Opcodes(w, opcode.NEWBUFFER, opcode.DUP, opcode.CAT)
		})},
		{name: "SUBSTR out of range", script: s(func(w *nio.BinWriter) {
			emit.String(w, "abc")
			emit.Int(w, 1)
			emit.Int(w, 5)
			emit.Opcodes(w, opcode.SUBSTR)
		})},
		{name: "SUBSTR negative index", script: s(func(w *nio.BinWriter) {
			emit.String(w, "abc")
			emit.Int(w, -1)
			emit.Int(w, 1)
			emit.Opcodes(w, opcode.SUBSTR)
		})},
		{name: "SUBSTR negative count", script: s(func(w *nio.BinWriter) {
			emit.String(w, "abc")
			emit.Int(w, 1)
			emit.Int(w, -1)
			emit.Opcodes(w, opcode.SUBSTR)
		})},
		{name: "LEFT out of range", script: s(func(w *nio.BinWriter) { emit.String(w, "abc"); emit.Int(w, 5); emit.Opcodes(w, opcode.LEFT) })},
		{name: "LEFT negative", script: s(func(w *nio.BinWriter) { emit.String(w, "abc"); emit.Int(w, -1); emit.Opcodes(w, opcode.LEFT) })},
		{name: "RIGHT out of range", script: s(func(w *nio.BinWriter) { emit.String(w, "abc"); emit.Int(w, 5); emit.Opcodes(w, opcode.RIGHT) })},
		{name: "RIGHT negative", script: s(func(w *nio.BinWriter) { emit.String(w, "abc"); emit.Int(w, -1); emit.Opcodes(w, opcode.RIGHT) })},
		{name: "MEMCPY out of range", script: s(func(w *nio.BinWriter) {
			emit.Int(w, 2)
			emit.Opcodes(w, opcode.NEWBUFFER)
			emit.Int(w, 0)
			emit.String(w, "abc")
			emit.Int(w, 0)
			emit.Int(w, 3)
			emit.Opcodes(w, opcode.MEMCPY)
		})},
		{name: "MEMCPY negative count", script: s(func(w *nio.BinWriter) {
			emit.Int(w, 2)
			emit.Opcodes(w, opcode.NEWBUFFER)
			emit.Int(w, 0)
			emit.String(w, "abc")
			emit.Int(w, 0)
			emit.Int(w, -1)
			emit.Opcodes(w, opcode.MEMCPY)
		})},
		// Types and conversions.
		{name: "ADD map", script: ops(opcode.NEWMAP, opcode.PUSH1, opcode.ADD)},
		{name: "CONVERT map to integer", script: []byte{byte(opcode.NEWMAP), byte(opcode.CONVERT), 0x21}},
		{name: "CONVERT array to bytes", script: []byte{byte(opcode.NEWARRAY0), byte(opcode.CONVERT), 0x28}},
		{name: "CONVERT invalid type", script: []byte{byte(opcode.PUSH1), byte(opcode.CONVERT), 0x99}},
		{name: "ISTYPE Any", script: []byte{byte(opcode.PUSH1), byte(opcode.ISTYPE), 0x00}},
		{name: "NOT map", script: ops(opcode.NEWMAP, opcode.NOT)},
		{name: "JMPIF on map", script: []byte{byte(opcode.NEWMAP), byte(opcode.JMPIF), 2, byte(opcode.RET)}},
		{name: "bytes to integer too long", script: s(func(w *nio.BinWriter) { emit.Bytes(w, make([]byte, 40)); emit.Opcodes(w, opcode.NEGATE) })},
		{name: "NUMEQUAL map", script: ops(opcode.NEWMAP, opcode.PUSH1, opcode.NUMEQUAL)},
		{name: "EQUAL deep struct", script: s(func(w *nio.BinWriter) {
			// A struct nested 70 deep compared with itself.
			emit.Opcodes(w, opcode.PUSH0)
			for range 70 {
				emit.Opcodes(w, opcode.PUSH1, opcode.PACKSTRUCT)
			}
			emit.Opcodes(w, opcode.DUP, opcode.EQUAL)
		})},
		// Compound types.
		{name: "PACK count too big", script: ops(opcode.PUSH5, opcode.PACK)},
		{name: "PACK negative", script: ops(opcode.PUSHM1, opcode.PACK)},
		{name: "PACKMAP count too big", script: ops(opcode.PUSH5, opcode.PACKMAP)},
		{name: "PACKSTRUCT count too big", script: ops(opcode.PUSH5, opcode.PACKSTRUCT)},
		{name: "UNPACK integer", script: ops(opcode.PUSH1, opcode.UNPACK)},
		{name: "NEWARRAY negative", script: ops(opcode.PUSHM1, opcode.NEWARRAY)},
		{name: "NEWARRAY too big", script: s(func(w *nio.BinWriter) { emit.Int(w, 5000); emit.Opcodes(w, opcode.NEWARRAY) })},
		{name: "NEWARRAY_T invalid type", script: []byte{byte(opcode.PUSH1), byte(opcode.NEWARRAYT), 0x99}},
		{name: "SIZE of integer map", script: ops(opcode.NEWMAP, opcode.PUSH1, opcode.SIZE, opcode.SIZE)},
		{name: "PICKITEM array out of range", script: ops(opcode.NEWARRAY0, opcode.PUSH1, opcode.PICKITEM)},
		{name: "PICKITEM array negative", script: ops(opcode.NEWARRAY0, opcode.PUSHM1, opcode.PICKITEM)},
		{name: "PICKITEM map missing key", script: ops(opcode.NEWMAP, opcode.PUSH1, opcode.PICKITEM)},
		{name: "PICKITEM bytes out of range", script: s(func(w *nio.BinWriter) { emit.String(w, "ab"); emit.Int(w, 5); emit.Opcodes(w, opcode.PICKITEM) })},
		{name: "PICKITEM integer", script: ops(opcode.PUSH1, opcode.PUSH1, opcode.PICKITEM)},
		{name: "PICKITEM map key array", script: ops(opcode.NEWMAP, opcode.NEWARRAY0, opcode.PICKITEM)},
		{name: "SETITEM array out of range", script: ops(opcode.NEWARRAY0, opcode.PUSH1, opcode.PUSH1, opcode.SETITEM)},
		{name: "SETITEM integer", script: ops(opcode.PUSH1, opcode.PUSH1, opcode.PUSH1, opcode.SETITEM)},
		{name: "SETITEM buffer bad value", script: s(func(w *nio.BinWriter) {
			emit.Int(w, 2)
			emit.Opcodes(w, opcode.NEWBUFFER, opcode.PUSH0)
			emit.Int(w, 300)
			emit.Opcodes(w, opcode.SETITEM)
		})},
		{name: "SETITEM buffer out of range", script: s(func(w *nio.BinWriter) {
			emit.Int(w, 2)
			emit.Opcodes(w, opcode.NEWBUFFER, opcode.PUSH5, opcode.PUSH1, opcode.SETITEM)
		})},
		{name: "APPEND to integer", script: ops(opcode.PUSH1, opcode.PUSH1, opcode.APPEND)},
		{name: "REMOVE array out of range", script: ops(opcode.NEWARRAY0, opcode.PUSH1, opcode.REMOVE)},
		{name: "REMOVE integer", script: ops(opcode.PUSH1, opcode.PUSH1, opcode.REMOVE)},
		{name: "HASKEY array negative", script: ops(opcode.NEWARRAY0, opcode.PUSHM1, opcode.HASKEY)},
		{name: "HASKEY integer", script: ops(opcode.PUSH1, opcode.PUSH1, opcode.HASKEY)},
		{name: "KEYS of array", script: ops(opcode.NEWARRAY0, opcode.KEYS)},
		{name: "VALUES of integer", script: ops(opcode.PUSH1, opcode.VALUES)},
		{name: "CLEARITEMS integer", script: ops(opcode.PUSH1, opcode.CLEARITEMS)},
		{name: "POPITEM empty array", script: ops(opcode.NEWARRAY0, opcode.POPITEM)},
		{name: "REVERSEITEMS integer", script: ops(opcode.PUSH1, opcode.REVERSEITEMS)},
		{name: "map key too big", script: s(func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWMAP, opcode.DUP)
			emit.Bytes(w, make([]byte, 65))
			emit.Opcodes(w, opcode.PUSH1, opcode.SETITEM)
		})},
		// Contract calls.
		{name: "call missing contract", script: call(hash.Uint160{1, 2, 3}, "foo")},
		{name: "call missing method", script: call(helper, "nope")},
		{name: "call method wrong args", script: call(helper, "twoValues", 1)},
		{name: "call private method", script: call(helper, "_deploy")},
		{name: "call bad flags", script: s(func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0)
			emit.Int(w, 0x100)
			emit.String(w, "noValue")
			emit.Bytes(w, helper[:])
			emit.Syscall(w, interop.SystemContractCall)
		})},
		{name: "call bad hash", script: s(func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0)
			emit.Int(w, 15)
			emit.String(w, "noValue")
			emit.Bytes(w, []byte{1, 2, 3})
			emit.Syscall(w, interop.SystemContractCall)
		})},
		{name: "call method name invalid", script: call(helper, "x\xff")},
		{name: "wrong return count", script: call(helper, "twoValues")},
		{name: "no return value", script: call(helper, "noValue")},
		{name: "throw in contract", script: call(helper, "throwIt")},
		{name: "abort in contract", script: call(helper, "abortIt")},
		{name: "notify undeclared", script: call(helper, "notifyUndeclared")},
		{name: "notify wrong args", script: call(helper, "notifyWrongArgs")},
		{name: "storage put big key", script: call(helper, "putBigKey")},
		{name: "storage put big value", script: call(helper, "putBigValue")},
		{name: "storage put read-only", script: call(helper, "putReadOnly")},
		{name: "storage delete read-only", script: call(helper, "deleteReadOnly")},
		{name: "storage find bad options", script: call(helper, "findBadOptions")},
		{name: "storage find keys and values", script: call(helper, "findKeysValues")},
		{name: "storage local put big key", script: call(helper, "localPutBigKey")},
		{name: "burn negative gas", script: call(helper, "burnNegative")},
		{name: "call with ReadStates writes", script: callFlags(helper, "callFlagsTooWide", callflag.ReadStates)},
		// Syscalls from the entry script.
		{name: "GetContext in entry", script: sys(interop.SystemStorageGetContext, nil)},
		{name: "Storage.Get bad context", script: sys(interop.SystemStorageGet, func(w *nio.BinWriter) { emit.Int(w, 1); emit.Int(w, 1) })},
		{name: "Notify name too long", script: sys(interop.SystemRuntimeNotify, func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0)
			emit.Bytes(w, bytes.Repeat([]byte{'a'}, 33))
		})},
		{name: "Notify not array", script: sys(interop.SystemRuntimeNotify, func(w *nio.BinWriter) { emit.Int(w, 1); emit.String(w, "ev") })},
		{name: "Log too long", script: sys(interop.SystemRuntimeLog, func(w *nio.BinWriter) { emit.Bytes(w, bytes.Repeat([]byte{'a'}, 1025)) })},
		{name: "Log invalid UTF-8", script: sys(interop.SystemRuntimeLog, func(w *nio.BinWriter) { emit.Bytes(w, []byte{0xff}) })},
		{name: "CheckWitness bad length", script: sys(interop.SystemRuntimeCheckWitness, func(w *nio.BinWriter) { emit.Bytes(w, []byte{1, 2, 3}) })},
		{name: "CheckWitness bad key", script: sys(interop.SystemRuntimeCheckWitness, func(w *nio.BinWriter) { emit.Bytes(w, append([]byte{2}, make([]byte, 32)...)) })},
		{name: "CheckSig bad key", script: sys(interop.SystemCryptoCheckSig, func(w *nio.BinWriter) { emit.Bytes(w, make([]byte, 64)); emit.Bytes(w, []byte{1}) })},
		{name: "CheckMultisig no keys", script: sys(interop.SystemCryptoCheckMultisig, func(w *nio.BinWriter) { emit.Array(w); emit.Array(w) })},
		{name: "CheckMultisig more sigs", script: sys(interop.SystemCryptoCheckMultisig, func(w *nio.BinWriter) {
			emit.Array(w, make([]byte, 64), make([]byte, 64))
			emit.Array(w, append([]byte{2}, make([]byte, 32)...))
		})},
		{name: "GetNotifications bad hash", script: sys(interop.SystemRuntimeGetNotifications, func(w *nio.BinWriter) { emit.Bytes(w, []byte{1}) })},
		{name: "Iterator.Next on integer", script: sys(interop.SystemIteratorNext, func(w *nio.BinWriter) { emit.Int(w, 1) })},
		{name: "CreateStandardAccount bad key", script: sys(interop.SystemContractCreateStandardAccount, func(w *nio.BinWriter) { emit.Bytes(w, []byte{1, 2}) })},
		{name: "CreateMultisigAccount m too big", script: sys(interop.SystemContractCreateMultisigAccount, func(w *nio.BinWriter) {
			emit.Array(w, append([]byte{2}, make([]byte, 32)...))
			emit.Int(w, 2)
		})},
		{name: "LoadScript bad flags", script: sys(interop.SystemRuntimeLoadScript, func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0)
			emit.Int(w, 0x100)
			emit.Bytes(w, []byte{byte(opcode.RET)})
		})},
		{name: "LoadScript multiple return values", script: sys(interop.SystemRuntimeLoadScript, func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0)
			emit.Int(w, 0)
			emit.Bytes(w, []byte{byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.RET)})
		})},
		{name: "CheckSig Null signature", script: sys(interop.SystemCryptoCheckSig, func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.PUSHNULL)
			emit.Bytes(w, p256G)
		})},
		{name: "CheckSig short signature", script: sys(interop.SystemCryptoCheckSig, func(w *nio.BinWriter) {
			emit.Bytes(w, make([]byte, 10))
			emit.Bytes(w, p256G)
		})},
		{name: "CheckMultisig Integer key", script: sys(interop.SystemCryptoCheckMultisig, func(w *nio.BinWriter) {
			emit.Array(w, make([]byte, 64))
			emit.Array(w, 1)
		})},
		{name: "CreateMultisigAccount Integer key", script: sys(interop.SystemContractCreateMultisigAccount, func(w *nio.BinWriter) {
			emit.Array(w, 1)
			emit.Int(w, 1)
		})},
		{name: "Iterator.Value of a bad item", script: call(helper, "iterBadValue")},
		{name: "CallNative from entry", script: sys(interop.SystemContractCallNative, func(w *nio.BinWriter) { emit.Int(w, 0) })},
		{name: "GetRandom wrong trigger?", script: sys(interop.SystemRuntimeBurnGas, func(w *nio.BinWriter) { emit.Int(w, 0) })},
		// Native methods.
		{name: "GAS transfer negative", script: call(nativenames.GasHash, "transfer", hash.Uint160{}, hash.Uint160{}, -1, nil)},
		{name: "GAS transfer bad from", script: call(nativenames.GasHash, "transfer", []byte{1}, hash.Uint160{}, 1, nil)},
		{name: "NEO transfer negative", script: call(nativenames.NeoHash, "transfer", hash.Uint160{}, hash.Uint160{}, -1, nil)},
		{name: "NEO vote bad key", script: call(nativenames.NeoHash, "vote", hash.Uint160{}, []byte{1, 2, 3})},
		{name: "NEO registerCandidate bad key", script: call(nativenames.NeoHash, "registerCandidate", []byte{1, 2, 3})},
		{name: "NEO setGasPerBlock no witness", script: call(nativenames.NeoHash, "setGasPerBlock", 1)},
		{name: "GAS balanceOf bad account", script: call(nativenames.GasHash, "balanceOf", []byte{1})},
		{name: "StdLib atoi invalid", script: call(nativenames.StdLibHash, "atoi", "abc")},
		{name: "StdLib atoi base", script: call(nativenames.StdLibHash, "atoi", "10", 3)},
		{name: "StdLib itoa base", script: call(nativenames.StdLibHash, "itoa", 10, 3)},
		{name: "StdLib base64Decode invalid", script: call(nativenames.StdLibHash, "base64Decode", "!!")},
		{name: "StdLib base58Decode invalid", script: call(nativenames.StdLibHash, "base58Decode", "0OIl")},
		{name: "StdLib base58CheckDecode invalid", script: call(nativenames.StdLibHash, "base58CheckDecode", "abc")},
		{name: "StdLib jsonDeserialize invalid", script: call(nativenames.StdLibHash, "jsonDeserialize", []byte("{"))},
		{name: "StdLib jsonSerialize map key", script: s(func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWMAP, opcode.DUP, opcode.PUSH1, opcode.PUSH1, opcode.SETITEM, opcode.PUSH1, opcode.PACK)
			emit.Int(w, 15)
			emit.String(w, "jsonSerialize")
			emit.Bytes(w, nativenames.StdLibHash[:])
			emit.Syscall(w, interop.SystemContractCall)
		})},
		{name: "StdLib deserialize invalid", script: call(nativenames.StdLibHash, "deserialize", []byte{0xff})},
		{name: "StdLib serialize interop", script: s(func(w *nio.BinWriter) {
			emit.Syscall(w, interop.SystemRuntimeGetScriptContainer)
			emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
			emit.Int(w, 15)
			emit.String(w, "serialize")
			emit.Bytes(w, nativenames.StdLibHash[:])
			emit.Syscall(w, interop.SystemContractCall)
		})},
		{name: "StdLib memorySearch negative", script: call(nativenames.StdLibHash, "memorySearch", []byte("abc"), []byte("b"), -1)},
		{name: "StdLib memorySearch forward past the end", script: call(nativenames.StdLibHash, "memorySearch", []byte("abc"), []byte("b"), 5, false)},
		{name: "StdLib memorySearch backward past the end", script: call(nativenames.StdLibHash, "memorySearch", []byte("abc"), []byte("b"), 5, true)},
		{name: "StdLib base58CheckDecode checksum", script: call(nativenames.StdLibHash, "base58CheckDecode", "1111111")},
		{name: "StdLib hexDecode invalid", script: call(nativenames.StdLibHash, "hexDecode", "zz")},
		{name: "StdLib stringSplit", script: call(nativenames.StdLibHash, "strLen", []byte{0xff})},
		{name: "CryptoLib verifyWithECDsa bad curve", script: call(nativenames.CryptoLibHash, "verifyWithECDsa", []byte{1}, []byte{1}, make([]byte, 64), 99)},
		{name: "CryptoLib verifyWithECDsa Null signature", script: call(nativenames.CryptoLibHash, "verifyWithECDsa", []byte{1}, p256G, nil, 23)},
		{name: "CryptoLib verifyWithECDsa short signature", script: call(nativenames.CryptoLibHash, "verifyWithECDsa", []byte{1}, p256G, make([]byte, 10), 23)},
		{name: "CryptoLib verifyWithECDsa bad key", script: call(nativenames.CryptoLibHash, "verifyWithECDsa", []byte{1}, []byte{1, 2}, make([]byte, 64), 23)},
		{name: "CryptoLib verifyWithEd25519 short signature", script: call(nativenames.CryptoLibHash, "verifyWithEd25519", []byte{1}, make([]byte, 32), make([]byte, 10))},
		{name: "CryptoLib bls12381Deserialize bad", script: call(nativenames.CryptoLibHash, "bls12381Deserialize", []byte{1, 2, 3})},
		{name: "CryptoLib murmur32 bad seed", script: call(nativenames.CryptoLibHash, "murmur32", []byte{1}, -1)},
		{name: "Oracle setPrice zero", script: call(nativenames.OracleHash, "setPrice", 0)},
		{name: "Policy setFeePerByte negative", script: call(nativenames.PolicyHash, "setFeePerByte", -1)},
		{name: "Policy blockAccount native", script: call(nativenames.PolicyHash, "blockAccount", nativenames.NeoHash)},
		{name: "Ledger getBlock bad hash", script: call(nativenames.LedgerHash, "getBlock", []byte{1, 2})},
		{name: "Ledger getTransactionFromBlock bad index", script: call(nativenames.LedgerHash, "getTransactionFromBlock", 0, 5)},
		{name: "Management deploy bad NEF", script: call(nativenames.ManagementHash, "deploy", []byte{1, 2, 3}, []byte("{}"))},
		{name: "Management getContract bad hash", script: call(nativenames.ManagementHash, "getContract", []byte{1})},
		{name: "Management destroy without contract", script: call(nativenames.ManagementHash, "destroy")},
		{name: "Oracle request bad url", script: call(nativenames.OracleHash, "request", "ftp://x", nil, "cb", nil, 1_0000_0000)},
		{name: "Designation getDesignatedByRole bad role", script: call(nativenames.DesignationHash, "getDesignatedByRole", 99, 0)},
		{name: "Designation designate no witness", script: call(nativenames.DesignationHash, "designateAsRole", 4, []any{})},
		{name: "Notary withdraw bad", script: call(nativenames.NotaryHash, "balanceOf", []byte{1})},
		{name: "native method wrong args", script: call(nativenames.GasHash, "balanceOf")},
		{name: "native method missing", script: call(nativenames.GasHash, "nope")},
	}
	return cases
}
