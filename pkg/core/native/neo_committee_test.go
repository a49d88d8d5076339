package native_test

import (
	"bytes"
	"math/big"
	"slices"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

// registerAll registers keys as candidates in one block; the BFT account
// pays, each key's account witnesses its registration.
func (c *tokenChain) registerAll(ks []*keys.PrivateKey) {
	c.t.Helper()
	var txs []*transaction.Transaction
	for chunk := range slices.Chunk(ks, 15) {
		signers := []transaction.Signer{c.bftSigner()}
		s := script(c.t, func(w *nio.BinWriter) {
			for _, k := range chunk {
				signers = append(signers, signer(k.ScriptHash()))
				emit.AppCall(w, neoHash, "registerCandidate", callflag.All, k.PublicKey().Bytes())
				emit.Opcodes(w, opcode.ASSERT)
			}
		})
		tx := c.NewTx(s, signers...)
		tx.SystemFee = int64(len(chunk))*native.DefaultRegisterPrice + 10*native.GASFactor
		txs = append(txs, tx)
	}
	for i, aer := range c.AddBlock(txs...) {
		require.Equal(c.t, vmstate.Halt, aer.VMState, "registration tx %d: %s", i, aer.FaultException)
	}
}

// voteAll makes voters[i] vote for candidates[i] in one block.
func (c *tokenChain) voteAll(voters, candidates []*keys.PrivateKey) {
	c.t.Helper()
	txs := make([]*transaction.Transaction, len(voters))
	for i := range voters {
		txs[i] = c.NewTx(appCall(c.t, neoHash, "vote", voters[i].ScriptHash(), candidates[i].PublicKey().Bytes()),
			c.bftSigner(), signer(voters[i].ScriptHash()))
	}
	for i, aer := range c.AddBlock(txs...) {
		require.Equal(c.t, vmstate.Halt, aer.VMState, "vote %d: %s", i, aer.FaultException)
		require.Equal(c.t, stackitem.Bool(true), aer.Stack[0], "vote %d", i)
	}
}

// fundEach sends neo[i] NEO to accs[i] in one transaction.
func (c *tokenChain) fundEach(accs []*keys.PrivateKey, neo func(i int) int64) {
	c.t.Helper()
	c.RunOK(script(c.t, func(w *nio.BinWriter) {
		for i, a := range accs {
			emit.AppCall(w, neoHash, "transfer", callflag.All, c.bft, a.ScriptHash(), neo(i), nil)
			emit.Opcodes(w, opcode.ASSERT)
		}
	}), c.bftSigner())
}

// untilEpochStart adds blocks until the last one starts a dBFT epoch and
// returns that block's results.
func (c *tokenChain) untilEpochStart() []*state.AppExecResult {
	size := uint32(c.Cfg.GetCommitteeSize(0))
	for {
		aers := c.AddBlockFull()
		if c.BlockHeight()%size == 0 {
			return aers
		}
	}
}

func pubs(ks []*keys.PrivateKey) []*keys.PublicKey {
	res := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		res[i] = k.PublicKey()
	}
	return res
}

