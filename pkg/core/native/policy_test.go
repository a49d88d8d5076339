package native_test

import (
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

func policyCall(method string, args ...any) []byte {
	return chaintest.CallScript(nativenames.PolicyHash, method, args...)
}

func intResult(t *testing.T, aer *state.AppExecResult) int64 {
	t.Helper()
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	n, err := aer.Stack[0].TryInteger()
	require.NoError(t, err)
	return n.Int64()
}

// TestPolicyGetSet checks each committee setter: the default, a new value,
// the range checks and the committee witness.
func TestPolicyGetSet(t *testing.T) {
	c := chaintest.New(t)
	notCommittee := chaintest.AccountSigner(chaintest.CommitteeKey) // a member, not the committee account
	cases := []struct {
		get, set   string
		def, value int64
		bad        []int64
	}{
		{"getFeePerByte", "setFeePerByte", 1000, 1500, []int64{-1, 100_000_001}},
		{"getExecFeeFactor", "setExecFeeFactor", 30, 50, nil}, // Faun: the setter takes picoGAS (see below)
		{"getStoragePrice", "setStoragePrice", 100000, 200000, []int64{0, 10000001}},
		{"getMaxValidUntilBlockIncrement", "setMaxValidUntilBlockIncrement", 86400, 100, []int64{0, 86401}},
		{"getMillisecondsPerBlock", "setMillisecondsPerBlock", 1000, 2000, []int64{0, 30001}},
		{"getMaxTraceableBlocks", "setMaxTraceableBlocks", 2102400, 100000, []int64{0, 2102401, 100}},
	}
	for _, tc := range cases {
		t.Run(tc.set, func(t *testing.T) {
			require.Equal(t, tc.def, intResult(t, c.Run(policyCall(tc.get))))
			if tc.set == "setExecFeeFactor" {
				return
			}
			aer := c.Run(policyCall(tc.set, tc.value), notCommittee)
			require.Equal(t, vmstate.Fault, aer.VMState)
			require.Contains(t, aer.FaultException, "committee")
			for _, b := range tc.bad {
				aer := c.Run(policyCall(tc.set, b))
				require.Equal(t, vmstate.Fault, aer.VMState, b)
			}
			aer = c.RunOK(policyCall(tc.set, tc.value))
			if tc.set == "setMillisecondsPerBlock" {
				require.Len(t, aer.Events, 1)
				require.Equal(t, "MillisecondsPerBlockChanged", aer.Events[0].Name)
				require.Equal(t, stackitem.NewArray([]stackitem.Item{stackitem.NewInt(tc.def), stackitem.NewInt(tc.value)}), aer.Events[0].Item)
			}
			require.Equal(t, tc.value, intResult(t, c.Run(policyCall(tc.get))))
		})
	}
	// Exec fee factor: from Faun the stored value and the setter are in
	// picoGAS; the getter divides by 10^4.
	require.EqualValues(t, 300000, intResult(t, c.Run(policyCall("getExecPicoFeeFactor"))))
	c.RunOK(policyCall("setExecFeeFactor", 450000))
	require.EqualValues(t, 45, intResult(t, c.Run(policyCall("getExecFeeFactor"))))
	require.EqualValues(t, 450000, c.Natives.Policy.ExecFeeFactorPico(c.DAO))
	for _, b := range []int64{0, 100*10000 + 1} {
		require.Equal(t, vmstate.Fault, c.Run(policyCall("setExecFeeFactor", b)).VMState)
	}
	// The new factor prices the next transactions.
	script := policyCall("getFeePerByte")
	g1 := c.Run(script).GasConsumed
	c.RunOK(policyCall("setExecFeeFactor", 300000))
	g2 := c.Run(script).GasConsumed
	require.Equal(t, g1*2, g2*3)
}

func TestPolicyExecFeeFactorBeforeFaun(t *testing.T) {
	c := chaintest.New(t, chaintest.Options{NoHardforks: true})
	require.EqualValues(t, 30, intResult(t, c.Run(policyCall("getExecFeeFactor"))))
	c.RunOK(policyCall("setExecFeeFactor", 50))
	require.EqualValues(t, 50, intResult(t, c.Run(policyCall("getExecFeeFactor"))))
	require.EqualValues(t, 500000, c.Natives.Policy.ExecFeeFactorPico(c.DAO))
	require.Equal(t, vmstate.Fault, c.Run(policyCall("setExecFeeFactor", 101)).VMState)
	// Echidna and Faun methods do not exist yet.
	for _, m := range []string{"getMillisecondsPerBlock", "getExecPicoFeeFactor", "getBlockedAccounts"} {
		require.Equal(t, vmstate.Fault, c.Run(policyCall(m)).VMState, m)
	}
}

func TestPolicyAttributeFee(t *testing.T) {
	c := chaintest.New(t)
	require.EqualValues(t, 0, intResult(t, c.Run(policyCall("getAttributeFee", int64(transaction.HighPriority)))))
	require.EqualValues(t, 1000_0000, intResult(t, c.Run(policyCall("getAttributeFee", int64(transaction.NotaryAssistedT)))))
	c.RunOK(policyCall("setAttributeFee", int64(transaction.ConflictsT), 12345))
	require.EqualValues(t, 12345, intResult(t, c.Run(policyCall("getAttributeFee", int64(transaction.ConflictsT)))))
	require.EqualValues(t, 12345, c.Natives.Policy.AttributeFee(c.DAO, transaction.ConflictsT))
	for _, args := range [][]any{{0x05, 1}, {0xff, 1}, {int64(transaction.ConflictsT), 10_00000001}, {-1, 1}} {
		require.Equal(t, vmstate.Fault, c.Run(policyCall("setAttributeFee", args...)).VMState, args)
	}
	// Before Echidna NotaryAssisted is not a valid type for these methods.
	old := chaintest.New(t, chaintest.Options{NoHardforks: true})
	require.Equal(t, vmstate.Fault, old.Run(policyCall("getAttributeFee", int64(transaction.NotaryAssistedT))).VMState)
	require.EqualValues(t, 0, intResult(t, old.Run(policyCall("getAttributeFee", int64(transaction.HighPriority)))))
}

func TestPolicyBlockAccount(t *testing.T) {
	c := chaintest.New(t)
	acc := hash.Uint160{1, 2, 3}
	require.Equal(t, stackitem.Bool(false), c.RunOK(policyCall("isBlocked", acc)).Stack[0])
	require.Equal(t, vmstate.Fault, c.Run(policyCall("blockAccount", acc), chaintest.AccountSigner(chaintest.CommitteeKey)).VMState)
	require.Equal(t, stackitem.Bool(true), c.RunOK(policyCall("blockAccount", acc)).Stack[0])
	require.Equal(t, stackitem.Bool(false), c.RunOK(policyCall("blockAccount", acc)).Stack[0])
	require.Equal(t, stackitem.Bool(true), c.RunOK(policyCall("isBlocked", acc)).Stack[0])
	require.True(t, c.Natives.Policy.IsBlocked(c.DAO, acc))
	// From Faun the block time is recorded.
	v := c.DAO.GetStorageItem(nativenames.PolicyID, append([]byte{15}, acc[:]...))
	require.NotEmpty(t, v)
	// Natives cannot be blocked.
	aer := c.Run(policyCall("blockAccount", nativenames.NeoHash))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "native")
	// getBlockedAccounts iterates the list in hash order.
	acc2 := hash.Uint160{0}
	c.RunOK(policyCall("blockAccount", acc2))
	aer = c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.PolicyHash, "getBlockedAccounts", callflag.All)
		emit.Opcodes(w, 0x4a) // DUP
		emit.Syscall(w, "System.Iterator.Next")
		emit.Opcodes(w, 0x45) // DROP
		emit.Syscall(w, "System.Iterator.Value")
	}))
	require.Equal(t, acc2[:], getStackBytes(t, aer.Stack[0]))
	// A transaction signed by a blocked account is rejected by CheckPolicy.
	tx := c.NewTx([]byte{0x11}, transaction.Signer{Account: acc})
	require.Error(t, c.Natives.Policy.CheckPolicy(c.DAO, tx))

	require.Equal(t, vmstate.Fault, c.Run(policyCall("unblockAccount", acc), chaintest.AccountSigner(chaintest.CommitteeKey)).VMState)
	require.Equal(t, stackitem.Bool(true), c.RunOK(policyCall("unblockAccount", acc)).Stack[0])
	require.Equal(t, stackitem.Bool(false), c.RunOK(policyCall("unblockAccount", acc)).Stack[0])
	require.False(t, c.Natives.Policy.IsBlocked(c.DAO, acc))
	require.NoError(t, c.Natives.Policy.CheckPolicy(c.DAO, tx))

	// Before Faun blockAccount stores an empty value.
	old := chaintest.New(t, chaintest.Options{NoHardforks: true})
	old.RunOK(policyCall("blockAccount", acc))
	require.Equal(t, []byte{}, old.DAO.GetStorageItem(nativenames.PolicyID, append([]byte{15}, acc[:]...)))
}

