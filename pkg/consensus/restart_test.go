package consensus

import (
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/consensus/message"
)

// TestRestartedValidatorKeepsItsViewChange: a validator that voted to
// leave view 0 and then restarts must not commit in view 0 because the
// first recovery message it gets comes from a validator committed there
// (sim finding 5). 7 validators: 0 and 3 commit in view 0, the others
// move to view 1; validator 6 restarts; 0 answers its RecoveryRequest
// first. Without the Service's listening after a restart, 6 commits in
// view 0 and no view can gather M = 5 Commits again.
func TestRestartedValidatorKeepsItsViewChange(t *testing.T) {
	c := newCluster(t, 7, testConfig(7))
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 1 })
	if p := message.PrimaryIndex(2, 0, 7); p != 2 {
		t.Fatalf("primary of block 2 is %d", p)
	}
	locked := func(i int) bool { return i == 0 || i == 3 }
	// Only 0 and 3 see the preparations; nobody sees a Commit or a
	// recovery message (which would carry them).
	c.drop = func(_, to int, m *message.Message) bool {
		switch m.Type() {
		case message.PrepareResponseType:
			return !locked(to)
		case message.CommitType, message.RecoveryMessageType:
			return true
		}
		return false
	}
	c.runUntil(time.Hour, func() bool {
		for _, nd := range c.nodes {
			if locked(nd.i) && !nd.s.dbft.CommitSent() || !locked(nd.i) && nd.s.dbft.ViewNumber < 1 {
				return false
			}
		}
		return true
	})
	const x = 6
	c.stop(x)
	c.drop = nil
	for c.step() {
	}
	c.restart(x, 1)
	c.runUntil(time.Hour, func() bool { return c.height() >= 2 || c.nodes[x].s.dbft.CommitSent() })
	if v := c.nodes[x].s.dbft.ViewNumber; v != 1 {
		t.Fatalf("the restarted validator is in view %d, want 1", v)
	}
	c.runUntil(time.Minute, func() bool { return c.height() >= 2 })
	checkChain(t, c, sameChains(t, c))
}
