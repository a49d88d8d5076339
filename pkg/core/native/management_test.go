package native_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

func ldarg(w *nio.BinWriter, n int) { emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(n)) }

// managedBuilder makes a contract with _deploy (stores data and isUpdate,
// notifies), update, destroy and get methods.
func managedBuilder(name string, extra ...func(b *chaintest.ContractBuilder)) *chaintest.ContractBuilder {
	b := chaintest.NewContractBuilder(name)
	b.Method("_deploy", []manifest.Parameter{chaintest.Param("data", smartcontract.AnyType),
		chaintest.Param("isUpdate", smartcontract.BoolType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		ldarg(w, 0)
		emit.Opcodes(w, opcode.ISNULL)
		emit.Jmp(w, opcode.JMPIF, 2+14)
		ldarg(w, 0)
		emit.String(w, "d")
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStoragePut)
		ldarg(w, 1)
		emit.String(w, "u")
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStoragePut)
		ldarg(w, 1)
		emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
		emit.String(w, "Deployed")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	b.SafeMethod("get", []manifest.Parameter{chaintest.Param("k", smartcontract.ByteArrayType)}, smartcontract.AnyType, func(w *nio.BinWriter) {
		ldarg(w, 0)
		emit.Syscall(w, interop.SystemStorageGetReadOnlyContext)
		emit.Syscall(w, interop.SystemStorageGet)
	})
	b.Method("update", []manifest.Parameter{chaintest.Param("nef", smartcontract.ByteArrayType),
		chaintest.Param("manifest", smartcontract.ByteArrayType), chaintest.Param("data", smartcontract.AnyType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		ldarg(w, 2)
		ldarg(w, 1)
		ldarg(w, 0)
		emit.Opcodes(w, opcode.PUSH3, opcode.PACK)
		emit.Int(w, int64(callflag.All))
		emit.String(w, "update")
		emit.Bytes(w, nativenames.ManagementHash[:])
		emit.Syscall(w, interop.SystemContractCall)
		emit.Opcodes(w, opcode.DROP)
	})
	b.Method("destroy", nil, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.ManagementHash, "destroy", callflag.All)
		emit.Opcodes(w, opcode.DROP)
	})
	b.Event("Deployed", chaintest.Param("isUpdate", smartcontract.AnyType))
	for _, f := range extra {
		f(b)
	}
	return b
}

func buildBytes(t *testing.T, b *chaintest.ContractBuilder) ([]byte, []byte) {
	f, m := b.Build()
	raw, err := f.Bytes()
	require.NoError(t, err)
	return raw, m
}

func getStackBytes(t *testing.T, it stackitem.Item) []byte {
	b, err := it.TryBytes()
	require.NoError(t, err)
	return b
}

