package multinode

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// recipient is the account the tests send GAS to.
var recipient = hash.Uint160{0x6d, 0x75, 0x6c, 0x74, 0x69} // "multi"

// sendAndWait sends a committee transfer to node `to` and waits until it
// is in the same block with the same application log on every node of
// `on`; it returns the block index.
func sendAndWait(ctx context.Context, t *testing.T, c *Committee, to *Node, on []*Node) uint32 {
	t.Helper()
	h, err := to.Height(ctx)
	require.NoError(t, err)
	tx := c.GASTransfer(h, recipient, 1_0000_0000)
	txh, err := Send(ctx, to, tx)
	require.NoError(t, err)
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	idx, log, err := WaitTransaction(wctx, txh, on...)
	require.NoError(t, err)
	require.Contains(t, string(log), `"vmstate":"HALT"`, "application log %s", log)
	return idx
}

// waitAgree waits until the nodes share a height of at least `h` and
// compares their chains from 0 to there.
func waitAgree(ctx context.Context, t *testing.T, h uint32, nodes ...*Node) uint32 {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	require.NoError(t, WaitHeight(wctx, h, nodes...))
	require.NoError(t, CompareChains(ctx, 0, h, nodes...))
	return h
}

// viewChanges counts the blocks in from..to made after a view change
// (their primary is not the view-0 primary) and lists who proposed each.
func viewChanges(ctx context.Context, t *testing.T, n *Node, from, to uint32) (int, map[int]int) {
	t.Helper()
	changes, proposers := 0, make(map[int]int)
	for i := from; i <= to; i++ {
		hdr, err := n.Header(ctx, i)
		require.NoError(t, err)
		v := ValidatorAt(hdr.Primary)
		proposers[v]++
		if v != PrimaryAt(i) {
			changes++
		}
	}
	return changes, proposers
}

// TestN3NodeNetwork: four n3node validators produce blocks; with the
// next primary killed the other three go on (through view changes);
// the killed node restarts on its database and catches up with the same
// hashes and state roots; a transaction sent to any node, including the
// restarted one, lands in the same block on all.
func TestN3NodeNetwork(t *testing.T) {
	needMultinode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st := newStepper(t)
	nw := NewTestNetwork(t, Options{Nodes: ValidatorSpecs(N3Node, N3Node, N3Node, N3Node)})
	require.NoError(t, nw.Start(ctx))
	st.log("4 n3node validators up")
	all := nw.Nodes
	h := waitAgree(ctx, t, 3, all...)
	st.log("height %d on all, chains equal", h)

	c, err := NewCommittee()
	require.NoError(t, err)
	for i, n := range all {
		idx := sendAndWait(ctx, t, c, n, all)
		st.log("transaction sent to %s in block %d on all (%d)", n.Name, idx, i)
	}

	// Kill the validator that proposes the next block.
	h, err = all[0].Height(ctx)
	require.NoError(t, err)
	victim := all[PrimaryAt(h+1)-1]
	require.NoError(t, victim.Kill())
	st.log("killed %s (primary of block %d) at height %d", victim.Name, h+1, h)
	var rest []*Node
	for _, n := range all {
		if n != victim {
			rest = append(rest, n)
		}
	}
	// Eight blocks give the dead validator two turns as view-0 primary.
	wctx, cancel2 := context.WithTimeout(ctx, 90*time.Second)
	top, err := WaitBlocks(wctx, 8, rest...)
	cancel2()
	require.NoError(t, err)
	changes, proposers := viewChanges(ctx, t, rest[0], h+1, top)
	st.log("three validators made blocks %d..%d: %d after a view change, proposers %v", h+1, top, changes, proposers)
	require.Positive(t, changes, "no view change although the primary was dead")
	require.Zero(t, proposers[victim.Spec.Validator], "the dead validator proposed a block")
	idx := sendAndWait(ctx, t, c, rest[1], rest)
	st.log("transaction to %s in block %d on the three", rest[1].Name, idx)

	// Restart: the node opens its database and catches up.
	require.NoError(t, victim.Start(ctx))
	vh, err := victim.Height(ctx)
	require.NoError(t, err)
	st.log("%s restarted at height %d", victim.Name, vh)
	top, err = rest[0].Height(ctx)
	require.NoError(t, err)
	waitAgree(ctx, t, top+2, all...)
	st.log("%s caught up: chains equal to height %d", victim.Name, top+2)
	idx = sendAndWait(ctx, t, c, victim, all)
	st.log("transaction to the restarted %s in block %d on all", victim.Name, idx)
	// It takes part in consensus again: a block it proposes.
	wctx, cancel3 := context.WithTimeout(ctx, 60*time.Second)
	defer cancel3()
	for {
		top, err = victim.Height(ctx)
		require.NoError(t, err)
		hdr, err := victim.Header(ctx, top)
		require.NoError(t, err)
		if ValidatorAt(hdr.Primary) == victim.Spec.Validator {
			st.log("block %d proposed by the restarted %s", top, victim.Name)
			break
		}
		select {
		case <-wctx.Done():
			t.Fatalf("the restarted %s proposed no block", victim.Name)
		case <-time.After(pollInterval):
		}
	}

	// A clean shutdown of all (exit code 0 checked).
	require.NoError(t, nw.Stop())
	st.log("stopped cleanly: %s", fmt.Sprint(nw.Running()))
}
