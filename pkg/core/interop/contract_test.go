package interop_test

import (
	"math/big"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/fee"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

var (
	pBytes = chaintest.Param("k", smartcontract.ByteArrayType)
	pValue = chaintest.Param("v", smartcontract.ByteArrayType)
	pAny   = chaintest.Param("a", smartcontract.AnyType)
	pHash  = chaintest.Param("h", smartcontract.Hash160Type)
	pStr   = chaintest.Param("m", smartcontract.StringType)
	pArr   = chaintest.Param("args", smartcontract.ArrayType)
	pInt   = chaintest.Param("n", smartcontract.IntegerType)
)

func ldarg(w *nio.BinWriter, n int) { emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(n)) }

// testerBuilder makes a contract exercising storage, notifications,
// witnesses and calls.
func testerBuilder(name string) *chaintest.ContractBuilder {
	b := chaintest.NewContractBuilder(name)
	b.Method("put", []manifest.Parameter{pBytes, pValue}, smartcontract.VoidType, func(w *nio.BinWriter) {
		ldarg(w, 1)
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStoragePut)
	})
	b.SafeMethod("get", []manifest.Parameter{pBytes}, smartcontract.AnyType, func(w *nio.BinWriter) {
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemStorageGetReadOnlyContext)
		emit.Syscall(w, interop.SystemStorageGet)
	})
	b.Method("del", []manifest.Parameter{pBytes}, smartcontract.VoidType, func(w *nio.BinWriter) {
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStorageDelete)
	})
	b.Method("notify", []manifest.Parameter{pAny}, smartcontract.VoidType, func(w *nio.BinWriter) {
		ldarg(w, 0)
		emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
		emit.String(w, "Ev")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	b.Method("notifyN", []manifest.Parameter{pInt}, smartcontract.VoidType, func(w *nio.BinWriter) {
		// for i := n; i > 0; i-- { notify("Ev", [i]) }
		loop := w.Len()
		ldarg(w, 0)
		emit.Opcodes(w, opcode.PUSH0)
		emit.Jmp(w, opcode.JMPLE, 19)
		ldarg(w, 0)
		emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
		emit.String(w, "Ev")
		emit.Syscall(w, interop.SystemRuntimeNotify)
		ldarg(w, 0)
		emit.Opcodes(w, opcode.DEC, opcode.STARG0)
		emit.Jmp(w, opcode.JMP, int32(loop-w.Len()))
	})
	b.Method("checkWitness", []manifest.Parameter{pHash}, smartcontract.BoolType, func(w *nio.BinWriter) {
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemRuntimeCheckWitness)
	})
	b.SafeMethod("calling", nil, smartcontract.Hash160Type, func(w *nio.BinWriter) {
		emit.Syscall(w, interop.SystemRuntimeGetCallingScriptHash)
	})
	b.SafeMethod("counter", nil, smartcontract.IntegerType, func(w *nio.BinWriter) {
		emit.Syscall(w, interop.SystemRuntimeGetInvocationCounter)
	})
	b.SafeMethod("flags", nil, smartcontract.IntegerType, func(w *nio.BinWriter) {
		emit.Syscall(w, interop.SystemContractGetCallFlags)
	})
	b.Method("call", []manifest.Parameter{pHash, pStr, pArr}, smartcontract.AnyType, func(w *nio.BinWriter) {
		ldarg(w, 2)
		emit.Int(w, int64(callflag.All))
		ldarg(w, 1)
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemContractCall)
	})
	b.Method("fail", nil, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.String(w, "boom")
		emit.Opcodes(w, opcode.THROW)
	})
	b.Method("putAndFail", []manifest.Parameter{pBytes, pValue}, smartcontract.VoidType, func(w *nio.BinWriter) {
		ldarg(w, 1)
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStoragePut)
		emit.Int(w, 7)
		emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
		emit.String(w, "Ev")
		emit.Syscall(w, interop.SystemRuntimeNotify)
		emit.String(w, "boom")
		emit.Opcodes(w, opcode.THROW)
	})
	// tryCall(h, m, args): TRY { call } CATCH { DROP; PUSH -1 }.
	b.Method("tryCall", []manifest.Parameter{pHash, pStr, pArr}, smartcontract.AnyType, func(w *nio.BinWriter) {
		call := chaintest.Script(func(w *nio.BinWriter) {
			ldarg(w, 2)
			emit.Int(w, int64(callflag.All))
			ldarg(w, 1)
			ldarg(w, 0)
			emit.Syscall(w, interop.SystemContractCall)
		})
		// TRY(3) call ENDTRY(2) | catch: DROP PUSHM1 ENDTRY(2) | end
		emit.Try(w, int32(3+len(call)+2), 0)
		w.WriteBytes(call)
		emit.Jmp(w, opcode.ENDTRY, 2+2+2)
		emit.Opcodes(w, opcode.DROP, opcode.PUSHM1)
		emit.Jmp(w, opcode.ENDTRY, 2)
	})
	b.Method("find", []manifest.Parameter{pBytes, pInt}, smartcontract.ArrayType, func(w *nio.BinWriter) {
		// it := Find(ctx, prefix, opts); collect values into an array.
		emit.Opcodes(w, opcode.NEWARRAY0) // result
		ldarg(w, 1)
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemStorageGetReadOnlyContext)
		emit.Syscall(w, interop.SystemStorageFind) // [res, it]
		loop := w.Len()
		emit.Opcodes(w, opcode.DUP)
		emit.Syscall(w, interop.SystemIteratorNext) // [res, it, bool]
		emit.Jmp(w, opcode.JMPIFNOT, 2+1+5+1+1+1+1+2)
		emit.Opcodes(w, opcode.DUP)                  // [res, it, it]
		emit.Syscall(w, interop.SystemIteratorValue) // [res, it, v]
		emit.Opcodes(w, opcode.PUSH2, opcode.PICK)   // [res, it, v, res]
		emit.Opcodes(w, opcode.SWAP)                 // [res, it, res, v]
		emit.Opcodes(w, opcode.APPEND)               // [res, it]
		emit.Jmp(w, opcode.JMP, int32(loop-w.Len()))
		emit.Opcodes(w, opcode.DROP) // [res]
	})
	b.Event("Ev", pAny)
	return b
}