func TestDeployUpdateDestroy(t *testing.T) {
	c := chaintest.New(t)
	b := managedBuilder("Managed")
	f, m := b.Build()
	aer := c.RunOK(chaintest.DeployScript(f, m, "hello"))
	require.GreaterOrEqual(t, aer.GasConsumed, int64(native.DefaultMinimumDeploymentFee))
	var cs state.Contract
	require.NoError(t, cs.FromStackItem(aer.Stack[0]))
	require.EqualValues(t, 1, cs.ID)
	require.EqualValues(t, 0, cs.UpdateCounter)
	// _deploy's notification comes before Deploy.
	require.Len(t, aer.Events, 2)
	require.Equal(t, "Deployed", aer.Events[0].Name)
	require.Equal(t, stackitem.Bool(false), aer.Events[0].Item.Get(0))
	require.Equal(t, "Deploy", aer.Events[1].Name)
	require.Equal(t, nativenames.ManagementHash, aer.Events[1].ScriptHash)
	require.Equal(t, cs.Hash[:], getStackBytes(t, aer.Events[1].Item.Get(0)))
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "get", []byte("d")))
	require.Equal(t, "hello", string(getStackBytes(t, aer.Stack[0])))

	// Deploying the same contract again fails.
	aer = c.Run(chaintest.DeployScript(f, m))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "contract already exists")

	// Queries.
	aer = c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.ManagementHash, "getContractById", callflag.All, 1)
		emit.AppCall(w, nativenames.ManagementHash, "getContractById", callflag.All, 2)
		emit.AppCall(w, nativenames.ManagementHash, "hasMethod", callflag.All, cs.Hash, "get", 1)
		emit.AppCall(w, nativenames.ManagementHash, "hasMethod", callflag.All, cs.Hash, "get", 2)
		emit.AppCall(w, nativenames.ManagementHash, "isContract", callflag.All, cs.Hash)
		emit.AppCall(w, nativenames.ManagementHash, "isContract", callflag.All, hash.Uint160{1})
		emit.AppCall(w, nativenames.ManagementHash, "getMinimumDeploymentFee", callflag.All)
	}))
	var byID state.Contract
	require.NoError(t, byID.FromStackItem(aer.Stack[0]))
	require.Equal(t, cs.Hash, byID.Hash)
	require.Equal(t, stackitem.Null{}, aer.Stack[1])
	require.Equal(t, []stackitem.Item{stackitem.Bool(true), stackitem.Bool(false), stackitem.Bool(true), stackitem.Bool(false)}, aer.Stack[2:6])
	n, _ := aer.Stack[6].TryInteger()
	require.EqualValues(t, native.DefaultMinimumDeploymentFee, n.Int64())

	// Update through the contract itself: new NEF with an extra method.
	b2 := managedBuilder("Managed", func(b *chaintest.ContractBuilder) {
		b.SafeMethod("version", nil, smartcontract.IntegerType, func(w *nio.BinWriter) { emit.Int(w, 2) })
	})
	nef2, m2 := buildBytes(t, b2)
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "update", nef2, m2, "upd"))
	require.Len(t, aer.Events, 2)
	require.Equal(t, "Deployed", aer.Events[0].Name)
	require.Equal(t, stackitem.Bool(true), aer.Events[0].Item.Get(0))
	require.Equal(t, "Update", aer.Events[1].Name)
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "version"))
	require.Equal(t, stackitem.NewInt(2), aer.Stack[0])
	updated, err := c.Natives.Management.GetContract(c.DAO, cs.Hash)
	require.NoError(t, err)
	require.EqualValues(t, 1, updated.UpdateCounter)
	require.Equal(t, cs.ID, updated.ID)

	// The name cannot change; update from a non-contract fails.
	b3 := managedBuilder("Renamed")
	nef3, m3 := buildBytes(t, b3)
	aer = c.Run(chaintest.CallScript(cs.Hash, "update", nef3, m3, nil))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "name can't be changed")
	aer = c.Run(chaintest.CallScript(nativenames.ManagementHash, "update", nef2, m2))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "contract doesn't exist")

	// Destroy: storage and state go, the hash is blocked.
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "destroy"))
	require.Len(t, aer.Events, 1)
	require.Equal(t, "Destroy", aer.Events[0].Name)
	_, err = c.Natives.Management.GetContract(c.DAO, cs.Hash)
	require.Error(t, err)
	require.Nil(t, c.DAO.GetStorageItem(cs.ID, []byte("d")))
	require.True(t, c.Natives.Policy.IsBlocked(c.DAO, cs.Hash))
	aer = c.Run(chaintest.DeployScript(f, m))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "has been blocked")
	aer = c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.ManagementHash, "getContract", callflag.All, cs.Hash)
		emit.AppCall(w, nativenames.ManagementHash, "getContractById", callflag.All, cs.ID)
	}))
	require.Equal(t, []stackitem.Item{stackitem.Null{}, stackitem.Null{}}, aer.Stack)

	// Destroy called by a script that is not a contract faults (neo-go).
	aer = c.Run(chaintest.CallScript(nativenames.ManagementHash, "destroy"))
	require.Equal(t, vmstate.Fault, aer.VMState)
}

