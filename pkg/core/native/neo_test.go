package native_test

import (
	"math/big"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

func keyItems(ks []*keys.PublicKey) stackitem.Item {
	items := make([]stackitem.Item, len(ks))
	for i, k := range ks {
		items[i] = stackitem.NewByteString(k.Bytes())
	}
	return stackitem.NewArray(items)
}

func sortedPubs(ks []*keys.PrivateKey) []*keys.PublicKey {
	res := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		res[i] = k.PublicKey()
	}
	keys.SortPublicKeys(res)
	return res
}

func TestNEO_Genesis(t *testing.T) {
	opts := multiNodeOptions(t, nil)
	c := newTokenChain(t, opts)
	require.Equal(t, big.NewInt(native.NEOTotalSupply), c.neoBalance(c.bft))
	require.Equal(t, big.NewInt(native.NEOTotalSupply), c.readInt(neoHash, "totalSupply"))
	require.Equal(t, stackitem.NewByteString([]byte("NEO")), c.read(neoHash, "symbol"))
	require.Equal(t, big.NewInt(0), c.readInt(neoHash, "decimals"))
	require.Equal(t, big.NewInt(native.DefaultGASPerBlock), c.readInt(neoHash, "getGasPerBlock"))
	require.Equal(t, big.NewInt(native.DefaultRegisterPrice), c.readInt(neoHash, "getRegisterPrice"))
	requireItem(t, keyItems(sortedPubs(opts.Committee)), c.read(neoHash, "getCommittee"))
	requireItem(t, keyItems(sortedPubs(opts.Committee[:4])), c.read(neoHash, "getNextBlockValidators"))
	script, err := smartcontract.CreateMajorityMultiSigRedeemScript(sortedPubs(opts.Committee))
	require.NoError(t, err)
	require.Equal(t, hashItem(hash.Hash160(script)), c.read(neoHash, "getCommitteeAddress"))
	require.Equal(t, hash.Hash160(script), c.Natives.NEO.CommitteeAddress(c.DAO))
	requireItem(t, stackitem.NewArray(nil), c.read(neoHash, "getCandidates"))
	// The committee is stored in configuration order with zero votes.
	members := make([]state.Validator, 7)
	for i := range members {
		members[i].Key = opts.Committee[i].PublicKey()
	}
	require.Equal(t, state.EncodeValidators(members), c.DAO.GetStorageItem(nativenames.NeoID, []byte{14}))
	require.Equal(t, []byte{}, c.DAO.GetStorageItem(nativenames.NeoID, []byte{1}))
	// The BFT account's state: 100M, height 0, no vote.
	requireItem(t, stackitem.NewStruct([]stackitem.Item{intItem(native.NEOTotalSupply), intItem(0), stackitem.Null{}, intItem(0)}),
		c.read(neoHash, "getAccountState", c.bft))
	require.Equal(t, stackitem.Null{}, c.read(neoHash, "getAccountState", hash.Uint160{}))
}

// TestNEO_CommitteeBounty checks the per-block committee reward: 10% of 5 GAS
// to the member whose index is the block index modulo the committee size
// (neo-go TestNEO_CommitteeBountyOnPersist, C# Check_CommitteeBonus).
func TestNEO_CommitteeBounty(t *testing.T) {
	opts := multiNodeOptions(t, nil)
	c := newTokenChain(t, opts)
	const single = 5000_0000
	bs := map[int]int64{0: single}
	check := func() {
		for i, k := range opts.Committee {
			require.Equal(t, big.NewInt(bs[i]), c.gasBalance(k.PublicKey().ScriptHash()), "member %d", i)
		}
	}
	check()
	for i := range 14 {
		c.AddBlock()
		bs[(i+1)%7] += single
		check()
	}
}

