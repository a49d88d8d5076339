package consensus

import (
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/consensus/message"
)

// TestRecoveryRepliesBounded: a validator that floods RecoveryRequests, or
// ChangeViews at a node that has committed, gets one recovery message per
// replyInterval, not one per payload (sim finding 4, seed 180).
func TestRecoveryRepliesBounded(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	// Commits never arrive: validators commit and stay locked in view 0.
	c.drop = func(_, _ int, m *message.Message) bool { return m.Type() == message.CommitType }
	c.start()
	c.runUntil(time.Minute, func() bool {
		for _, nd := range c.nodes {
			if !nd.s.dbft.CommitSent() {
				return false
			}
		}
		return true
	})
	for c.step() {
	}
	flooder := 0
	nd := c.nodes[1] // answers requests of validator 0 (in its f+1 range)
	key := c.keys[flooder]
	ts := uint64(c.clock.Now().UnixMilli())
	flood := func(n int) int {
		before := c.sent[message.RecoveryMessageType]
		for i := range n {
			ts++
			var body message.Body = &message.RecoveryRequest{Timestamp: ts}
			if i%2 == 1 {
				body = &message.ChangeView{Timestamp: ts, Reason: message.CVTimeout}
			}
			m := &message.Message{BlockIndex: nd.s.dbft.BlockIndex, ValidatorIndex: uint8(flooder), Body: body}
			if err := c.receive(nd, signedPayload(m, key.ScriptHash(), key)); err != nil {
				t.Fatal(err)
			}
		}
		return c.sent[message.RecoveryMessageType] - before
	}
	if got := flood(20); got != 1 {
		t.Fatalf("20 requests of one validator: %d recovery messages, want 1", got)
	}
	c.clock.AdvanceTo(c.clock.Now().Add(nd.s.replyInterval()))
	if got := flood(20); got != 1 {
		t.Fatalf("20 more after replyInterval: %d recovery messages, want 1", got)
	}
	// Another validator is answered at once.
	flooder, key = 3, c.keys[3]
	if got := flood(1); got != 1 {
		t.Fatalf("a request of another validator: %d recovery messages, want 1", got)
	}
	// A new round answers again.
	nd.s.resetReplies()
	flooder, key = 0, c.keys[0]
	if got := flood(1); got != 1 {
		t.Fatalf("after a new block: %d recovery messages, want 1", got)
	}
}
