package stateroot_test

import (
	"github.com/n3node/n3node/internal/stateroottest"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core/block"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/services/stateroot"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// requireValidated checks that every chain in ids stored a validated root
// for h whose witness verifies for the state validators' multisig account.
func requireValidated(t *testing.T, c *stateroottest.Cluster, svs []*keys.PrivateKey, h uint32, ids ...int) {
	t.Helper()
	pubs := make([]*keys.PublicKey, len(svs))
	for i, k := range svs {
		pubs[i] = k.PublicKey()
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
	require.NoError(t, err)
	for _, i := range ids {
		bc := c.Chain(i)
		require.GreaterOrEqual(t, bc.StateModule().CurrentValidatedHeight(), h, "node %d", i)
		r, err := bc.GetStateRoot(h)
		require.NoError(t, err)
		require.Len(t, r.Witness, 1, "node %d height %d", i, h)
		require.Equal(t, script, r.Witness[0].VerificationScript)
		_, err = bc.VerifyWitness(hash.Hash160(script), r, &r.Witness[0], stateroot.MaxVerificationGAS)
		require.NoError(t, err, "node %d", i)
		sigs, ok := smartcontract.ParseMultiSigInvocation(3, r.Witness[0].InvocationScript)
		require.True(t, ok)
		require.Len(t, sigs, 3)
	}
}

func TestVotesMakeValidatedRoot(t *testing.T) {
	c, svs := stateroottest.FourValidators(t)
	for range 5 {
		h := c.AddBlock()
		c.Deliver()
		requireValidated(t, c, svs, h, 0, 1, 2, 3, 4)
		// Roots are stored once; the observer never votes.
		require.Equal(t, h, c.Chain(4).StateModule().CurrentValidatedHeight())
	}
	// One root and four votes per height; the root comes from the sender
	// of the height (index mod 4), votes expire after 10 blocks, roots after
	// 100.
	var votes, roots int
	for _, e := range c.Sent {
		m, err := stateroot.DecodeMessage(e.Data)
		require.NoError(t, err)
		switch m.Type {
		case stateroot.VoteT:
			votes++
			require.Equal(t, e.ValidBlockStart+stateroot.VoteValidBlocks, e.ValidBlockEnd)
			require.Equal(t, m.Vote.Height, e.ValidBlockStart)
			require.Equal(t, svs[m.Vote.ValidatorIndex].PublicKey().ScriptHash(), e.Sender)
		case stateroot.RootT:
			roots++
			require.Equal(t, e.ValidBlockStart+stateroot.RootValidBlocks, e.ValidBlockEnd)
			require.Equal(t, svs[int(m.Root.Index)%4].PublicKey().ScriptHash(), e.Sender)
		}
	}
	require.Equal(t, 20, votes)
	require.Equal(t, 5, roots)
	for i := range 4 {
		st := c.Nodes[i].Svc.Stats()
		require.Zero(t, st.VotesRejected)
		require.Zero(t, st.Mismatches)
		require.Equal(t, uint64(5), st.RootsValidated)
	}
	// Timers do nothing once the roots are validated.
	n := len(c.Sent)
	c.Tick(time.Minute)
	c.Deliver()
	require.Len(t, c.Sent, n)
}

func TestWrongLocalRootFlagged(t *testing.T) {
	c, svs := stateroottest.FourValidators(t)
	c.AddBlock()
	c.Deliver()
	// stateroottest.Node 3 (a validator) and the observer compute a wrong root for the
	// next height.
	next := c.Chain(0).BlockHeight() + 1
	c.Nodes[3].Led.SetLie(next)
	c.Nodes[4].Led.SetLie(next)
	h := c.AddBlock()
	require.Equal(t, next, h)
	c.Deliver()
	// The three honest validators agree; node 3's vote does not verify
	// (node 2, the sender, had completed the root before it came).
	requireValidated(t, c, svs, h, 0, 1, 2)
	require.Equal(t, uint64(1), c.Nodes[0].Svc.Stats().VotesRejected)
	require.Equal(t, uint64(1), c.Nodes[1].Svc.Stats().VotesRejected)
	// Nodes 3 and 4 flag the validated root and do not store it.
	for _, i := range []int{3, 4} {
		require.Equal(t, []uint32{h}, c.Nodes[i].Mismatches, "node %d", i)
		require.Equal(t, uint64(1), c.Nodes[i].Svc.Stats().Mismatches)
		require.Less(t, c.Chain(i).StateModule().CurrentValidatedHeight(), h)
		r, err := c.Chain(i).GetStateRoot(h)
		require.NoError(t, err)
		require.Empty(t, r.Witness)
	}
	// The next height is fine again everywhere.
	h = c.AddBlock()
	c.Deliver()
	requireValidated(t, c, svs, h, 0, 1, 2, 3, 4)
}

func TestNonDesignatedSignersIgnored(t *testing.T) {
	c, svs := stateroottest.FourValidators(t)
	// Validators 0 and 1 are cut off: 2 and 3 have two votes each, one
	// short of the three needed.
	c.Nodes[0].Down, c.Nodes[1].Down = true, true
	h := c.AddBlock()
	c.Deliver()
	root, err := c.Chain(2).GetStateRoot(h)
	require.NoError(t, err)
	stranger := stateroottest.SVKey(t, 99)

	send := func(k *keys.PrivateKey, m *stateroot.Message, end uint32) {
		data, err := m.Bytes()
		require.NoError(t, err)
		e := &payload.Extensible{Category: stateroot.Category, ValidBlockStart: h, ValidBlockEnd: h + end,
			Sender: k.PublicKey().ScriptHash(), Data: data}
		sd := e.SignData(testchain.Magic)
		e.Witness = transaction.Witness{InvocationScript: testchain.PushData(k.Sign(sd[:])), VerificationScript: k.PublicKey().VerificationScript()}
		for _, n := range c.Nodes[2:] {
			require.NoError(t, n.Svc.OnPayload(e))
		}
	}
	sd := transaction.SignData(testchain.Magic, root.Hash())
	// A stranger's signature claiming validator 0's index, and indexes
	// outside the list: all rejected by the two voting nodes.
	send(stranger, &stateroot.Message{Type: stateroot.VoteT, Vote: &stateroot.Vote{ValidatorIndex: 0, Height: h, Signature: stranger.Sign(sd[:])}}, 10)
	send(stranger, &stateroot.Message{Type: stateroot.VoteT, Vote: &stateroot.Vote{ValidatorIndex: 4, Height: h, Signature: stranger.Sign(sd[:])}}, 10)
	send(stranger, &stateroot.Message{Type: stateroot.VoteT, Vote: &stateroot.Vote{ValidatorIndex: -1, Height: h, Signature: stranger.Sign(sd[:])}}, 10)
	for i := 2; i < 4; i++ {
		require.Equal(t, uint64(3), c.Nodes[i].Svc.Stats().VotesRejected, "node %d", i)
	}
	// A root signed by three strangers (a valid multisig, but not of the
	// designated keys) is not stored anywhere.
	strangers := []*keys.PrivateKey{stateroottest.SVKey(t, 100), stateroottest.SVKey(t, 101), stateroottest.SVKey(t, 102), stateroottest.SVKey(t, 103)}
	pubs := make([]*keys.PublicKey, 4)
	for i, k := range strangers {
		pubs[i] = k.PublicKey()
	}
	keys.SortPublicKeys(pubs)
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
	require.NoError(t, err)
	w := nio.NewBufBinWriter()
	for _, p := range pubs[:3] {
		for _, k := range strangers {
			if k.PublicKey().Equal(p) {
				emit.Bytes(w, k.Sign(sd[:]))
			}
		}
	}
	fake := &coreroot.Root{Index: h, RootHash: root.RootHash, Witness: []transaction.Witness{{InvocationScript: w.Bytes(), VerificationScript: script}}}
	send(strangers[0], &stateroot.Message{Type: stateroot.RootT, Root: fake}, 100)
	for i := 2; i < 5; i++ {
		require.Equal(t, uint64(1), c.Nodes[i].Svc.Stats().RootsRejected, "node %d", i)
		require.Less(t, c.Chain(i).StateModule().CurrentValidatedHeight(), h)
	}
	// Undecodable data is ignored without an error.
	send(stranger, &stateroot.Message{Type: stateroot.VoteT, Vote: &stateroot.Vote{Height: h}}, 10)
	bad := &payload.Extensible{Category: stateroot.Category, ValidBlockStart: h, ValidBlockEnd: h + 1, Data: []byte{7}}
	require.NoError(t, c.Nodes[2].Svc.OnPayload(bad))
	require.Equal(t, uint64(1), c.Nodes[2].Svc.Stats().BadMessages)

	// Validators 0 and 1 are back: the resent votes complete the round.
	c.Nodes[0].Down, c.Nodes[1].Down = false, false
	c.Tick(stateroot.FirstVoteResendDelay)
	c.Deliver()
	requireValidated(t, c, svs, h, 0, 1, 2, 3, 4)
}

func TestSenderRotates(t *testing.T) {
	c, svs := stateroottest.FourValidators(t)
	// The block's sender (index mod 4) is down: nobody assembles the root
	// until the timer moves the role to the previous validator.
	h := c.Nodes[0].Gen.BC.BlockHeight() + 1
	c.Nodes[int(h)%4].Down = true
	c.AddBlock()
	c.Deliver()
	for i := range 5 {
		require.Less(t, c.Chain(i).StateModule().CurrentValidatedHeight(), h)
	}
	c.Tick(stateroot.FirstVoteResendDelay)
	c.Deliver()
	up := []int{}
	for i := range 5 {
		if i != int(h)%4 {
			up = append(up, i)
		}
	}
	requireValidated(t, c, svs, h, up...)
	var root *payload.Extensible
	for _, e := range c.Sent {
		if m, _ := stateroot.DecodeMessage(e.Data); m.Type == stateroot.RootT {
			root = e
		}
	}
	require.NotNil(t, root)
	require.Equal(t, svs[(int(h)+3)%4].PublicKey().ScriptHash(), root.Sender)
}

func TestVotesResent(t *testing.T) {
	c, svs := stateroottest.FourValidators(t)
	drop := true
	c.Filter = func(_, _ int, _ *payload.Extensible) bool { return !drop }
	h := c.AddBlock()
	c.Deliver()
	require.Equal(t, 4, len(c.Sent))
	drop = false
	// Before the first resend delay nothing happens.
	c.Tick(stateroot.FirstVoteResendDelay - time.Millisecond)
	c.Deliver()
	require.Equal(t, 4, len(c.Sent))
	c.Tick(time.Millisecond)
	c.Deliver()
	requireValidated(t, c, svs, h, 0, 1, 2, 3, 4)
}

func TestEarlyVotesAndRoots(t *testing.T) {
	// Votes and the root reach a node before it processes the block.
	c, svs := stateroottest.FourValidators(t)
	b := c.Nodes[0].Gen.NextBlock()
	for _, n := range c.Nodes {
		require.NoError(t, n.Gen.BC.AddBlock(b))
	}
	for i := range 4 {
		if i != 2 {
			c.Nodes[i].Svc.OnBlock(b.Index)
		}
	}
	c.Nodes[4].Down = true
	c.Deliver()
	// stateroottest.Node 2 has the others' votes waiting; the root's sender (index 1 mod
	// 4 = 1) had only 3 votes including its own: enough.
	requireValidated(t, c, svs, b.Index, 0, 1, 3)
	c.Nodes[4].Down = false
	c.Nodes[2].Svc.OnBlock(b.Index)
	c.Nodes[4].Svc.OnBlock(b.Index)
	c.Deliver()
	requireValidated(t, c, svs, b.Index, 2)
	// The observer missed the root: a later one still validates the later
	// height.
	h := c.AddBlock()
	c.Deliver()
	requireValidated(t, c, svs, h, 0, 1, 2, 3, 4)
}

func TestStartShutdown(t *testing.T) {
	svs := stateroottest.SVKeys(t, 4)
	c := stateroottest.NewCluster(t, svs, [][]*keys.PrivateKey{{svs[0], svs[1], svs[2], svs[3]}})
	// One node holding all four keys signs with the first designated one
	// only, so it never gathers three votes by itself.
	svc := c.Nodes[0].Svc
	svc.Start()
	svc.Start()
	c.Nodes[0].Gen.AddBlock()
	require.Eventually(t, func() bool { return svc.Stats().VotesSent > 0 }, 5*time.Second, 5*time.Millisecond)
	svc.Shutdown()
	svc.Shutdown()
	require.True(t, svc.IsAuthorized())
	require.Equal(t, "stateroot", svc.Name())
}

func TestNoVotesWhileCatchingUp(t *testing.T) {
	c, _ := stateroottest.FourValidators(t)
	// stateroottest.Node 0 knows headers 10 blocks ahead of the block it processes.
	var bs []*block.Block
	for range 12 {
		b := c.Nodes[1].Gen.NextBlock()
		require.NoError(t, c.Nodes[1].Gen.BC.AddBlock(b))
		bs = append(bs, b)
	}
	require.NoError(t, c.Nodes[0].Gen.BC.AddBlock(bs[0]))
	require.NoError(t, c.Nodes[0].Gen.BC.AddBlock(bs[1]))
	led := &headLedger{Ledger: c.Nodes[0].Led, hh: 12}
	svc, err := stateroot.New(stateroot.Config{Magic: testchain.Magic, Keys: c.Nodes[0].Svc.Config().Keys}, led, func(*payload.Extensible) {
		t.Fatal("vote sent while catching up")
	})
	require.NoError(t, err)
	svc.OnBlock(1)
	svc.Tick(time.Now().Add(time.Hour))
	led.hh = 2
	sent := 0
	svc2, err := stateroot.New(stateroot.Config{Magic: testchain.Magic, Keys: c.Nodes[0].Svc.Config().Keys}, led, func(*payload.Extensible) { sent++ })
	require.NoError(t, err)
	svc2.OnBlock(2)
	require.Equal(t, 1, sent)
}

type headLedger struct {
	stateroot.Ledger
	hh uint32
}

func (l *headLedger) HeaderHeight() uint32 { return l.hh }