func deployTester(t *testing.T, c *chaintest.Chain, name string) *state.Contract {
	t.Helper()
	return c.DeployBuilder(testerBuilder(name))
}

func TestDeployAndCall(t *testing.T) {
	c := chaintest.New(t)
	cs := deployTester(t, c, "Tester")
	require.Equal(t, int32(1), cs.ID)
	require.Equal(t, state.CreateContractHash(c.CommitteeAddress(), cs.NEF.Checksum, "Tester"), cs.Hash)

	c.RunOK(chaintest.CallScript(cs.Hash, "put", []byte("key"), []byte("value")))
	aer := c.RunOK(chaintest.CallScript(cs.Hash, "get", []byte("key")))
	require.Equal(t, []byte("value"), aer.Stack[0].(*stackitem.ByteString).Bytes())
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "get", []byte("nope")))
	require.Equal(t, stackitem.Null{}, aer.Stack[0])

	// Notification with the manifest's event.
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "notify", 5))
	require.Len(t, aer.Events, 1)
	require.Equal(t, cs.Hash, aer.Events[0].ScriptHash)
	require.Equal(t, "Ev", aer.Events[0].Name)

	// The calling script hash of a contract called by the entry script is
	// the entry script's hash.
	script := chaintest.CallScript(cs.Hash, "calling")
	aer = c.RunOK(script)
	h := hash.Hash160(script)
	require.Equal(t, h[:], aer.Stack[0].(*stackitem.ByteString).Bytes())

	// Void methods called dynamically return Null.
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "del", []byte("key")))
	require.Equal(t, []stackitem.Item{stackitem.Null{}}, aer.Stack)

	// Errors.
	for _, s := range [][]byte{
		chaintest.CallScript(cs.Hash, "nope"),
		chaintest.CallScript(cs.Hash, "put", 1),
		chaintest.CallScript(hash.Uint160{1}, "put"),
		chaintest.CallScript(cs.Hash, "_initialize"),
		chaintest.CallScript(cs.Hash, "fail"),
	} {
		aer := c.Run(s)
		require.Equal(t, vmstate.Fault, aer.VMState)
	}
	// Invalid call flags.
	aer = c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.Array(w)
		emit.Int(w, 0x10)
		emit.String(w, "counter")
		emit.Bytes(w, cs.Hash[:])
		emit.Syscall(w, interop.SystemContractCall)
	}))
	require.Equal(t, vmstate.Fault, aer.VMState)
	// neo-go converts flags with a byte truncation: 0x100 is None.
	aer = c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.Array(w)
		emit.Int(w, 0x10f)
		emit.String(w, "flags")
		emit.Bytes(w, cs.Hash[:])
		emit.Syscall(w, interop.SystemContractCall)
	}))
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	requireInt(t, int64(callflag.ReadOnly), aer.Stack[0]) // safe method: All&^(WriteStates|AllowNotify)
}

func TestCallFlagsNarrowing(t *testing.T) {
	c := chaintest.New(t)
	cs := deployTester(t, c, "Tester")
	// A safe method loses WriteStates and AllowNotify.
	aer := c.RunOK(chaintest.CallScript(cs.Hash, "flags"))
	requireInt(t, int64(callflag.ReadOnly), aer.Stack[0])
	// Flags are narrowed by the caller's: ReadOnly call to "put" cannot write.
	aer = c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, cs.Hash, "put", callflag.ReadOnly, []byte("k"), []byte("v"))
	}))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "missing call flags")
}

func TestInvocationCounter(t *testing.T) {
	c := chaintest.New(t)
	cs := deployTester(t, c, "Tester")
	aer := c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, cs.Hash, "counter", callflag.All)
		emit.AppCall(w, cs.Hash, "counter", callflag.All)
	}))
	requireInt(t, 1, aer.Stack[0])
	requireInt(t, 2, aer.Stack[1])
}

// TestTryRollback: a contract call that throws inside a caller's TRY has its
// storage changes and notifications rolled back; without a TRY the whole
// execution faults but keeps the notifications sent before (neo-go).
func TestTryRollback(t *testing.T) {
	c := chaintest.New(t)
	a := deployTester(t, c, "A")
	b := deployTester(t, c, "B")
	aer := c.RunOK(chaintest.CallScript(a.Hash, "tryCall", b.Hash, "putAndFail", []any{[]byte("k"), []byte("v")}))
	requireInt(t, -1, aer.Stack[0])
	require.Empty(t, aer.Events)
	aer = c.RunOK(chaintest.CallScript(b.Hash, "get", []byte("k")))
	require.Equal(t, stackitem.Null{}, aer.Stack[0])

	// A successful call inside TRY commits.
	aer = c.RunOK(chaintest.CallScript(a.Hash, "tryCall", b.Hash, "put", []any{[]byte("k"), []byte("v")}))
	require.Equal(t, stackitem.Null{}, aer.Stack[0])
	aer = c.RunOK(chaintest.CallScript(b.Hash, "get", []byte("k")))
	require.Equal(t, []byte("v"), aer.Stack[0].(*stackitem.ByteString).Bytes())

	// Without TRY: FAULT, notification kept in the result, storage dropped.
	aer = c.Run(chaintest.CallScript(b.Hash, "putAndFail", []byte("k2"), []byte("v")))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Len(t, aer.Events, 1)
	aer = c.RunOK(chaintest.CallScript(b.Hash, "get", []byte("k2")))
	require.Equal(t, stackitem.Null{}, aer.Stack[0])
}

