package interop_test

import (
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/fee"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

// TestSyscallTable checks names, ids, prices, flags and hardforks against
// the C# Register calls (testdata/syscalls.json).
func TestSyscallTable(t *testing.T) {
	raw, err := os.ReadFile("testdata/syscalls.json")
	require.NoError(t, err)
	var v struct {
		Syscalls []struct {
			Name     string  `json:"name"`
			ID       string  `json:"id_u32"`
			Price    int64   `json:"fixed_price"`
			Flags    byte    `json:"required_call_flags"`
			Hardfork *string `json:"hardfork"`
		} `json:"syscalls"`
	}
	require.NoError(t, json.Unmarshal(raw, &v))
	fs := interop.Functions()
	require.Len(t, v.Syscalls, 41)
	require.Len(t, fs, 41)
	byName := map[string]interop.Function{}
	for _, f := range fs {
		byName[f.Name] = f
	}
	for _, s := range v.Syscalls {
		f, ok := byName[s.Name]
		require.True(t, ok, s.Name)
		id, err := strconv.ParseUint(strings.TrimPrefix(s.ID, "0x"), 16, 32)
		require.NoError(t, err)
		require.Equal(t, uint32(id), f.ID, s.Name)
		require.Equal(t, s.Price, f.Price, s.Name)
		flags := callflag.CallFlag(s.Flags)
		if s.Name == interop.SystemRuntimeGetTime {
			// Deviation kept for agreement with neo-go 0.120.0, which
			// requires ReadStates; C# requires nothing.
			flags = callflag.ReadStates
		}
		require.Equal(t, flags, f.RequiredFlags, s.Name)
		hf := config.HFDefault
		if s.Hardfork != nil {
			var ok bool
			hf, ok = config.ParseHardfork(strings.TrimPrefix(*s.Hardfork, "HF_"))
			require.True(t, ok, *s.Hardfork)
		}
		require.Equal(t, hf, f.ActiveFrom, s.Name)
	}
}

// scriptPrice sums the opcode prices of script (in price units).
func scriptPrice(t testing.TB, script []byte) int64 {
	ins, err := vm.Instructions(script)
	require.NoError(t, err)
	var p int64
	for _, in := range ins {
		p += fee.Opcode(in.Op)
	}
	return p + fee.Opcode(opcode.RET) // the implicit RET
}

const execFee = interop.DefaultExecFeeFactor // datoshi per price unit in the test chains

func syscallScript(name string, push ...any) []byte {
	return chaintest.Script(func(w *nio.BinWriter) {
		for i := len(push) - 1; i >= 0; i-- {
			emit.Any(w, push[i])
		}
		emit.Syscall(w, name)
	})
}

// TestSyscallPrices runs each syscall that has a fixed price and checks the
// GAS consumed and the result.
func TestSyscallPrices(t *testing.T) {
	c := chaintest.New(t)
	signer := c.CommitteeSigner()
	cases := []struct {
		name  string
		push  []any
		extra int64 // dynamic price units
		check func(t *testing.T, it stackitem.Item)
	}{
		{interop.SystemRuntimePlatform, nil, 0, func(t *testing.T, it stackitem.Item) {
			require.Equal(t, "NEO", string(it.(*stackitem.ByteString).Bytes()))
		}},
		{interop.SystemRuntimeGetNetwork, nil, 0, func(t *testing.T, it stackitem.Item) { requireInt(t, 42, it) }},
		{interop.SystemRuntimeGetAddressVersion, nil, 0, func(t *testing.T, it stackitem.Item) { requireInt(t, 53, it) }},
		{interop.SystemRuntimeGetTrigger, nil, 0, func(t *testing.T, it stackitem.Item) { requireInt(t, 0x40, it) }},
		{interop.SystemRuntimeGetTime, nil, 0, func(t *testing.T, it stackitem.Item) {
			requireInt(t, int64(c.NextBlock().Timestamp), it)
		}},
		{interop.SystemRuntimeGetScriptContainer, nil, 0, func(t *testing.T, it stackitem.Item) {
			require.Equal(t, 8, it.(*stackitem.Array).Len())
		}},
		{interop.SystemRuntimeGetExecutingScriptHash, nil, 0, func(t *testing.T, it stackitem.Item) {
			require.Len(t, it.(*stackitem.ByteString).Bytes(), 20)
		}},
		{interop.SystemRuntimeGetCallingScriptHash, nil, 0, func(t *testing.T, it stackitem.Item) {
			// neo-go: 20 zero bytes for the entry script (C# pushes Null).
			require.Equal(t, make([]byte, 20), it.(*stackitem.ByteString).Bytes())
		}},
		{interop.SystemRuntimeGetEntryScriptHash, nil, 0, func(t *testing.T, it stackitem.Item) {
			require.Len(t, it.(*stackitem.ByteString).Bytes(), 20)
		}},
		{interop.SystemRuntimeGetInvocationCounter, nil, 0, func(t *testing.T, it stackitem.Item) { requireInt(t, 1, it) }},
		{interop.SystemRuntimeGasLeft, nil, 0, nil},
		{interop.SystemRuntimeCurrentSigners, nil, 0, func(t *testing.T, it stackitem.Item) {
			require.Equal(t, 1, it.(*stackitem.Array).Len())
		}},
		{interop.SystemContractGetCallFlags, nil, 0, func(t *testing.T, it stackitem.Item) { requireInt(t, 15, it) }},
		{interop.SystemRuntimeGetRandom, nil, 1 << 13, nil},
		{interop.SystemRuntimeGetNotifications, []any{nil}, 0, func(t *testing.T, it stackitem.Item) {
			require.Equal(t, 0, it.(*stackitem.Array).Len())
		}},
		{interop.SystemRuntimeCheckWitness, []any{signer.Account}, 0, func(t *testing.T, it stackitem.Item) {
			require.Equal(t, stackitem.Bool(true), it)
		}},
		{interop.SystemRuntimeBurnGas, []any{1000}, 0, nil},
		{interop.SystemRuntimeLog, []any{"hello"}, 0, nil},
		{interop.SystemContractCreateStandardAccount, []any{chaintest.CommitteeKey.PublicKey().Bytes()}, fee.CheckSigPrice,
			func(t *testing.T, it stackitem.Item) {
				h := chaintest.CommitteeKey.PublicKey().ScriptHash()
				require.Equal(t, h[:], it.(*stackitem.ByteString).Bytes())
			}},
		{interop.SystemContractCreateMultisigAccount, []any{1, []any{chaintest.CommitteeKey.PublicKey().Bytes()}}, fee.CheckSigPrice,
			func(t *testing.T, it stackitem.Item) {
				a := c.CommitteeAddress()
				require.Equal(t, a[:], it.(*stackitem.ByteString).Bytes())
			}},
	}
	fs := map[string]interop.Function{}
	for _, f := range interop.Functions() {
		fs[f.Name] = f
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			script := syscallScript(tc.name, tc.push...)
			ic := c.Invoke(script, callflag.All, 100_0000_0000, signer)
			require.Equal(t, vmstate.Halt, ic.VM.State(), "%v", ic.VM.FaultError())
			want := (scriptPrice(t, script) + fs[tc.name].Price + tc.extra) * execFee
			if tc.name == interop.SystemRuntimeBurnGas {
				want += 1000
			}
			require.Equal(t, want, ic.VM.GasConsumed())
			res := ic.ResultItems()
			if tc.check != nil {
				require.Len(t, res, 1)
				tc.check(t, res[0])
			}
		})
	}
}