func TestNEO_GasPerBlock(t *testing.T) {
	c := newTokenChain(t)
	acc := testKey(t, "acc").ScriptHash()
	c.fund(0, 200*native.GASFactor, acc)
	committee := []transaction.Signer{c.CommitteeSigner()}
	c.fault("invalid committee signature", []transaction.Signer{signer(acc)}, neoHash, "setGasPerBlock", 1)
	c.fault("invalid value", committee, neoHash, "setGasPerBlock", -1)
	c.fault("invalid value", committee, neoHash, "setGasPerBlock", 10*native.GASFactor+1)

	// The new value applies from the next block: a read in the same block
	// still sees the old one, and the block's own PostPersist too
	// (neo-go #3889).
	txSet := c.NewTx(appCall(t, neoHash, "setGasPerBlock", 2*native.GASFactor), committee...)
	txGet := c.NewTx(appCall(t, neoHash, "getGasPerBlock"), signer(c.bft))
	aers := c.AddBlockFull(txSet, txGet)
	require.Equal(t, vmstate.Halt, aers[1].VMState, aers[1].FaultException)
	require.Equal(t, big.NewInt(native.DefaultGASPerBlock), mustInt(t, aers[2].Stack[0]))
	requireEvent(t, aers[3], 0, gasHash, "Transfer", stackitem.Null{}, hashItem(chaintest.CommitteeKey.PublicKey().ScriptHash()), intItem(2000_0000))
	require.Equal(t, big.NewInt(2*native.GASFactor), c.readInt(neoHash, "getGasPerBlock"))

	// Zero: no committee reward at all.
	c.RunOK(appCall(t, neoHash, "setGasPerBlock", 0), committee...)
	aers = c.AddBlockFull()
	require.Empty(t, aers[len(aers)-1].Events)

	// A FAULTed transaction leaves the cache alone.
	abort := script(t, func(w *nio.BinWriter) {
		emit.AppCall(w, neoHash, "setGasPerBlock", callflag.All, 7)
		emit.Opcodes(w, opcode.ABORT)
	})
	require.Equal(t, vmstate.Fault, c.Run(abort, committee...).VMState)
	require.Equal(t, big.NewInt(0), c.readInt(neoHash, "getGasPerBlock"))

	// Two changes in one block: the last one counts.
	aers = c.AddBlock(c.NewTx(appCall(t, neoHash, "setGasPerBlock", 3), committee...),
		c.NewTx(appCall(t, neoHash, "setGasPerBlock", 4), committee...))
	require.Equal(t, vmstate.Halt, aers[1].VMState)
	require.Equal(t, big.NewInt(4), c.readInt(neoHash, "getGasPerBlock"))
}

func mustInt(t testing.TB, it stackitem.Item) *big.Int {
	n, err := it.TryInteger()
	require.NoError(t, err)
	return n
}

func TestNEO_RegisterPrice(t *testing.T) {
	c := newTokenChain(t)
	acc := testKey(t, "acc").ScriptHash()
	c.fund(0, 200*native.GASFactor, acc)
	committee := []transaction.Signer{c.CommitteeSigner()}
	c.fault("invalid committee signature", []transaction.Signer{signer(acc)}, neoHash, "setRegisterPrice", 2)
	c.fault("invalid register price", committee, neoHash, "setRegisterPrice", 0)
	c.fault("invalid register price", committee, neoHash, "setRegisterPrice", new(big.Int).Lsh(big.NewInt(1), 63))
	txSet := c.NewTx(appCall(t, neoHash, "setRegisterPrice", 12345), committee...)
	txGet := c.NewTx(appCall(t, neoHash, "getRegisterPrice"), signer(c.bft))
	aers := c.AddBlock(txSet, txGet)
	require.Equal(t, big.NewInt(12345), mustInt(t, aers[1].Stack[0]))
	abort := script(t, func(w *nio.BinWriter) {
		emit.AppCall(w, neoHash, "setRegisterPrice", callflag.All, 7)
		emit.Opcodes(w, opcode.ABORT)
	})
	require.Equal(t, vmstate.Fault, c.Run(abort, committee...).VMState)
	require.Equal(t, big.NewInt(12345), c.readInt(neoHash, "getRegisterPrice"))
	require.Equal(t, []byte{0x39, 0x30}, c.DAO.GetStorageItem(nativenames.NeoID, []byte{13}))
}

// TestNEO_CandidateEvents follows neo-go's TestNEO_CandidateEvents.
func TestNEO_CandidateEvents(t *testing.T) {
	c := newTokenChain(t)
	k := testKey(t, "candidate")
	pkb := k.PublicKey().Bytes()
	acc := k.ScriptHash()
	c.fund(100_000_000, 10000*native.GASFactor, acc)
	s := []transaction.Signer{signer(acc)}

	aer := c.register(k)
	require.Len(t, aer.Events, 1)
	requireEvent(t, aer, 0, neoHash, "CandidateStateChanged", stackitem.NewByteString(pkb), stackitem.Bool(true), intItem(0))
	// The registration price is charged as GAS consumed.
	require.Greater(t, aer.GasConsumed, int64(native.DefaultRegisterPrice))

	aer = c.register(k)
	require.Empty(t, aer.Events)

	aer = c.call(s, neoHash, "vote", acc, pkb)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	requireEvent(t, aer, 0, neoHash, "Vote", hashItem(acc), stackitem.Null{}, stackitem.NewByteString(pkb), intItem(100_000_000))
	require.Equal(t, big.NewInt(100_000_000), c.readInt(neoHash, "getCandidateVote", pkb))

	aer = c.call(s, neoHash, "unregisterCandidate", pkb)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	require.Len(t, aer.Events, 1)
	requireEvent(t, aer, 0, neoHash, "CandidateStateChanged", stackitem.NewByteString(pkb), stackitem.Bool(false), intItem(100_000_000))
	require.Equal(t, big.NewInt(-1), c.readInt(neoHash, "getCandidateVote", pkb))

	aer = c.call(s, neoHash, "unregisterCandidate", pkb)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	require.Empty(t, aer.Events)

	// The unregistered candidate keeps its record while it has votes; the
	// vote's withdrawal drops it with its reward record.
	require.NotNil(t, c.DAO.GetStorageItem(nativenames.NeoID, append([]byte{33}, pkb...)))
	aer = c.call(s, neoHash, "vote", acc, nil)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	requireEvent(t, aer, 0, neoHash, "Vote", hashItem(acc), stackitem.NewByteString(pkb), stackitem.Null{}, intItem(100_000_000))
	require.Nil(t, c.DAO.GetStorageItem(nativenames.NeoID, append([]byte{33}, pkb...)))
	require.Nil(t, c.DAO.GetStorageItem(nativenames.NeoID, append([]byte{23}, pkb...)))

	// Without the key owner's witness unregistration fails (registration
	// too, before HF_Echidna: TestNEO_RegisterHardforks).
	other := testKey(t, "other").PublicKey().Bytes()
	require.Equal(t, stackitem.Bool(false), c.invoke(s, neoHash, "unregisterCandidate", other))
	c.fault("", s, neoHash, "registerCandidate", []byte{2, 2, 2})
	c.fault("", s, neoHash, "getCandidateVote", []byte{})
}