// TestPermissions is the contract call permission matrix.
func TestPermissions(t *testing.T) {
	c := chaintest.New(t)
	target := deployTester(t, c, "Target")
	k, err := keys.NewPrivateKeyFromHex("9ab7e154840daca3a2efadaf0df93cd3a5b51768c632f5433f86909d9b994a69")
	require.NoError(t, err)

	// A grouped target.
	gb := testerBuilder("GroupedTarget")
	f, _ := gb.Build()
	gh := state.CreateContractHash(c.CommitteeAddress(), f.Checksum, "GroupedTarget")
	gb.Manifest.Groups = []manifest.Group{{PublicKey: k.PublicKey(), Signature: k.Sign(gh[:])}}
	grouped := c.DeployBuilder(gb)
	require.Equal(t, gh, grouped.Hash)

	cases := []struct {
		name  string
		perms []manifest.Permission
		to    hash.Uint160
		meth  string
		ok    bool
	}{
		{"wildcard", []manifest.Permission{*manifest.NewPermission(manifest.PermissionWildcard)}, target.Hash, "put", true},
		{"none", []manifest.Permission{}, target.Hash, "put", false},
		{"none but safe", []manifest.Permission{}, target.Hash, "get", true},
		{"hash", []manifest.Permission{*manifest.NewPermission(manifest.PermissionHash, target.Hash)}, target.Hash, "put", true},
		{"other hash", []manifest.Permission{*manifest.NewPermission(manifest.PermissionHash, hash.Uint160{1})}, target.Hash, "put", false},
		{"hash method list", []manifest.Permission{{Contract: manifest.PermissionDesc{Type: manifest.PermissionHash, Hash: target.Hash},
			Methods: manifest.WildStrings{Value: []string{"put"}}}}, target.Hash, "put", true},
		{"hash other method", []manifest.Permission{{Contract: manifest.PermissionDesc{Type: manifest.PermissionHash, Hash: target.Hash},
			Methods: manifest.WildStrings{Value: []string{"del"}}}}, target.Hash, "put", false},
		{"group", []manifest.Permission{*manifest.NewPermission(manifest.PermissionGroup, k.PublicKey())}, grouped.Hash, "put", true},
		{"group, not in group", []manifest.Permission{*manifest.NewPermission(manifest.PermissionGroup, k.PublicKey())}, target.Hash, "put", false},
		// neo-go: a group permission ignores its method list.
		{"group method list", []manifest.Permission{{Contract: manifest.PermissionDesc{Type: manifest.PermissionGroup, Group: k.PublicKey()},
			Methods: manifest.WildStrings{Value: []string{"del"}}}}, grouped.Hash, "put", true},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := testerBuilder("Caller" + string(rune('A'+i)))
			b.Manifest.Permissions = tc.perms
			caller := c.DeployBuilder(b)
			args := []any{[]byte("k"), []byte("v")}
			if tc.meth == "get" {
				args = []any{[]byte("k")}
			}
			aer := c.Run(chaintest.CallScript(caller.Hash, "call", tc.to, tc.meth, args))
			if tc.ok {
				require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
			} else {
				require.Equal(t, vmstate.Fault, aer.VMState)
				require.Contains(t, aer.FaultException, "disallowed method call")
			}
		})
	}
}

func TestBlockedContract(t *testing.T) {
	c := chaintest.New(t)
	cs := deployTester(t, c, "Tester")
	c.RunOK(chaintest.CallScript(nativenames.PolicyHash, "blockAccount", cs.Hash))
	aer := c.Run(chaintest.CallScript(cs.Hash, "counter"))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "blocked")
	c.RunOK(chaintest.CallScript(nativenames.PolicyHash, "unblockAccount", cs.Hash))
	c.RunOK(chaintest.CallScript(cs.Hash, "counter"))
}

func TestStorageFees(t *testing.T) {
	c := chaintest.New(t)
	cs := deployTester(t, c, "Tester")
	price := c.Natives.Policy.StoragePrice(c.DAO)
	gas := func(k, v []byte) int64 {
		ic := c.Invoke(chaintest.CallScript(cs.Hash, "put", k, v), callflag.All, -1, c.CommitteeSigner())
		require.Equal(t, vmstate.Halt, ic.VM.State(), "%v", ic.VM.FaultError())
		return ic.VM.GasConsumed()
	}
	key := []byte("key")
	base := gas(key, make([]byte, 8)) - int64(len(key)+8)*price // new item: key + value
	c.RunOK(chaintest.CallScript(cs.Hash, "put", key, make([]byte, 8)))
	// Overwrite with a shorter/equal value: (len-1)/4+1.
	for _, n := range []int{1, 4, 5, 8} {
		require.Equal(t, base+int64((n-1)/4+1)*price, gas(key, make([]byte, n)), n)
	}
	// Growth: (old-1)/4+1 + growth.
	require.Equal(t, base+int64((8-1)/4+1+12-8)*price, gas(key, make([]byte, 12)))
	// Empty value: free.
	require.Equal(t, base, gas(key, []byte{}))
	// Old value empty: the new length.
	c.RunOK(chaintest.CallScript(cs.Hash, "put", key, []byte{}))
	require.Equal(t, base+10*price, gas(key, make([]byte, 10)))

	require.Equal(t, int64(5), interop.StorageFee(nil, false, []byte("ab"), []byte("cde")))
	require.Equal(t, int64(0), interop.StorageFee([]byte("x"), true, nil, nil))

	// Limits.
	for _, tc := range []struct{ k, v []byte }{{make([]byte, 65), []byte{1}}, {[]byte{1}, make([]byte, 65536)}} {
		ic := c.Invoke(chaintest.CallScript(cs.Hash, "put", tc.k, tc.v), callflag.All, -1)
		require.Equal(t, vmstate.Fault, ic.VM.State())
	}
	ic := c.Invoke(chaintest.CallScript(cs.Hash, "put", make([]byte, 64), make([]byte, 65535)), callflag.All, -1)
	require.Equal(t, vmstate.Halt, ic.VM.State(), "%v", ic.VM.FaultError())
}

