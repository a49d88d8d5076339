package chaos

import (
	"context"
	"fmt"
	"sync"

	"github.com/n3node/n3node/internal/multinode"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// maxCheckPerPoll bounds the heights one poll verifies on one node, so
// that a node that synced many blocks is checked over several polls.
const maxCheckPerPoll = 200

// blockRef is what the first node to report a height had there.
type blockRef struct {
	hash, root hash.Uint256
	node       string
}

// checker verifies, while the run goes on, that every node has the same
// block hash and the same state root (getstateroot) at every height it
// has: the first node to report a height sets the reference, every other
// node must match it.
type checker struct {
	mu         sync.Mutex
	ref        map[uint32]blockRef
	next       map[*multinode.Node]uint32 // first height not yet checked
	checks     int                        // (node, height) pairs checked
	violations []string
}

func newChecker() *checker {
	return &checker{ref: make(map[uint32]blockRef), next: make(map[*multinode.Node]uint32)}
}

// poll checks the heights the running nodes reached since the last poll.
// RPC errors (a node going down) leave the node for the next poll; a
// node whose height went down (a kill lost unsynced blocks) is checked
// again from there.
func (c *checker) poll(ctx context.Context, nodes []*multinode.Node) {
	for _, n := range nodes {
		if !n.Running() {
			continue
		}
		h, err := n.Height(ctx)
		if err != nil {
			continue
		}
		c.mu.Lock()
		from := c.next[n]
		c.mu.Unlock()
		if from > h+1 {
			from = h + 1
		}
		for i := from; i <= h && i < from+maxCheckPerPoll; i++ {
			bh, err := n.BlockHash(ctx, i)
			if err != nil {
				break
			}
			root, err := n.StateRoot(ctx, i)
			if err != nil {
				break
			}
			c.mu.Lock()
			c.checks++
			r, ok := c.ref[i]
			switch {
			case !ok:
				c.ref[i] = blockRef{hash: bh, root: root, node: n.Name}
			case r.hash != bh:
				c.violations = append(c.violations, fmt.Sprintf("fork at height %d: %s has block %s, %s has %s",
					i, r.node, r.hash.StringLE(), n.Name, bh.StringLE()))
			case r.root != root:
				c.violations = append(c.violations, fmt.Sprintf("state root at height %d: %s has %s, %s has %s",
					i, r.node, r.root.StringLE(), n.Name, root.StringLE()))
			}
			c.next[n] = i + 1
			c.mu.Unlock()
		}
	}
}

// result returns the number of checks and the violations so far.
func (c *checker) result() (int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.checks, append([]string(nil), c.violations...)
}