func TestNEO_CommitteeElection(t *testing.T) {
	for _, cockatrice := range []bool{false, true} {
		opts := multiNodeOptions(t, nil)
		if !cockatrice {
			opts.Hardforks, opts.NoHardforks = nil, true
		}
		c := newTokenChain(t, opts)
		candidates := testKeys(t, "cand", 7)
		voters := testKeys(t, "voter", 7)
		// 7M, 6M, ..., 1M NEO: 28% of all NEO votes.
		c.fundEach(voters, func(i int) int64 { return int64(7-i) * 1_000_000 })
		c.registerAll(candidates)
		c.voteAll(voters, candidates)
		standby := pubs(opts.Committee)
		if c.BlockHeight()%7 != 6 {
			// Nothing changes before the epoch ends.
			require.Equal(t, standby, c.Natives.NEO.CommitteeMembers(c.DAO))
		}
		oldAddress := c.CommitteeAddress()
		elected := pubs(candidates) // most votes first
		aers := c.untilEpochStart()
		require.Equal(t, elected, c.Natives.NEO.CommitteeMembers(c.DAO))
		vals := slices.Clone(elected[:4])
		keys.SortPublicKeys(vals)
		require.Equal(t, vals, c.Natives.NEO.NextBlockValidators(c.DAO))
		require.Equal(t, vals, c.Natives.NEO.ComputeNextBlockValidators(c.DAO))
		requireItem(t, keyItems(sortedPubs(candidates)), c.read(neoHash, "getCommittee"))
		requireItem(t, keyItems(vals), c.read(neoHash, "getNextBlockValidators"))
		script, err := smartcontract.CreateMajorityMultiSigRedeemScript(elected)
		require.NoError(t, err)
		require.Equal(t, hash.Hash160(script), c.CommitteeAddress())
		// The stored committee keeps the votes it was elected with.
		members := c.Natives.NEO.Committee(c.DAO)
		for i := range members {
			require.Equal(t, big.NewInt(int64(7-i)*1_000_000), &members[i].Votes)
		}
		require.Equal(t, state.EncodeValidators(members), c.DAO.GetStorageItem(nativenames.NeoID, []byte{14}))

		op := aers[0]
		if cockatrice {
			require.Len(t, op.Events, 1)
			requireEvent(t, op, 0, neoHash, "CommitteeChanged", keyItems(standby), keyItems(elected))
		} else {
			require.Empty(t, op.Events)
		}
		// The new committee rules: the old one cannot change settings.
		c.fault("invalid committee signature", []transaction.Signer{c.bftSigner(), signer(oldAddress)}, neoHash, "setRegisterPrice", 1)
		c.RunOK(appCall(t, neoHash, "setRegisterPrice", 2), c.bftSigner(), c.CommitteeSigner())
		// Committee rewards now go to the new members.
		member := elected[int(c.BlockHeight()+1)%7].ScriptHash()
		before := c.gasBalance(member)
		c.AddBlock()
		require.Equal(t, new(big.Int).Add(before, big.NewInt(5000_0000)), c.gasBalance(member))
		// A refresh with the same result sends no event.
		aers = c.untilEpochStart()
		require.Empty(t, aers[0].Events)

		checkRestart(t, c)
	}
}

// checkRestart rebuilds the NEO cache from storage, as after a restart, and
// compares it with the live one.
func checkRestart(t *testing.T, c *tokenChain) {
	cs := native.NewContracts(c.Cfg)
	d := c.DAO.GetPrivate()
	require.NoError(t, cs.InitializeCache(d, c.BlockHeight()))
	live, restored := c.Natives.NEO, cs.NEO
	require.Equal(t, live.CommitteeMembers(c.DAO), restored.CommitteeMembers(d))
	require.Equal(t, live.Committee(c.DAO), restored.Committee(d))
	require.Equal(t, live.CommitteeAddress(c.DAO), restored.CommitteeAddress(d))
	require.Equal(t, live.NextBlockValidators(c.DAO), restored.NextBlockValidators(d))
	require.Equal(t, live.ComputeNextBlockValidators(c.DAO), restored.ComputeNextBlockValidators(d))
	require.Equal(t, live.RegisterPrice(c.DAO), restored.RegisterPrice(d))
	for h := range c.BlockHeight() + 2 {
		require.Equal(t, live.GASPerBlock(c.DAO, h), restored.GASPerBlock(d, h))
	}
}