func TestFindOptions(t *testing.T) {
	c := chaintest.New(t)
	cs := deployTester(t, c, "Tester")
	ser := func(it stackitem.Item) []byte {
		b, err := stackitem.Serialize(it)
		require.NoError(t, err)
		return b
	}
	v1 := ser(stackitem.NewStruct([]stackitem.Item{stackitem.NewInt(1), stackitem.NewInt(10)}))
	v2 := ser(stackitem.NewStruct([]stackitem.Item{stackitem.NewInt(2), stackitem.NewInt(20)}))
	c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, cs.Hash, "put", callflag.All, []byte("pa"), v1)
		emit.AppCall(w, cs.Hash, "put", callflag.All, []byte("pb"), v2)
		emit.AppCall(w, cs.Hash, "put", callflag.All, []byte("q"), []byte("x"))
	}))
	find := func(prefix string, opts int64) *stackitem.Array {
		aer := c.Run(chaintest.CallScript(cs.Hash, "find", []byte(prefix), opts))
		require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
		return aer.Stack[0].(*stackitem.Array)
	}
	kv := func(a *stackitem.Array, i int) (string, stackitem.Item) {
		s := a.Get(i).(*stackitem.Array)
		require.True(t, s.IsStruct())
		return string(s.Get(0).(*stackitem.ByteString).Bytes()), s.Get(1)
	}
	r := find("p", interop.FindDefault)
	require.Equal(t, 2, r.Len())
	k, v := kv(r, 0)
	require.Equal(t, "pa", k)
	require.Equal(t, v1, v.(*stackitem.ByteString).Bytes())

	r = find("p", interop.FindKeysOnly)
	require.Equal(t, "pa", string(r.Get(0).(*stackitem.ByteString).Bytes()))
	r = find("p", interop.FindKeysOnly|interop.FindRemovePrefix)
	require.Equal(t, "a", string(r.Get(0).(*stackitem.ByteString).Bytes()))
	r = find("p", interop.FindRemovePrefix)
	k, _ = kv(r, 1)
	require.Equal(t, "b", k)
	r = find("p", interop.FindValuesOnly)
	require.Equal(t, v2, r.Get(1).(*stackitem.ByteString).Bytes())
	r = find("p", interop.FindValuesOnly|interop.FindDeserialize)
	require.True(t, r.Get(0).(*stackitem.Array).IsStruct())
	r = find("p", interop.FindValuesOnly|interop.FindDeserialize|interop.FindPick0)
	requireInt(t, 1, r.Get(0))
	r = find("p", interop.FindValuesOnly|interop.FindDeserialize|interop.FindPick1)
	requireInt(t, 20, r.Get(1))
	r = find("p", interop.FindKeysOnly|interop.FindBackwards)
	require.Equal(t, "pb", string(r.Get(0).(*stackitem.ByteString).Bytes()))
	r = find("", interop.FindKeysOnly)
	require.Equal(t, 3, r.Len())
	r = find("zz", interop.FindDefault)
	require.Equal(t, 0, r.Len())

	// Invalid combinations.
	for _, opts := range []int64{
		1 << 6, 1 << 8,
		interop.FindKeysOnly | interop.FindDeserialize,
		interop.FindKeysOnly | interop.FindPick0,
		interop.FindValuesOnly | interop.FindKeysOnly,
		interop.FindValuesOnly | interop.FindRemovePrefix,
		interop.FindDeserialize | interop.FindPick0 | interop.FindPick1,
		interop.FindPick0, interop.FindPick1,
	} {
		aer := c.Run(chaintest.CallScript(cs.Hash, "find", []byte("p"), opts))
		require.Equal(t, vmstate.Fault, aer.VMState, opts)
		require.Error(t, interop.CheckFindOptions(opts))
	}
	// Deserializing a value that is not serialized faults on Value.
	aer := c.Run(chaintest.CallScript(cs.Hash, "find", []byte("q"), int64(interop.FindDeserialize)))
	require.Equal(t, vmstate.Fault, aer.VMState)
	// Pick on a non-array faults.
	c.RunOK(chaintest.CallScript(cs.Hash, "put", []byte("r"), ser(stackitem.NewInt(5))))
	aer = c.Run(chaintest.CallScript(cs.Hash, "find", []byte("r"), int64(interop.FindDeserialize|interop.FindPick0)))
	require.Equal(t, vmstate.Fault, aer.VMState)
}

// TestFindSnapshot: an iterator sees the storage of the moment Find ran.
func TestFindSnapshot(t *testing.T) {
	c := chaintest.New(t)
	b := testerBuilder("Snap")
	b.Method("findThenPut", nil, smartcontract.IntegerType, func(w *nio.BinWriter) {
		emit.Int(w, interop.FindKeysOnly)
		emit.Bytes(w, []byte("s"))
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStorageFind) // [it]
		emit.Bytes(w, []byte("v"))
		emit.Bytes(w, []byte("s2"))
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStoragePut)  // [it]
		emit.Opcodes(w, opcode.PUSH0, opcode.SWAP) // [n, it]
		loop := w.Len()
		emit.Opcodes(w, opcode.DUP)
		emit.Syscall(w, interop.SystemIteratorNext)
		emit.Jmp(w, opcode.JMPIFNOT, 2+1+1+1+2)
		emit.Opcodes(w, opcode.SWAP, opcode.INC, opcode.SWAP)
		emit.Jmp(w, opcode.JMP, int32(loop-w.Len()))
		emit.Opcodes(w, opcode.DROP)
	})
	cs := c.DeployBuilder(b)
	c.RunOK(chaintest.CallScript(cs.Hash, "put", []byte("s1"), []byte("v")))
	aer := c.RunOK(chaintest.CallScript(cs.Hash, "findThenPut"))
	requireInt(t, 1, aer.Stack[0])
}