func TestPolicyWhitelist(t *testing.T) {
	c := chaintest.New(t)
	b := managedBuilder("Whitelisted", func(b *chaintest.ContractBuilder) {
		b.SafeMethod("seven", nil, smartcontract.IntegerType, func(w *nio.BinWriter) { emit.Int(w, 7) })
	})
	cs := c.DeployBuilder(b)
	call := chaintest.CallScript(cs.Hash, "seven")
	full := c.Run(call).GasConsumed

	aer := c.Run(policyCall("setWhitelistFeeContract", cs.Hash, "seven", 0, 1000), chaintest.AccountSigner(chaintest.CommitteeKey))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Equal(t, vmstate.Fault, c.Run(policyCall("setWhitelistFeeContract", cs.Hash, "nope", 0, 1000)).VMState)
	require.Equal(t, vmstate.Fault, c.Run(policyCall("setWhitelistFeeContract", cs.Hash, "seven", 0, -1)).VMState)
	aer = c.RunOK(policyCall("setWhitelistFeeContract", cs.Hash, "seven", 0, 1000))
	require.Len(t, aer.Events, 1)
	require.Equal(t, "WhitelistFeeChanged", aer.Events[0].Name)
	fee, ok := c.Natives.Policy.WhitelistedFee(c.DAO, cs.Hash, cs.Manifest.ABI.GetMethod("seven", 0).Offset)
	require.True(t, ok)
	require.EqualValues(t, 1000, fee)

	// The whitelisted method costs its fixed fee instead of its opcodes
	// (PUSH7, RET: one price unit).
	wl := c.Run(call).GasConsumed
	require.Equal(t, full-30+1000, wl)
	aer = c.RunOK(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.PolicyHash, "getWhitelistFeeContracts", callflag.All)
		emit.Opcodes(w, 0x4a)
		emit.Syscall(w, "System.Iterator.Next")
		emit.Opcodes(w, 0x45)
		emit.Syscall(w, "System.Iterator.Value")
	}))
	var r state.WhitelistFeeContract
	require.NoError(t, r.FromStackItem(aer.Stack[0]))
	require.Equal(t, state.WhitelistFeeContract{Hash: cs.Hash, Method: "seven", ArgCnt: 0, Fee: 1000}, r)

	// Updating the contract removes its whitelist entries.
	b2 := managedBuilder("Whitelisted", func(b *chaintest.ContractBuilder) {
		b.SafeMethod("seven", nil, smartcontract.IntegerType, func(w *nio.BinWriter) { emit.Int(w, 8) })
	})
	nefB, mB := buildBytes(t, b2)
	aer = c.RunOK(chaintest.CallScript(cs.Hash, "update", nefB, mB, nil))
	require.Equal(t, "WhitelistFeeChanged", aer.Events[0].Name)
	require.Equal(t, stackitem.Null{}, aer.Events[0].Item.Get(3))
	_, ok = c.Natives.Policy.WhitelistedFee(c.DAO, cs.Hash, cs.Manifest.ABI.GetMethod("seven", 0).Offset)
	require.False(t, ok)

	// remove: not found faults; set then remove works.
	require.Equal(t, vmstate.Fault, c.Run(policyCall("removeWhitelistFeeContract", cs.Hash, "seven", 0)).VMState)
	c.RunOK(policyCall("setWhitelistFeeContract", cs.Hash, "seven", 0, 5))
	c.RunOK(policyCall("removeWhitelistFeeContract", cs.Hash, "seven", 0))
	_, ok = c.Natives.Policy.WhitelistedFee(c.DAO, cs.Hash, 0)
	require.False(t, ok)
}