func TestDeployChecks(t *testing.T) {
	c := chaintest.New(t)
	good := managedBuilder("Checked")
	f, m := good.Build()
	raw, err := f.Bytes()
	require.NoError(t, err)

	deploy := func(nefArg, manifestArg any) *state.AppExecResult {
		return c.Run(chaintest.CallScript(nativenames.ManagementHash, "deploy", nefArg, manifestArg))
	}
	mf, err := manifest.FromJSON(m)
	require.NoError(t, err)
	noMethods := *mf
	noMethods.ABI.Methods = nil
	noMethodsJSON, _ := json.Marshal(&noMethods)
	badOffset := *mf
	badOffset.ABI.Methods = append([]manifest.Method{}, mf.ABI.Methods...)
	badOffset.ABI.Methods[1].Offset = len(f.Script) + 10
	badOffsetJSON, _ := json.Marshal(&badOffset)
	midOffset := *mf
	midOffset.ABI.Methods = append([]manifest.Method{}, mf.ABI.Methods...)
	midOffset.ABI.Methods[1].Offset = 1 // inside INITSLOT
	midOffsetJSON, _ := json.Marshal(&midOffset)
	badScript, err := nef.NewFile("t", "", []nef.MethodToken{}, append([]byte{byte(opcode.JMP), 0x40}, f.Script...))
	require.NoError(t, err)
	badScriptRaw, _ := badScript.Bytes()

	for name, tc := range map[string][2]any{
		"null nef":       {nil, m},
		"null manifest":  {raw, nil},
		"empty nef":      {[]byte{}, m},
		"bad nef":        {[]byte{1, 2, 3}, m},
		"bad json":       {raw, []byte("{")},
		"not utf8":       {raw, []byte{0xff, 0xfe}},
		"no methods":     {raw, noMethodsJSON},
		"offset":         {raw, badOffsetJSON},
		"mid offset":     {raw, midOffsetJSON},
		"bad script":     {badScriptRaw, m},
		"huge manifest":  {raw, make([]byte, manifest.MaxManifestSize+1)},
		"manifest array": {raw, []any{1}},
	} {
		aer := deploy(tc[0], tc[1])
		require.Equal(t, vmstate.Fault, aer.VMState, name)
	}
	// Before Basilisk a misaligned offset and a bad jump are accepted.
	old := chaintest.New(t, chaintest.Options{Hardforks: map[string]uint32{"Aspidochelone": 0, "Basilisk": 100}})
	aer := old.Run(chaintest.CallScript(nativenames.ManagementHash, "deploy", raw, midOffsetJSON))
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)

	// The deployment fee is max(storage price * size, minimum fee).
	c.RunOK(chaintest.CallScript(nativenames.ManagementHash, "setMinimumDeploymentFee", 0))
	aer = c.RunOK(chaintest.DeployScript(f, m))
	require.Greater(t, aer.GasConsumed, int64(len(raw)+len(m))*c.Natives.Policy.StoragePrice(c.DAO))
	require.Less(t, aer.GasConsumed, int64(native.DefaultMinimumDeploymentFee))
	// setMinimumDeploymentFee needs the committee and a non-negative value.
	aer = c.Run(chaintest.CallScript(nativenames.ManagementHash, "setMinimumDeploymentFee", 1), chaintest.AccountSigner(chaintest.CommitteeKey))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "committee")
	aer = c.Run(chaintest.CallScript(nativenames.ManagementHash, "setMinimumDeploymentFee", -1))
	require.Equal(t, vmstate.Fault, aer.VMState)
}

func TestGetContractHashes(t *testing.T) {
	c := chaintest.New(t)
	var hashes []hash.Uint160
	for _, name := range []string{"A", "B", "C"} {
		hashes = append(hashes, c.DeployBuilder(managedBuilder(name)).Hash)
	}
	// Iterate getContractHashes and collect [id, hash] structs.
	aer := c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.NEWARRAY0)
		emit.AppCall(w, nativenames.ManagementHash, "getContractHashes", callflag.All) // [res, it]
		loop := w.Len()
		emit.Opcodes(w, opcode.DUP)
		emit.Syscall(w, interop.SystemIteratorNext)
		emit.Jmp(w, opcode.JMPIFNOT, 2+1+5+1+1+1+1+2)
		emit.Opcodes(w, opcode.DUP)
		emit.Syscall(w, interop.SystemIteratorValue)
		emit.Opcodes(w, opcode.PUSH2, opcode.PICK, opcode.SWAP, opcode.APPEND)
		emit.Jmp(w, opcode.JMP, int32(loop-w.Len()))
		emit.Opcodes(w, opcode.DROP)
	}))
	res := aer.Stack[0].(*stackitem.Array)
	require.Equal(t, 3, res.Len())
	for i := range 3 {
		kv := res.Get(i).(*stackitem.Array)
		require.Equal(t, []byte{0, 0, 0, byte(i + 1)}, getStackBytes(t, kv.Get(0)))
		require.Equal(t, hashes[i][:], getStackBytes(t, kv.Get(1)))
	}
}