func TestNotifications(t *testing.T) {
	c := chaintest.New(t)
	cs := deployTester(t, c, "Tester")
	// An event that is not in the manifest faults (Basilisk).
	aer := c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.Array(w)
		emit.String(w, "Nope")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	}))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "dynamic scripts")

	// Too many notifications (Echidna cap of 512 for Application).
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "notifyN", 512))
	require.Len(t, aer.Events, 512)
	aer = c.Run(chaintest.CallScript(cs.Hash, "notifyN", 513))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "notification count")
	// Without Echidna there is no cap.
	old := chaintest.New(t, chaintest.Options{Hardforks: map[string]uint32{"Aspidochelone": 0, "Basilisk": 0,
		"Cockatrice": 0, "Domovoi": 0}})
	ocs := deployTester(t, old, "Tester")
	aer = old.RunOK(ocs2(ocs.Hash))
	require.Len(t, aer.Events, 513)

	// Argument type check: the event's parameter is Any, so a Pointer fails.
	aer = c.Run(chaintest.CallScript(cs.Hash, "notify", make([]byte, 2000)))
	require.Equal(t, vmstate.Fault, aer.VMState) // too big (> 1024 serialized)

	// GetNotifications filters by hash.
	b := testerBuilder("Getter")
	b.Method("getN", []manifest.Parameter{pAny}, smartcontract.AnyType, func(w *nio.BinWriter) {
		emit.Int(w, 1)
		emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
		emit.String(w, "Ev")
		emit.Syscall(w, interop.SystemRuntimeNotify)
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemRuntimeGetNotifications)
	})
	g := c.DeployBuilder(b)
	aer = c.RunOK(chaintest.CallScript(g.Hash, "getN", nil))
	require.Equal(t, 1, aer.Stack[0].(*stackitem.Array).Len())
	aer = c.RunOK(chaintest.CallScript(g.Hash, "getN", hash.Uint160{1}))
	require.Equal(t, 0, aer.Stack[0].(*stackitem.Array).Len())
	aer = c.RunOK(chaintest.CallScript(g.Hash, "getN", g.Hash))
	require.Equal(t, 1, aer.Stack[0].(*stackitem.Array).Len())
}

func ocs2(h hash.Uint160) []byte { return chaintest.CallScript(h, "notifyN", 513) }