func TestNEO_ElectionNeedsTurnoutAndCandidates(t *testing.T) {
	t.Run("turnout below 20%", func(t *testing.T) {
		opts := multiNodeOptions(t, nil)
		c := newTokenChain(t, opts)
		candidates := append(testKeys(t, "cand", 6), opts.Committee[2])
		voters := testKeys(t, "voter", 7)
		c.fundEach(voters, func(i int) int64 { return 2_000_000 }) // 14%
		c.fund(0, 100*native.GASFactor, opts.Committee[2].ScriptHash())
		c.registerAll(candidates)
		c.voteAll(voters, candidates)
		c.untilEpochStart()
		require.Equal(t, pubs(opts.Committee), c.Natives.NEO.CommitteeMembers(c.DAO))
		// A standby member that is a candidate is stored with its votes.
		members := c.Natives.NEO.Committee(c.DAO)
		for i := range members {
			want := int64(0)
			if i == 2 {
				want = 2_000_000
			}
			require.Equal(t, big.NewInt(want), &members[i].Votes, "member %d", i)
		}
		// 20% exactly elects.
		c.fundEach(voters[:1], func(int) int64 { return 6_000_000 })
		c.untilEpochStart()
		require.NotEqual(t, pubs(opts.Committee), c.Natives.NEO.CommitteeMembers(c.DAO))
		require.Equal(t, voters[0].PublicKey().ScriptHash(), voters[0].ScriptHash())
		require.Equal(t, candidates[0].PublicKey(), c.Natives.NEO.CommitteeMembers(c.DAO)[0]) // 8M votes
	})
	t.Run("too few candidates", func(t *testing.T) {
		opts := multiNodeOptions(t, nil)
		c := newTokenChain(t, opts)
		candidates := testKeys(t, "cand", 6)
		voters := testKeys(t, "voter", 6)
		c.fundEach(voters, func(int) int64 { return 10_000_000 })
		c.registerAll(candidates)
		c.voteAll(voters, candidates)
		c.untilEpochStart()
		require.Equal(t, pubs(opts.Committee), c.Natives.NEO.CommitteeMembers(c.DAO))
	})
	t.Run("blocked candidates are not elected", func(t *testing.T) {
		opts := multiNodeOptions(t, nil)
		c := newTokenChain(t, opts)
		candidates := testKeys(t, "cand", 8)
		voters := testKeys(t, "voter", 8)
		c.fundEach(voters, func(i int) int64 { return int64(8-i) * 1_000_000 })
		c.registerAll(candidates)
		c.voteAll(voters, candidates)
		c.RunOK(appCall(t, nativenames.PolicyHash, "blockAccount", candidates[0].ScriptHash()), c.bftSigner(), c.CommitteeSigner())
		c.untilEpochStart()
		require.Equal(t, pubs(candidates[1:]), c.Natives.NEO.CommitteeMembers(c.DAO))
	})
}

// TestNEO_VoterRewards reproduces C#'s TestClaimGas numbers with a real
// election: 21 members with 2M votes each, 7 validators; every epoch start
// adds 2 * 5 GAS * 80% * 21/28 * 10^8 / 2M = 3e10 to the reward per vote of
// a validator and half of it to the other members.
func TestNEO_VoterRewards(t *testing.T) {
	committee := testKeys(t, "member", 21)
	c := newTokenChain(t, chaintest.Options{Committee: committee, ValidatorsCount: 7})
	c.fundEach(committee, func(int) int64 { return 2_000_000 })
	c.registerAll(committee)
	c.voteAll(committee, committee)
	voted := c.BlockHeight()
	c.untilEpochStart()
	members := c.Natives.NEO.Committee(c.DAO)
	// Equal votes: the committee is ordered by key.
	sorted := pubs(committee)
	keys.SortPublicKeys(sorted)
	for i := range members {
		require.Equal(t, sorted[i], members[i].Key)
		require.Equal(t, big.NewInt(2_000_000), &members[i].Votes)
	}
	reward := func(i int) *big.Int {
		return bigint.FromBytes(c.DAO.GetStorageItem(nativenames.NeoID, append([]byte{23}, members[i].Key.Bytes()...)))
	}
	for i := range members {
		want := int64(30000000000)
		if i >= 7 {
			want /= 2
		}
		require.Equal(t, big.NewInt(want), reward(i), "member %d", i)
	}
	c.untilEpochStart()
	require.Equal(t, big.NewInt(2*30000000000), reward(2))
	require.Equal(t, big.NewInt(2*15000000000), reward(20))

	// The voter of a validator claims its share: 2M * 6e10 / 1e8 = 12 GAS,
	// plus the holder reward.
	var idx int
	for i, k := range committee {
		if k.PublicKey().Equal(members[2].Key) {
			idx = i
		}
	}
	acc := committee[idx].ScriptHash()
	next := c.BlockHeight() + 1
	want := 2_000_000*int64(60000000000)/100_000_000 + holderReward(2_000_000, int64(next-voted))
	require.Equal(t, big.NewInt(want), c.readInt(neoHash, "unclaimedGas", acc, next))
	before := c.gasBalance(acc)
	aer := c.call([]transaction.Signer{c.bftSigner(), signer(acc)}, neoHash, "transfer", acc, acc, 0, nil)
	requireEvent(t, aer, 1, gasHash, "Transfer", stackitem.Null{}, hashItem(acc), intItem(want))
	require.Equal(t, new(big.Int).Add(before, big.NewInt(want)), c.gasBalance(acc))
	// The account's LastGasPerVote is the candidate's latest value.
	st := c.read(neoHash, "getAccountState", acc).(*stackitem.Array).Items()
	requireItem(t, intItem(60000000000), st[3])
	checkRestart(t, c)
}