func TestManagementHelperContracts(t *testing.T) {
	c := chaintest.New(t)
	load := func(name string) ([]byte, []byte) {
		n, err := os.ReadFile("testdata/management_helper/" + name + ".nef")
		require.NoError(t, err)
		m, err := os.ReadFile("testdata/management_helper/" + name + ".manifest.json")
		require.NoError(t, err)
		return n, m
	}
	n2, m2 := load("management_helper2")
	aer := c.RunOK(chaintest.CallScript(nativenames.ManagementHash, "deploy", n2, m2))
	var aux state.Contract
	require.NoError(t, aux.FromStackItem(aer.Stack[0]))
	require.Equal(t, "TestAux", aux.Manifest.Name)
	c.RunOK(chaintest.CallScript(aux.Hash, "simpleMethod"))

	// TestMain's _deploy calls StdLib.serialize: until StdLib exists, the
	// deployment faults there and nothing is stored.
	n1, m1 := load("management_helper1")
	aer = c.Run(chaintest.CallScript(nativenames.ManagementHash, "deploy", n1, m1))
	if c.Natives.ByID(nativenames.StdLibID) == nil {
		require.Equal(t, vmstate.Fault, aer.VMState)
	} else {
		require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	}
}

func filterNotifications(c *chaintest.Chain, want []string) []string {
	var res []string
	for _, w := range want {
		if c.Natives.ByID(nativenames.ID(w[len("Deploy "):])) != nil || c.Natives.ByID(nativenames.ID(w[len("Update "):])) != nil {
			res = append(res, w)
		}
	}
	return res
}