func TestWitnessScopes(t *testing.T) {
	c := chaintest.New(t)
	a := deployTester(t, c, "A")
	b := deployTester(t, c, "B")
	k, err := keys.NewPrivateKeyFromHex("9ab7e154840daca3a2efadaf0df93cd3a5b51768c632f5433f86909d9b994a69")
	require.NoError(t, err)
	gb := testerBuilder("G")
	f, _ := gb.Build()
	gh := state.CreateContractHash(c.CommitteeAddress(), f.Checksum, "G")
	gb.Manifest.Groups = []manifest.Group{{PublicKey: k.PublicKey(), Signature: k.Sign(gh[:])}}
	g := c.DeployBuilder(gb)

	acc := hash.Uint160{0xaa}
	direct := func(contract hash.Uint160) []byte { // entry -> contract.checkWitness(acc)
		return chaintest.CallScript(contract, "checkWitness", acc)
	}
	nested := func(via, contract hash.Uint160) []byte { // entry -> via -> contract.checkWitness(acc)
		return chaintest.CallScript(via, "call", contract, "checkWitness", []any{acc})
	}
	entry := chaintest.Script(func(w *nio.BinWriter) {
		emit.Bytes(w, acc[:])
		emit.Syscall(w, interop.SystemRuntimeCheckWitness)
	})
	cond := func(t transaction.WitnessConditionType) transaction.WitnessCondition {
		return transaction.WitnessCondition{Type: t}
	}
	rule := func(allow bool, c transaction.WitnessCondition) transaction.WitnessRule {
		a := transaction.WitnessDeny
		if allow {
			a = transaction.WitnessAllow
		}
		return transaction.WitnessRule{Action: a, Condition: c}
	}
	cases := []struct {
		name   string
		signer transaction.Signer
		script []byte
		want   bool
	}{
		{"none", transaction.Signer{Account: acc, Scopes: transaction.None}, entry, false},
		{"global", transaction.Signer{Account: acc, Scopes: transaction.Global}, nested(a.Hash, b.Hash), true},
		{"entry: entry script", transaction.Signer{Account: acc, Scopes: transaction.CalledByEntry}, entry, true},
		{"entry: called by entry", transaction.Signer{Account: acc, Scopes: transaction.CalledByEntry}, direct(a.Hash), true},
		{"entry: nested", transaction.Signer{Account: acc, Scopes: transaction.CalledByEntry}, nested(a.Hash, b.Hash), false},
		{"other account", transaction.Signer{Account: hash.Uint160{0xbb}, Scopes: transaction.Global}, entry, false},
		{"custom contracts", transaction.Signer{Account: acc, Scopes: transaction.CustomContracts, AllowedContracts: []hash.Uint160{b.Hash}}, nested(a.Hash, b.Hash), true},
		{"custom contracts other", transaction.Signer{Account: acc, Scopes: transaction.CustomContracts, AllowedContracts: []hash.Uint160{a.Hash}}, nested(a.Hash, b.Hash), false},
		{"custom groups", transaction.Signer{Account: acc, Scopes: transaction.CustomGroups, AllowedGroups: []*keys.PublicKey{k.PublicKey()}}, nested(a.Hash, g.Hash), true},
		{"custom groups other", transaction.Signer{Account: acc, Scopes: transaction.CustomGroups, AllowedGroups: []*keys.PublicKey{k.PublicKey()}}, nested(a.Hash, b.Hash), false},
		{"entry+contracts", transaction.Signer{Account: acc, Scopes: transaction.CalledByEntry | transaction.CustomContracts, AllowedContracts: []hash.Uint160{b.Hash}}, nested(a.Hash, b.Hash), true},
		{"rule bool allow", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionBoolean, Bool: true})}}, nested(a.Hash, b.Hash), true},
		{"rule bool deny", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(false, transaction.WitnessCondition{Type: transaction.ConditionBoolean, Bool: true})}}, entry, false},
		{"rule no match", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionBoolean, Bool: false})}}, entry, false},
		{"rule script hash", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionScriptHash, Hash: b.Hash})}}, nested(a.Hash, b.Hash), true},
		{"rule script hash other", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionScriptHash, Hash: a.Hash})}}, nested(a.Hash, b.Hash), false},
		{"rule called by contract", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionCalledByContract, Hash: a.Hash})}}, nested(a.Hash, b.Hash), true},
		{"rule called by entry", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, cond(transaction.ConditionCalledByEntry))}}, direct(b.Hash), true},
		{"rule called by entry nested", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, cond(transaction.ConditionCalledByEntry))}}, nested(a.Hash, b.Hash), false},
		{"rule group", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionGroup, Group: k.PublicKey()})}}, nested(a.Hash, g.Hash), true},
		{"rule called by group", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionCalledByGroup, Group: k.PublicKey()})}}, nested(g.Hash, b.Hash), true},
		{"rule called by group no", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionCalledByGroup, Group: k.PublicKey()})}}, nested(a.Hash, b.Hash), false},
		{"rule not", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionNot, Sub: []transaction.WitnessCondition{
				{Type: transaction.ConditionScriptHash, Hash: a.Hash}}})}}, nested(a.Hash, b.Hash), true},
		{"rule and", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionAnd, Sub: []transaction.WitnessCondition{
				{Type: transaction.ConditionScriptHash, Hash: b.Hash}, {Type: transaction.ConditionCalledByContract, Hash: a.Hash}}})}}, nested(a.Hash, b.Hash), true},
		{"rule and false", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionAnd, Sub: []transaction.WitnessCondition{
				{Type: transaction.ConditionScriptHash, Hash: b.Hash}, {Type: transaction.ConditionCalledByContract, Hash: b.Hash}}})}}, nested(a.Hash, b.Hash), false},
		{"rule or", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionOr, Sub: []transaction.WitnessCondition{
				{Type: transaction.ConditionScriptHash, Hash: a.Hash}, {Type: transaction.ConditionCalledByContract, Hash: a.Hash}}})}}, nested(a.Hash, b.Hash), true},
		{"rules first match wins", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			rule(false, transaction.WitnessCondition{Type: transaction.ConditionScriptHash, Hash: b.Hash}),
			rule(true, transaction.WitnessCondition{Type: transaction.ConditionBoolean, Bool: true})}}, nested(a.Hash, b.Hash), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			signers := []transaction.Signer{c.CommitteeSigner(), tc.signer}
			if tc.signer.Account == c.CommitteeAddress() {
				signers = signers[1:]
			}
			aer := c.Run(tc.script, signers...)
			require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
			require.Equal(t, stackitem.Bool(tc.want), aer.Stack[len(aer.Stack)-1])
		})
	}

	// The calling contract is always witnessed.
	aer := c.RunOK(chaintest.CallScript(a.Hash, "call", b.Hash, "checkWitness", []any{a.Hash}))
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	// A public key is checked as its standard account.
	aer = c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.Bytes(w, chaintest.CommitteeKey.PublicKey().Bytes())
		emit.Syscall(w, interop.SystemRuntimeCheckWitness)
	}), chaintest.AccountSigner(chaintest.CommitteeKey))
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	// Neither a key nor a hash.
	aer = c.Run(syscallScript(interop.SystemRuntimeCheckWitness, []byte{1, 2, 3}))
	require.Equal(t, vmstate.Fault, aer.VMState)
	// Groups need ReadStates.
	ic := c.Invoke(nested(a.Hash, g.Hash), callflag.All, -1, transaction.Signer{Account: acc, Scopes: transaction.CustomGroups,
		AllowedGroups: []*keys.PublicKey{k.PublicKey()}})
	require.Equal(t, vmstate.Halt, ic.VM.State(), "%v", ic.VM.FaultError())
}

