package multinode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// pollInterval is how often the waits ask the nodes.
const pollInterval = 200 * time.Millisecond

// Height returns the node's chain height (block count - 1).
func (n *Node) Height(ctx context.Context) (uint32, error) {
	c, err := n.RPC.GetBlockCount(ctx)
	if err != nil {
		return 0, err
	}
	if c == 0 {
		return 0, fmt.Errorf("multinode: %s reports no blocks", n.Name)
	}
	return c - 1, nil
}

// BlockHash returns the hash of the block at index i.
func (n *Node) BlockHash(ctx context.Context, i uint32) (hash.Uint256, error) {
	return n.RPC.GetBlockHash(ctx, i)
}

// StateRoot returns the state root after the block at index i
// (getstateroot i).
func (n *Node) StateRoot(ctx context.Context, i uint32) (hash.Uint256, error) {
	var r struct {
		Index    uint32       `json:"index"`
		RootHash hash.Uint256 `json:"roothash"`
	}
	if err := n.RPC.Call(ctx, "getstateroot", []any{i}, &r); err != nil {
		return hash.Uint256{}, err
	}
	if r.Index != i {
		return hash.Uint256{}, fmt.Errorf("multinode: %s: getstateroot %d answered index %d", n.Name, i, r.Index)
	}
	return r.RootHash, nil
}

// Header is what the harness reads of a block header.
type Header struct {
	Hash          hash.Uint256 `json:"hash"`
	Index         uint32       `json:"index"`
	Time          uint64       `json:"time"`
	Primary       int          `json:"primary"`
	NextConsensus string       `json:"nextconsensus"`
	// PrevStateRoot is set on StateRootInHeader networks.
	PrevStateRoot *hash.Uint256 `json:"previousstateroot"`
}

// Header returns the header of the block at index i (verbose
// getblockheader).
func (n *Node) Header(ctx context.Context, i uint32) (Header, error) {
	var h Header
	err := n.RPC.Call(ctx, "getblockheader", []any{i, true}, &h)
	return h, err
}

// BlockTxCount returns the number of transactions of the block at i.
func (n *Node) BlockTxCount(ctx context.Context, i uint32) (int, error) {
	var b struct {
		Tx []json.RawMessage `json:"tx"`
	}
	err := n.RPC.Call(ctx, "getblock", []any{i, true}, &b)
	return len(b.Tx), err
}

// ApplicationLog returns the raw getapplicationlog answer of a
// transaction or block.
func (n *Node) ApplicationLog(ctx context.Context, h hash.Uint256) (json.RawMessage, error) {
	return n.RPC.CallRaw(ctx, "getapplicationlog", []any{h.String()})
}

// TransactionHeight returns the index of the block holding a transaction.
func (n *Node) TransactionHeight(ctx context.Context, h hash.Uint256) (uint32, error) {
	return n.RPC.GetTransactionHeight(ctx, h)
}

// Peer is one connected peer of getpeers.
type Peer struct {
	Address   string `json:"address"`
	Port      int    `json:"port"`
	UserAgent string `json:"useragent"`
	Height    uint32 `json:"lastknownheight"`
}

// Peers returns the node's connected peers.
func (n *Node) Peers(ctx context.Context) ([]Peer, error) {
	var r struct {
		Connected []Peer `json:"connected"`
	}
	err := n.RPC.Call(ctx, "getpeers", nil, &r)
	return r.Connected, err
}

// Heights returns every node's height (an error for a node that does not
// answer).
func Heights(ctx context.Context, nodes []*Node) ([]uint32, error) {
	hs := make([]uint32, len(nodes))
	for i, n := range nodes {
		h, err := n.Height(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Name, err)
		}
		hs[i] = h
	}
	return hs, nil
}