func requireInt(t *testing.T, want int64, it stackitem.Item) {
	t.Helper()
	n, err := it.TryInteger()
	require.NoError(t, err)
	require.Equal(t, big.NewInt(want).String(), n.String())
}

// TestSyscallFlags runs every syscall that requires call flags without one
// of them: the VM faults before the handler (and charges nothing for it).
func TestSyscallFlags(t *testing.T) {
	c := chaintest.New(t)
	n := 0
	for _, f := range interop.Functions() {
		if f.RequiredFlags == 0 {
			continue
		}
		for _, bit := range []callflag.CallFlag{callflag.ReadStates, callflag.WriteStates, callflag.AllowCall, callflag.AllowNotify} {
			if f.RequiredFlags&bit == 0 {
				continue
			}
			script := syscallScript(f.Name)
			ic := c.Invoke(script, callflag.All&^bit, 100_0000_0000)
			require.Equal(t, vmstate.Fault, ic.VM.State(), f.Name)
			require.ErrorIs(t, ic.VM.FaultError(), interop.ErrMissingFlags, f.Name)
			require.Equal(t, scriptPrice(t, script)*execFee-fee.Opcode(opcode.RET)*execFee, ic.VM.GasConsumed())
			n++
		}
	}
	require.Equal(t, 21, n)
}