func TestCheckSig(t *testing.T) {
	c := chaintest.New(t)
	k := chaintest.CommitteeKey
	tx := c.NewTx([]byte{byte(opcode.PUSH1)})
	var msg [4 + 32]byte
	msg[0] = 42
	h := tx.Hash()
	copy(msg[4:], h[:])
	sig := k.Sign(msg[:])
	run := func(script []byte) *interop.Context {
		blk := c.NextBlock(tx)
		ic := c.Natives.NewContext(0x40, c, c.DAO.GetPrivate(), blk, tx)
		ic.SpawnVM()
		require.NoError(t, ic.LoadScript(script, callflag.All))
		_ = ic.Run()
		return ic
	}
	ic := run(syscallScript(interop.SystemCryptoCheckSig, k.PublicKey().Bytes(), sig))
	require.Equal(t, stackitem.Bool(true), ic.ResultItems()[0])
	bad := append([]byte(nil), sig...)
	bad[0] ^= 1
	ic = run(syscallScript(interop.SystemCryptoCheckSig, k.PublicKey().Bytes(), bad))
	require.Equal(t, stackitem.Bool(false), ic.ResultItems()[0])
	// Gorgon: a wrong signature length faults; an invalid key faults.
	ic = run(syscallScript(interop.SystemCryptoCheckSig, k.PublicKey().Bytes(), sig[:63]))
	require.Equal(t, vmstate.Fault, ic.VM.State())
	ic = run(syscallScript(interop.SystemCryptoCheckSig, []byte{2, 1, 2}, sig))
	require.Equal(t, vmstate.Fault, ic.VM.State())

	// Multisig: 1-of-2 and 2-of-2 in key order; signatures out of order fail.
	k2, err := keys.NewPrivateKeyFromHex("9ab7e154840daca3a2efadaf0df93cd3a5b51768c632f5433f86909d9b994a69")
	require.NoError(t, err)
	sig2 := k2.Sign(msg[:])
	pubs := []any{k.PublicKey().Bytes(), k2.PublicKey().Bytes()}
	ic = run(syscallScript(interop.SystemCryptoCheckMultisig, pubs, []any{sig, sig2}))
	require.Equal(t, stackitem.Bool(true), ic.ResultItems()[0])
	require.Equal(t, (scriptPrice(t, syscallScript(interop.SystemCryptoCheckMultisig, pubs, []any{sig, sig2}))+2*fee.CheckSigPrice)*execFee, ic.VM.GasConsumed())
	ic = run(syscallScript(interop.SystemCryptoCheckMultisig, pubs, []any{sig2, sig}))
	require.Equal(t, stackitem.Bool(false), ic.ResultItems()[0])
	ic = run(syscallScript(interop.SystemCryptoCheckMultisig, pubs, []any{sig2}))
	require.Equal(t, stackitem.Bool(true), ic.ResultItems()[0])
	ic = run(syscallScript(interop.SystemCryptoCheckMultisig, []any{k.PublicKey().Bytes()}, []any{sig, sig2}))
	require.Equal(t, vmstate.Fault, ic.VM.State())
	ic = run(syscallScript(interop.SystemCryptoCheckMultisig, []any{}, []any{sig}))
	require.Equal(t, vmstate.Fault, ic.VM.State())
	ic = run(syscallScript(interop.SystemCryptoCheckMultisig, pubs, []any{sig[:10]}))
	require.Equal(t, vmstate.Fault, ic.VM.State()) // Gorgon
	// Count form: n items then the count.
	ic = run(chaintest.Script(func(w *nio.BinWriter) {
		emit.Bytes(w, sig)
		emit.Int(w, 1)
		emit.Bytes(w, k2.PublicKey().Bytes())
		emit.Bytes(w, k.PublicKey().Bytes())
		emit.Int(w, 2)
		emit.Syscall(w, interop.SystemCryptoCheckMultisig)
	}))
	require.Equal(t, stackitem.Bool(true), ic.ResultItems()[0], "%v", ic.VM.FaultError())
}

func TestLoadScript(t *testing.T) {
	c := chaintest.New(t)
	inner := chaintest.Script(func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.ADD)
	})
	aer := c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.Array(w, 2, 3)
		emit.Int(w, int64(callflag.All))
		emit.Bytes(w, inner)
		emit.Syscall(w, interop.SystemRuntimeLoadScript)
	}))
	requireInt(t, 5, aer.Stack[0])
	// No result: Null.
	aer = c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.Array(w)
		emit.Int(w, int64(callflag.All))
		emit.Bytes(w, []byte{byte(opcode.NOP)})
		emit.Syscall(w, interop.SystemRuntimeLoadScript)
	}))
	require.Equal(t, []stackitem.Item{stackitem.Null{}}, aer.Stack)
	// Flags are narrowed to ReadOnly: a dynamic script cannot notify.
	aer = c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.Array(w)
		emit.Int(w, int64(callflag.All))
		emit.Bytes(w, syscallScript(interop.SystemContractGetCallFlags))
		emit.Syscall(w, interop.SystemRuntimeLoadScript)
	}))
	requireInt(t, int64(callflag.ReadOnly), aer.Stack[0])
	// Two results fault; an invalid script faults.
	for _, s := range [][]byte{{byte(opcode.PUSH1), byte(opcode.PUSH2)}, {byte(opcode.JMP), 0x7f}} {
		aer = c.Run(chaintest.Script(func(w *nio.BinWriter) {
			emit.Array(w)
			emit.Int(w, int64(callflag.All))
			emit.Bytes(w, s)
			emit.Syscall(w, interop.SystemRuntimeLoadScript)
		}))
		require.Equal(t, vmstate.Fault, aer.VMState)
	}
	// A jump to the script's end is accepted (neo-go; C# strict mode rejects it).
	require.NoError(t, interop.CheckScript([]byte{byte(opcode.JMP), 2}, nil))
	require.Error(t, interop.CheckScript([]byte{byte(opcode.JMP), 3}, nil))
	require.Error(t, interop.CheckScript([]byte{byte(opcode.PUSH1), byte(opcode.PUSH1)}, []int{5}))
	require.Error(t, interop.CheckScript([]byte{byte(opcode.CONVERT), 0}, nil))
}

func TestCallT(t *testing.T) {
	c := chaintest.New(t)
	target := deployTester(t, c, "Target")
	b := chaintest.NewContractBuilder("Tokens")
	b.Tokens = []nefToken{{Hash: target.Hash, Method: "counter", ParamCount: 0, HasReturn: true, CallFlag: callflag.ReadOnly}}
	b.Method("viaToken", nil, smartcontract.IntegerType, func(w *nio.BinWriter) {
		emit.Instruction(w, opcode.CALLT, []byte{0, 0})
	})
	b.Method("badToken", nil, smartcontract.IntegerType, func(w *nio.BinWriter) {
		emit.Instruction(w, opcode.CALLT, []byte{1, 0})
	})
	cs := c.DeployBuilder(b)
	aer := c.RunOK(chaintest.CallScript(cs.Hash, "viaToken"))
	requireInt(t, 1, aer.Stack[0])
	aer = c.Run(chaintest.CallScript(cs.Hash, "badToken"))
	require.Equal(t, vmstate.Fault, aer.VMState)
	// CALLT in a dynamic script faults.
	aer = c.Run([]byte{byte(opcode.CALLT), 0, 0})
	require.Equal(t, vmstate.Fault, aer.VMState)
}