func TestNEO_GetCandidates(t *testing.T) {
	c := newTokenChain(t)
	c.RunOK(appCall(t, neoHash, "setRegisterPrice", 1), c.CommitteeSigner())
	cands := testKeys(t, "cand", 260)
	c.registerAll(cands)
	sorted := slices.Clone(cands)
	slices.SortFunc(sorted, func(a, b *keys.PrivateKey) int { return bytes.Compare(a.PublicKey().Bytes(), b.PublicKey().Bytes()) })
	entry := func(k *keys.PrivateKey) stackitem.Item {
		return stackitem.NewStruct([]stackitem.Item{stackitem.NewByteString(k.PublicKey().Bytes()), intItem(0)})
	}
	want := make([]stackitem.Item, 256)
	for i := range want {
		want[i] = entry(sorted[i])
	}
	// The first 256 in storage (key byte) order.
	requireItem(t, stackitem.NewArray(want), c.read(neoHash, "getCandidates"))
	got, err := c.Natives.NEO.GetCandidates(c.DAO)
	require.NoError(t, err)
	require.Len(t, got, 256)

	// getAllCandidates iterates over all of them, as Struct [key, votes].
	nth := func(n int) *state.AppExecResult {
		s := script(t, func(w *nio.BinWriter) {
			emit.AppCall(w, neoHash, "getAllCandidates", callflag.All)
			for range n + 1 {
				emit.Opcodes(w, opcode.DUP)
				emit.Syscall(w, interop.SystemIteratorNext)
				emit.Opcodes(w, opcode.DROP)
			}
			emit.Syscall(w, interop.SystemIteratorValue)
		})
		aer, _ := c.TestInvoke(s, 100_0000_0000, c.bftSigner())
		return aer
	}
	for _, i := range []int{0, 1, 255, 256, 259} {
		aer := nth(i)
		require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
		requireItem(t, entry(sorted[i]), aer.Stack[0])
	}
	require.Equal(t, vmstate.Fault, nth(260).VMState)

	// Blocked candidates are left out of both.
	c.RunOK(appCall(t, nativenames.PolicyHash, "blockAccount", sorted[0].ScriptHash()), c.CommitteeSigner())
	for i := range want {
		want[i] = entry(sorted[i+1])
	}
	requireItem(t, stackitem.NewArray(want), c.read(neoHash, "getCandidates"))
	requireItem(t, entry(sorted[1]), nth(0).Stack[0])
	requireItem(t, entry(sorted[259]), nth(258).Stack[0])
	require.Equal(t, vmstate.Fault, nth(259).VMState)
	// getCandidateVote still reports it.
	require.Equal(t, big.NewInt(0), c.readInt(neoHash, "getCandidateVote", sorted[0].PublicKey().Bytes()))
}