// TestSyscallHardforks: System.Storage.Local.* exist from HF_Faun only.
func TestSyscallHardforks(t *testing.T) {
	before := chaintest.New(t, chaintest.Options{Hardforks: map[string]uint32{"Aspidochelone": 0, "Basilisk": 0,
		"Cockatrice": 0, "Domovoi": 0, "Echidna": 0, "Faun": 100}})
	after := chaintest.New(t)
	for _, name := range []string{interop.SystemStorageLocalGet, interop.SystemStorageLocalPut,
		interop.SystemStorageLocalDelete, interop.SystemStorageLocalFind} {
		ic := before.Invoke(syscallScript(name), callflag.All, -1)
		require.ErrorIs(t, ic.VM.FaultError(), interop.ErrSyscallNotFound, name)
		ic = after.Invoke(syscallScript(name), callflag.All, -1)
		require.NotErrorIs(t, ic.VM.FaultError(), interop.ErrSyscallNotFound, name)
	}
	ic := after.Invoke([]byte{byte(opcode.SYSCALL), 1, 2, 3, 4}, callflag.All, -1)
	require.ErrorIs(t, ic.VM.FaultError(), interop.ErrSyscallNotFound)
}

// TestGetRandom checks the C# UT_ApplicationEngine.Runtime vectors
// (TestGetRandomSameBlock) and the pre-Aspidochelone variant.
func TestGetRandom(t *testing.T) {
	tx := transaction.New([]byte{byte(opcode.PUSH2)}, 0, 0, 0, 0)
	tx.Signers = []transaction.Signer{{Account: hash.Uint160{}, Scopes: transaction.CalledByEntry}}
	tx.Witnesses = []transaction.Witness{{InvocationScript: []byte{}, VerificationScript: []byte{}}}
	c := chaintest.New(t, chaintest.Options{Magic: 860833102})
	blk := c.NextBlock()
	blk.Nonce = 2083236893 // the genesis nonce of the C# test
	ic := c.Natives.NewContext(0x40, c, c.DAO.GetPrivate(), blk, tx)
	ic.SpawnVM()
	script := chaintest.Script(func(w *nio.BinWriter) {
		for range 5 {
			emit.Syscall(w, interop.SystemRuntimeGetRandom)
		}
	})
	require.NoError(t, ic.LoadScript(script, callflag.All))
	require.NoError(t, ic.Run())
	want := []string{
		"271339657438512451304577787170704246350",
		"98548189559099075644778613728143131367",
		"247654688993873392544380234598471205121",
		"291082758879475329976578097236212073607",
		"247152297361212656635216876565962360375",
	}
	res := ic.ResultItems()
	require.Len(t, res, 5)
	for i := range want {
		n, err := res[i].TryInteger()
		require.NoError(t, err)
		require.Equal(t, want[i], n.String(), i)
	}

	// Before Aspidochelone the result becomes the next seed and costs 1<<4.
	old := chaintest.New(t, chaintest.Options{NoHardforks: true})
	ic = old.Invoke(syscallScript(interop.SystemRuntimeGetRandom), callflag.All, -1)
	require.Equal(t, vmstate.Halt, ic.VM.State())
	require.Equal(t, (scriptPrice(t, syscallScript(interop.SystemRuntimeGetRandom))+1<<4)*execFee, ic.VM.GasConsumed())
}