func TestPolicyRecoverFundChecks(t *testing.T) {
	c := chaintest.New(t)
	acc := hash.Uint160{7}
	// Not blocked.
	aer := c.Run(policyCall("recoverFund", acc, nativenames.GasHash))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "not blocked")
	c.RunOK(policyCall("blockAccount", acc))
	// Blocked less than a year ago.
	aer = c.Run(policyCall("recoverFund", acc, nativenames.GasHash))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "1 year")
	// Needs most of the committee.
	aer = c.Run(policyCall("recoverFund", acc, nativenames.GasHash), chaintest.AccountSigner(mustKey(t)))
	require.Equal(t, vmstate.Fault, aer.VMState)
}

func mustKey(t *testing.T) *keys.PrivateKey {
	k, err := keys.NewPrivateKeyFromHex("9ab7e154840daca3a2efadaf0df93cd3a5b51768c632f5433f86909d9b994a69")
	require.NoError(t, err)
	return k
}

// TestPolicyCacheRestart rebuilds the native caches from storage and checks
// they equal the live ones.
func TestPolicyCacheRestart(t *testing.T) {
	c := chaintest.New(t)
	c.RunOK(policyCall("setFeePerByte", 777))
	c.RunOK(policyCall("blockAccount", hash.Uint160{9}))
	c.RunOK(policyCall("setAttributeFee", int64(transaction.ConflictsT), 55))
	cs := c.DeployBuilder(managedBuilder("X"))
	fresh := c.DAO.GetWrapped()
	require.NoError(t, c.Natives.InitializeCache(fresh, c.BlockHeight()))
	require.EqualValues(t, 777, c.Natives.Policy.FeePerByte(fresh))
	require.True(t, c.Natives.Policy.IsBlocked(fresh, hash.Uint160{9}))
	require.EqualValues(t, 55, c.Natives.Policy.AttributeFee(fresh, transaction.ConflictsT))
	require.Equal(t, c.Natives.Policy.ExecFeeFactorPico(c.DAO), c.Natives.Policy.ExecFeeFactorPico(fresh))
	require.Equal(t, c.Natives.Policy.MaxTraceableBlocks(c.DAO), c.Natives.Policy.MaxTraceableBlocks(fresh))
	got, err := c.Natives.Management.GetContract(fresh, cs.Hash)
	require.NoError(t, err)
	require.Equal(t, cs.Hash, got.Hash)
	_, err = c.Natives.Management.GetContract(fresh, nativenames.PolicyHash)
	require.NoError(t, err)
}