func TestNEO_Vote(t *testing.T) {
	c := newTokenChain(t)
	cand, voter := testKey(t, "cand"), testKey(t, "voter")
	pkb := cand.PublicKey().Bytes()
	c.fund(1000, 3000*native.GASFactor, cand.ScriptHash(), voter.ScriptHash())
	funded := c.BlockHeight()
	vs := []transaction.Signer{signer(voter.ScriptHash())}

	// No witness, unknown candidate, unregistered candidate: false.
	require.Equal(t, stackitem.Bool(false), c.invoke(nil, neoHash, "vote", voter.ScriptHash(), pkb))
	require.Equal(t, stackitem.Bool(false), c.invoke(vs, neoHash, "vote", voter.ScriptHash(), pkb))
	c.register(cand)
	// An account without NEO cannot vote.
	empty := testKey(t, "empty").ScriptHash()
	require.Equal(t, stackitem.Bool(false), c.invoke([]transaction.Signer{c.bftSigner(), signer(empty)}, neoHash, "vote", empty, pkb))

	aer := c.call(vs, neoHash, "vote", voter.ScriptHash(), pkb)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	require.Equal(t, big.NewInt(1000), c.readInt(neoHash, "getCandidateVote", pkb))
	require.Equal(t, []byte{0xe8, 0x03}, c.DAO.GetStorageItem(nativenames.NeoID, []byte{1}))
	// The vote claims the voter's GAS: 10% of 5 GAS per block for 1000 of
	// 100M NEO, 500 datoshi a block.
	blocks := int64(c.BlockHeight() - funded)
	requireEvent(t, aer, 1, gasHash, "Transfer", stackitem.Null{}, hashItem(voter.ScriptHash()), intItem(500*blocks))

	// A vote change moves the votes and resets LastGasPerVote to the new
	// candidate's record.
	other := testKey(t, "other cand")
	c.fund(0, 2000*native.GASFactor, other.ScriptHash())
	c.register(other)
	aer = c.call(vs, neoHash, "vote", voter.ScriptHash(), other.PublicKey().Bytes())
	requireEvent(t, aer, 0, neoHash, "Vote", hashItem(voter.ScriptHash()), stackitem.NewByteString(pkb),
		stackitem.NewByteString(other.PublicKey().Bytes()), intItem(1000))
	require.Equal(t, big.NewInt(0), c.readInt(neoHash, "getCandidateVote", pkb))
	require.Equal(t, big.NewInt(1000), c.readInt(neoHash, "getCandidateVote", other.PublicKey().Bytes()))
	aer = c.call(vs, neoHash, "vote", voter.ScriptHash(), pkb)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	require.Equal(t, big.NewInt(1000), c.readInt(neoHash, "getCandidateVote", pkb))
	require.Equal(t, big.NewInt(0), c.readInt(neoHash, "getCandidateVote", other.PublicKey().Bytes()))

	// Transfers move votes with the balance.
	c.RunOK(appCall(t, neoHash, "transfer", voter.ScriptHash(), cand.ScriptHash(), 300, nil), vs...)
	require.Equal(t, big.NewInt(700), c.readInt(neoHash, "getCandidateVote", pkb))
	require.Equal(t, []byte{0xbc, 0x02}, c.DAO.GetStorageItem(nativenames.NeoID, []byte{1}))

	// Unregistered candidates cannot get new votes; withdrawing works.
	c.RunOK(appCall(t, neoHash, "unregisterCandidate", pkb), signer(cand.ScriptHash()))
	require.Equal(t, stackitem.Bool(false), c.invoke([]transaction.Signer{signer(cand.ScriptHash())}, neoHash, "vote", cand.ScriptHash(), pkb))
	require.Equal(t, stackitem.Bool(true), c.invoke(vs, neoHash, "vote", voter.ScriptHash(), nil))
	require.Equal(t, []byte{}, c.DAO.GetStorageItem(nativenames.NeoID, []byte{1}))
	st := c.read(neoHash, "getAccountState", voter.ScriptHash()).(*stackitem.Array).Items()
	require.Equal(t, stackitem.Null{}, st[2])
	require.Equal(t, intItem(0), st[3])
}