func TestNEO_RegisterHardforks(t *testing.T) {
	k := testKey(t, "cand")
	pkb := k.PublicKey().Bytes()
	statesOnly := script(t, func(w *nio.BinWriter) {
		emit.AppCall(w, neoHash, "registerCandidate", callflag.States, pkb)
	})
	t.Run("before Echidna", func(t *testing.T) {
		c := newTokenChain(t, chaintest.Options{NoHardforks: true})
		c.fund(0, 3000*native.GASFactor, k.ScriptHash())
		// Without the key's witness: false before the price is charged.
		aer := c.callFee(registrationFee, []transaction.Signer{c.bftSigner()}, neoHash, "registerCandidate", pkb)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
		require.Less(t, aer.GasConsumed, int64(native.DefaultRegisterPrice))
		// States is enough.
		tx := c.NewTx(statesOnly, signer(k.ScriptHash()))
		tx.SystemFee = registrationFee
		aer = c.AddBlock(tx)[0]
		require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		// No NEP-27 registration.
		c.fault("onNEP17Payment", []transaction.Signer{signer(k.ScriptHash())}, gasHash, "transfer",
			k.ScriptHash(), neoHash, native.DefaultRegisterPrice, pkb)
		// No getCommitteeAddress.
		c.fault("getCommitteeAddress", nil, neoHash, "getCommitteeAddress")
	})
	t.Run("from Echidna", func(t *testing.T) {
		c := newTokenChain(t)
		c.fund(0, 3000*native.GASFactor, k.ScriptHash())
		// Without the key's witness: false after the price is charged, as
		// C# does (neo-go 0.120.0 would register the key: docs/compat.md).
		aer := c.callFee(registrationFee, []transaction.Signer{c.bftSigner()}, neoHash, "registerCandidate", pkb)
		require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
		require.Greater(t, aer.GasConsumed, int64(native.DefaultRegisterPrice))
		require.Empty(t, aer.Events)
		// With it: registered.
		aer = c.callFee(registrationFee, []transaction.Signer{signer(k.ScriptHash())}, neoHash, "registerCandidate", pkb)
		require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		require.Equal(t, big.NewInt(0), c.readInt(neoHash, "getCandidateVote", pkb))
		c.RunOK(appCall(t, neoHash, "unregisterCandidate", pkb), signer(k.ScriptHash()))
		// States is not enough any more.
		tx := c.NewTx(statesOnly, signer(k.ScriptHash()))
		tx.SystemFee = registrationFee
		aer = c.AddBlock(tx)[0]
		require.Equal(t, vmstate.Fault, aer.VMState)
		require.Contains(t, aer.FaultException, "missing call flags")
	})
}