// TestNativeUpdatesAtHardforks follows neo-go's
// TestManagement_NativeDeployUpdateNotifications and TestManagement_NativeUpdate
// for the implemented natives.
func TestNativeUpdatesAtHardforks(t *testing.T) {
	c := chaintest.New(t, chaintest.Options{Hardforks: map[string]uint32{
		"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 3, "Domovoi": 4, "Echidna": 5, "Faun": 6}})
	css := genesisCSS(t)
	persistEvents := func(res []*state.AppExecResult) []string {
		var names []string
		for _, ev := range res[0].Events {
			if ev.ScriptHash != nativenames.ManagementHash {
				continue
			}
			h := hash.Uint160(getStackBytes(t, ev.Item.Get(0)))
			var name string
			for _, n := range nativenames.All {
				if nativenames.Hash(nativenames.ID(n)) == h {
					name = n
				}
			}
			names = append(names, ev.Name+" "+name)
		}
		return names
	}
	var want []string
	for _, n := range nativenames.All[:9] {
		want = append(want, "Deploy "+n)
	}
	require.Equal(t, filterNotifications(c, want), persistEvents(c.GenesisResults))

	checkStates := func(set string, counters map[string]uint16) {
		for _, name := range nativenames.All {
			cs, err := c.Natives.Management.GetContract(c.DAO, nativenames.Hash(nativenames.ID(name)))
			if c.Natives.ByID(nativenames.ID(name)) == nil {
				require.Error(t, err)
				continue
			}
			exp, ok := css[set][name]
			if !ok {
				require.Error(t, err, name)
				continue
			}
			require.NoError(t, err, name)
			require.Equal(t, counters[name], cs.UpdateCounter, name)
			cp := *cs
			cp.UpdateCounter = 0
			got, err := json.Marshal(&cp)
			require.NoError(t, err)
			require.Equal(t, exp, string(got), "%s at %s", name, set)
		}
	}
	res := c.AddBlockFull() // 1
	require.Empty(t, persistEvents(res))
	c.AddBlockFull() // 2
	checkStates("default", nil)
	res = c.AddBlockFull() // 3: Cockatrice updates CryptoLib and NeoToken
	require.Equal(t, filterNotifications(c, []string{"Update CryptoLib", "Update NeoToken"}), persistEvents(res))
	checkStates("cockatrice", map[string]uint16{nativenames.CryptoLib: 1, nativenames.Neo: 1})
	res = c.AddBlockFull() // 4: Domovoi changes no native
	require.Empty(t, persistEvents(res))
	res = c.AddBlockFull() // 5: Echidna
	require.Equal(t, filterNotifications(c, []string{"Update ContractManagement", "Update StdLib", "Update CryptoLib",
		"Update NeoToken", "Update PolicyContract", "Update RoleManagement", "Deploy Notary"}), persistEvents(res))
	checkStates("echidna", map[string]uint16{nativenames.Management: 1, nativenames.StdLib: 1, nativenames.CryptoLib: 2,
		nativenames.Neo: 2, nativenames.Policy: 1, nativenames.Designation: 1})
	res = c.AddBlockFull() // 6: Faun
	require.Equal(t, filterNotifications(c, []string{"Update StdLib", "Update PolicyContract", "Update OracleContract",
		"Update Notary", "Deploy Treasury"}), persistEvents(res))
	checkStates("faun", map[string]uint16{nativenames.Management: 1, nativenames.StdLib: 2, nativenames.CryptoLib: 2,
		nativenames.Neo: 2, nativenames.Policy: 2, nativenames.Designation: 1, nativenames.Oracle: 1, nativenames.Notary: 1})

	// Policy's Echidna values were initialized in block 5, its exec fee
	// factor converted to picoGAS in block 6.
	require.EqualValues(t, 1000, c.Natives.Policy.MillisecondsPerBlock(c.DAO))
	require.EqualValues(t, 300000, c.Natives.Policy.ExecFeeFactorPico(c.DAO))

	// The OnPersist results of native updates are stored per block.
	aers, err := c.DAO.GetAppExecResults(c.Blocks[5].Hash(), trigger.OnPersist)
	require.NoError(t, err)
	require.Len(t, aers, 1)
}

func TestNativeCallRules(t *testing.T) {
	// A native method that appears at a hardfork is not callable before it.
	c := chaintest.New(t, chaintest.Options{Hardforks: map[string]uint32{"Aspidochelone": 0, "Basilisk": 0,
		"Cockatrice": 0, "Domovoi": 0, "Echidna": 2}})
	isContract := chaintest.CallScript(nativenames.ManagementHash, "isContract", nativenames.ManagementHash)
	aer := c.Run(isContract) // block 1
	require.Equal(t, vmstate.Fault, aer.VMState)
	aer = c.RunOK(isContract) // block 2: Echidna
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])

	// CallNative outside a native contract faults.
	aer = c.Run([]byte{byte(opcode.PUSH0), byte(opcode.SYSCALL), 0x1a, 0xf7, 0x7b, 0x67})
	require.Equal(t, vmstate.Fault, aer.VMState)
	// Required flags: setMinimumDeploymentFee needs States.
	aer = c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.ManagementHash, "setMinimumDeploymentFee", callflag.ReadOnly, 5)
	}))
	require.Equal(t, vmstate.Fault, aer.VMState)
	// The method's CPU fee is charged: getMinimumDeploymentFee costs 1<<15
	// units on top of the call.
	_ = transaction.None
}

// TestDeployCallbackException: an exception in _deploy cannot be caught by
// the deploying script: the native continuation faults the execution.
func TestDeployCallbackException(t *testing.T) {
	c := chaintest.New(t)
	b := chaintest.NewContractBuilder("Thrower")
	b.Method("_deploy", []manifest.Parameter{chaintest.Param("data", smartcontract.AnyType),
		chaintest.Param("isUpdate", smartcontract.BoolType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.String(w, "no")
		emit.Opcodes(w, opcode.THROW)
	})
	f, m := b.Build()
	deploy := chaintest.DeployScript(f, m)
	// TRY { deploy } CATCH { DROP; PUSH0 }
	script := chaintest.Script(func(w *nio.BinWriter) {
		emit.Try(w, int32(3+len(deploy)+2), 0)
		w.WriteBytes(deploy)
		emit.Jmp(w, opcode.ENDTRY, 2+1+1+2)
		emit.Opcodes(w, opcode.DROP, opcode.PUSH0)
		emit.Jmp(w, opcode.ENDTRY, 2)
	})
	aer := c.Run(script)
	require.Equal(t, vmstate.Fault, aer.VMState)
	_, err := c.Natives.Management.GetContract(c.DAO, state.CreateContractHash(c.CommitteeAddress(), f.Checksum, "Thrower"))
	require.Error(t, err)
}