func TestGasLimit(t *testing.T) {
	c := chaintest.New(t)
	script := syscallScript(interop.SystemRuntimeGetRandom)
	price := (scriptPrice(t, script) + 1<<13) * execFee
	ic := c.Invoke(script, callflag.All, price)
	require.Equal(t, vmstate.Halt, ic.VM.State())
	ic = c.Invoke(script, callflag.All, price-1)
	require.Equal(t, vmstate.Fault, ic.VM.State())
	require.True(t, errors.Is(ic.VM.FaultError(), vm.ErrGasLimit))

	// GasLeft sees the limit.
	ic = c.Invoke(syscallScript(interop.SystemRuntimeGasLeft), callflag.All, 1000_0000)
	res := ic.ResultItems()
	requireInt(t, 1000_0000-(fee.Opcode(opcode.SYSCALL)+1<<4)*execFee, res[0])

	// BurnGas rejects non-positive amounts.
	for _, v := range []any{0, -1, new(big.Int).Lsh(big.NewInt(1), 64)} {
		ic = c.Invoke(syscallScript(interop.SystemRuntimeBurnGas, v), callflag.All, -1)
		require.Equal(t, vmstate.Fault, ic.VM.State())
	}
}

// TestFaultMessages: application log exceptions in neo-go's form (the
// reference chain's FAULTed transactions have these three).
func TestFaultMessages(t *testing.T) {
	c := chaintest.New(t)
	aer := c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.String(w, "refchain: deliberate fault")
		emit.Opcodes(w, opcode.THROW)
	}))
	require.Equal(t, `at instruction 28 (THROW): unhandled exception: "refchain: deliberate fault"`, aer.FaultException)
	aer = c.Run([]byte{byte(opcode.NOP), byte(opcode.ABORT)})
	require.Equal(t, "at instruction 1 (ABORT): ABORT", aer.FaultException)
	aer = c.Run([]byte{byte(opcode.PUSHF), byte(opcode.ASSERT)})
	require.Equal(t, "at instruction 1 (ASSERT): ASSERT failed", aer.FaultException)
	tx := c.NewTx([]byte{byte(opcode.PUSH1), byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.PACK)})
	tx.SystemFee = 3 * execFee
	aer = c.AddBlock(tx)[0]
	require.Equal(t, "at instruction 3 (PACK): GAS limit exceeded", aer.FaultException)
	// A syscall's error names the syscall; a native method's does not.
	aer = c.Run(syscallScript(interop.SystemRuntimeBurnGas, 0))
	require.Equal(t, "at instruction 1 (SYSCALL): System.Runtime.BurnGas failed: GAS must be positive", aer.FaultException)
	aer = c.Run(chaintest.CallScript(nativenames.PolicyHash, "setFeePerByte", -1))
	require.Contains(t, aer.FaultException, "(SYSCALL): FeePerByte shouldn't be negative")
	// An exception array reports its first element; a struct nothing.
	aer = c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.Array(w, "first", 2)
		emit.Opcodes(w, opcode.THROW)
	}))
	require.Contains(t, aer.FaultException, `unhandled exception: "first"`)
	aer = c.Run(chaintest.Script(func(w *nio.BinWriter) {
		emit.Struct(w, "first")
		emit.Opcodes(w, opcode.THROW)
	}))
	require.True(t, strings.HasSuffix(aer.FaultException, "(THROW): unhandled exception"), aer.FaultException)
}