// TestNEO_RegisterViaNEP27 follows neo-go's TestNEO_RegisterViaNEP27.
func TestNEO_RegisterViaNEP27(t *testing.T) {
	c := newTokenChain(t)
	k, other := testKey(t, "cand"), testKey(t, "other")
	acc := k.ScriptHash()
	c.fund(10, 5000*native.GASFactor, acc)
	// The key's witness must reach NEO's onNEP17Payment (called by GAS).
	s := []transaction.Signer{{Account: acc, Scopes: transaction.CalledByEntry | transaction.CustomContracts, AllowedContracts: []hash.Uint160{neoHash}}}
	price := int64(native.DefaultRegisterPrice)
	before := c.Natives.GAS.TotalSupply(c.DAO)
	aer := c.call(s, gasHash, "transfer", acc, neoHash, price, k.PublicKey().Bytes())
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	require.Len(t, aer.Events, 3)
	requireEvent(t, aer, 0, gasHash, "Transfer", hashItem(acc), hashItem(neoHash), intItem(price))
	requireEvent(t, aer, 1, neoHash, "CandidateStateChanged", stackitem.NewByteString(k.PublicKey().Bytes()), stackitem.Bool(true), intItem(0))
	requireEvent(t, aer, 2, gasHash, "Transfer", hashItem(neoHash), stackitem.Null{}, intItem(price))
	require.Equal(t, big.NewInt(0), c.gasBalance(neoHash))
	require.Equal(t, big.NewInt(0), c.readInt(neoHash, "getCandidateVote", k.PublicKey().Bytes()))
	// The price is burnt (plus the fees; minus the block rewards).
	require.Equal(t, new(big.Int).Sub(before, big.NewInt(price+chaintest.DefaultSystemFee-5000_0000)), c.Natives.GAS.TotalSupply(c.DAO))

	c.fault("", s, gasHash, "transfer", acc, neoHash, price, nil)
	c.fault("", s, gasHash, "transfer", acc, neoHash, price, []byte{2, 2, 2})
	c.fault("only GAS is accepted", s, neoHash, "transfer", acc, neoHash, 1, k.PublicKey().Bytes())
	c.fault("incorrect GAS amount", s, gasHash, "transfer", acc, neoHash, 1, k.PublicKey().Bytes())
	c.fault("not witnessed by the key owner", s, gasHash, "transfer", acc, neoHash, price, other.PublicKey().Bytes())
	// CalledByEntry alone does not reach NEO.
	c.fault("not witnessed by the key owner", []transaction.Signer{signer(acc)}, gasHash, "transfer", acc, neoHash, price,
		k.PublicKey().Bytes())
}

func TestNEO_BlockAccountRevokesVotes(t *testing.T) {
	for _, faun := range []bool{false, true} {
		opts := chaintest.Options{Hardforks: hfUpTo(config.HFEchidna, 0)}
		if faun {
			opts = chaintest.Options{}
		}
		c := newTokenChain(t, opts)
		cand, voter := testKey(t, "cand"), testKey(t, "voter")
		c.fund(500, 3000*native.GASFactor, cand.ScriptHash(), voter.ScriptHash())
		c.register(cand)
		c.voteAll([]*keys.PrivateKey{voter}, []*keys.PrivateKey{cand})
		aer := c.RunOK(appCall(t, nativenames.PolicyHash, "blockAccount", voter.ScriptHash()), c.CommitteeSigner())
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		if !faun {
			require.Empty(t, aer.Events)
			require.Equal(t, big.NewInt(500), c.readInt(neoHash, "getCandidateVote", cand.PublicKey().Bytes()))
			continue
		}
		requireEvent(t, aer, 0, neoHash, "Vote", hashItem(voter.ScriptHash()), stackitem.NewByteString(cand.PublicKey().Bytes()),
			stackitem.Null{}, intItem(500))
		require.Equal(t, big.NewInt(0), c.readInt(neoHash, "getCandidateVote", cand.PublicKey().Bytes()))
		require.Equal(t, []byte{}, c.DAO.GetStorageItem(nativenames.NeoID, []byte{1}))
	}
}

func TestNEO_HardforkActivation(t *testing.T) {
	c := newTokenChain(t, chaintest.Options{Hardforks: map[string]uint32{
		"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 3, "Domovoi": 3, "Echidna": 5,
	}})
	methods := func() []string {
		cs, err := c.Natives.GetContract(c.DAO, neoHash)
		require.NoError(t, err)
		var res []string
		for _, m := range cs.Manifest.ABI.Methods {
			res = append(res, m.Name)
		}
		return res
	}
	require.NotContains(t, methods(), "getCommitteeAddress")
	for c.BlockHeight() < 3 {
		c.AddBlock()
	}
	require.Contains(t, methods(), "getCommitteeAddress")
	require.NotContains(t, methods(), "onNEP17Payment")
	for c.BlockHeight() < 5 {
		c.AddBlock()
	}
	require.Contains(t, methods(), "onNEP17Payment")
	cs, err := c.Natives.GetContract(c.DAO, neoHash)
	require.NoError(t, err)
	require.Equal(t, []string{"NEP-17", "NEP-27"}, cs.Manifest.SupportedStandards)
	require.Equal(t, uint16(2), cs.UpdateCounter)
}