func TestCreateMultisigAccountErrors(t *testing.T) {
	c := chaintest.New(t)
	pub := chaintest.CommitteeKey.PublicKey().Bytes()
	for _, args := range [][]any{
		{0, []any{pub}}, {2, []any{pub}}, {-1, []any{pub}}, {1, []any{1}}, {1, []any{[]byte{1, 2}}},
		{new(big.Int).Lsh(big.NewInt(1), 40), []any{pub}},
	} {
		aer := c.Run(syscallScript(interop.SystemContractCreateMultisigAccount, args...))
		require.Equal(t, vmstate.Fault, aer.VMState, args)
	}
	// Before Aspidochelone both account syscalls cost 1<<8.
	old := chaintest.New(t, chaintest.Options{NoHardforks: true})
	script := syscallScript(interop.SystemContractCreateMultisigAccount, 1, []any{pub})
	ic := old.Invoke(script, callflag.All, -1)
	require.Equal(t, (scriptPrice(t, script)+1<<8)*execFee, ic.VM.GasConsumed())
	script = syscallScript(interop.SystemContractCreateStandardAccount, pub)
	ic = old.Invoke(script, callflag.All, -1)
	require.Equal(t, (scriptPrice(t, script)+1<<8)*execFee, ic.VM.GasConsumed())
}

type nefToken = nef.MethodToken

// TestDomovoiPermissions: from Domovoi the permission check uses the
// executing contract's manifest; before, the stored one (which an update
// in the same invocation may have changed).
func TestDomovoiPermissions(t *testing.T) {
	for _, domovoi := range []bool{false, true} {
		hfs := map[string]uint32{"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 0, "Domovoi": 0}
		if !domovoi {
			hfs["Domovoi"] = 1000
		}
		c := chaintest.New(t, chaintest.Options{Hardforks: hfs})
		target := deployTester(t, c, "Target")
		mk := func(perms []manifest.Permission) *chaintest.ContractBuilder {
			b := chaintest.NewContractBuilder("Updater")
			b.Method("updateAndCall", []manifest.Parameter{pBytes, pValue, pHash}, smartcontract.AnyType, func(w *nio.BinWriter) {
				// Management.update(nef, manifest); target.put("k", "v")
				ldarg(w, 1)
				ldarg(w, 0)
				emit.Opcodes(w, opcode.PUSH2, opcode.PACK)
				emit.Int(w, int64(callflag.All))
				emit.String(w, "update")
				emit.Bytes(w, nativenames.ManagementHash[:])
				emit.Syscall(w, interop.SystemContractCall)
				emit.Opcodes(w, opcode.DROP)
				emit.Array(w, []byte("k"), []byte("v"))
				emit.Int(w, int64(callflag.All))
				emit.String(w, "put")
				ldarg(w, 2)
				emit.Syscall(w, interop.SystemContractCall)
			})
			b.Manifest.Permissions = perms
			return b
		}
		cs := c.DeployBuilder(mk([]manifest.Permission{*manifest.NewPermission(manifest.PermissionWildcard)}))
		f2, m2 := mk([]manifest.Permission{*manifest.NewPermission(manifest.PermissionHash, nativenames.ManagementHash)}).Build()
		raw, err := f2.Bytes()
		require.NoError(t, err)
		aer := c.Run(chaintest.CallScript(cs.Hash, "updateAndCall", raw, m2, target.Hash))
		if domovoi {
			require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
		} else {
			require.Equal(t, vmstate.Fault, aer.VMState)
			require.Contains(t, aer.FaultException, "disallowed method call")
		}
	}
}

func TestPreHardforkBehaviour(t *testing.T) {
	c := chaintest.New(t, chaintest.Options{NoHardforks: true})
	// Before Basilisk, undeclared events are accepted.
	b := testerBuilder("Old")
	b.Method("undeclared", nil, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Array(w, 1, 2)
		emit.String(w, "NotInManifest")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	cs := c.DeployBuilder(b)
	aer := c.RunOK(chaintest.CallScript(cs.Hash, "undeclared"))
	require.Len(t, aer.Events, 1)
	// Before Gorgon a signature of the wrong length just fails the check.
	k := chaintest.CommitteeKey
	ic := c.Invoke(syscallScript(interop.SystemCryptoCheckSig, k.PublicKey().Bytes(), []byte{1, 2, 3}), callflag.All, -1)
	require.Equal(t, vmstate.Halt, ic.VM.State(), "%v", ic.VM.FaultError())
	require.Equal(t, stackitem.Bool(false), ic.ResultItems()[0])
	ic = c.Invoke(syscallScript(interop.SystemCryptoCheckMultisig, []any{k.PublicKey().Bytes()}, []any{[]byte{1}}), callflag.All, -1)
	require.Equal(t, vmstate.Halt, ic.VM.State(), "%v", ic.VM.FaultError())
	require.Equal(t, stackitem.Bool(false), ic.ResultItems()[0])
}

// TestNotifyStructBecomesArray: neo-go stores a notification's arguments as
// an Array even when the script passed a Struct.
func TestNotifyStructBecomesArray(t *testing.T) {
	c := chaintest.New(t)
	b := testerBuilder("S")
	b.Method("notifyStruct", nil, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Struct(w, 5)
		emit.String(w, "Ev")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	cs := c.DeployBuilder(b)
	aer := c.RunOK(chaintest.CallScript(cs.Hash, "notifyStruct"))
	require.Len(t, aer.Events, 1)
	require.False(t, aer.Events[0].Item.IsStruct())
	require.True(t, aer.Events[0].Item.IsReadOnly())
}