// WaitHeight waits until every node is at height h or above.
func WaitHeight(ctx context.Context, h uint32, nodes ...*Node) error {
	var last []uint32
	var lastErr error
	for {
		hs, err := Heights(ctx, nodes)
		if err == nil {
			last = hs
			if minOf(hs) >= h {
				return nil
			}
		} else {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("multinode: waiting for height %d: %w (heights %s, last error %v)", h, ctx.Err(), describeHeights(nodes, last), lastErr)
		case <-time.After(pollInterval):
		}
	}
}

// WaitBlocks waits until every node is count blocks above the lowest
// height the nodes have now, and returns that height.
func WaitBlocks(ctx context.Context, count uint32, nodes ...*Node) (uint32, error) {
	hs, err := Heights(ctx, nodes)
	if err != nil {
		return 0, err
	}
	target := minOf(hs) + count
	return target, WaitHeight(ctx, target, nodes...)
}

func minOf(hs []uint32) uint32 {
	m := hs[0]
	for _, h := range hs[1:] {
		m = min(m, h)
	}
	return m
}

func describeHeights(nodes []*Node, hs []uint32) string {
	if hs == nil {
		return "unknown"
	}
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = fmt.Sprintf("%s=%d", n.Name, hs[i])
	}
	return strings.Join(parts, " ")
}

// ErrMismatch is returned by CompareChains when two nodes disagree.
var ErrMismatch = errors.New("multinode: nodes disagree")

// CompareChains checks that every node has the same block hash and the
// same state root at every height from..to (inclusive); all nodes must
// have the blocks.
func CompareChains(ctx context.Context, from, to uint32, nodes ...*Node) error {
	if len(nodes) < 2 {
		return nil
	}
	for i := from; i <= to; i++ {
		var refHash, refRoot hash.Uint256
		for j, n := range nodes {
			h, err := n.BlockHash(ctx, i)
			if err != nil {
				return fmt.Errorf("multinode: %s: block hash %d: %w", n.Name, i, err)
			}
			r, err := n.StateRoot(ctx, i)
			if err != nil {
				return fmt.Errorf("multinode: %s: state root %d: %w", n.Name, i, err)
			}
			if j == 0 {
				refHash, refRoot = h, r
				continue
			}
			if h != refHash {
				return fmt.Errorf("%w: block %d: %s has %s, %s has %s", ErrMismatch, i, nodes[0].Name, refHash.StringLE(), n.Name, h.StringLE())
			}
			if r != refRoot {
				return fmt.Errorf("%w: state root %d: %s has %s, %s has %s", ErrMismatch, i, nodes[0].Name, refRoot.StringLE(), n.Name, r.StringLE())
			}
		}
	}
	return nil
}

// WaitTransaction waits until a transaction is in a block on every node
// and checks that all nodes put it in the same block with the same
// application log; it returns the block's index and the log.
func WaitTransaction(ctx context.Context, h hash.Uint256, nodes ...*Node) (uint32, json.RawMessage, error) {
	var (
		height uint32
		log    json.RawMessage
	)
	for j, n := range nodes {
		var (
			hh  uint32
			err error
		)
		for {
			hh, err = n.TransactionHeight(ctx, h)
			if err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return 0, nil, fmt.Errorf("multinode: %s: transaction %s not in a block: %w (%v)", n.Name, h.StringLE(), ctx.Err(), err)
			case <-time.After(pollInterval):
			}
		}
		l, err := n.ApplicationLog(ctx, h)
		if err != nil {
			return 0, nil, fmt.Errorf("multinode: %s: application log of %s: %w", n.Name, h.StringLE(), err)
		}
		if j == 0 {
			height, log = hh, l
			continue
		}
		if hh != height {
			return 0, nil, fmt.Errorf("%w: transaction %s in block %d on %s, %d on %s", ErrMismatch, h.StringLE(), height, nodes[0].Name, hh, n.Name)
		}
		if !bytes.Equal(l, log) {
			return 0, nil, fmt.Errorf("%w: application log of %s:\n%s: %s\n%s: %s", ErrMismatch, h.StringLE(), nodes[0].Name, log, n.Name, l)
		}
	}
	return height, log, nil
}
