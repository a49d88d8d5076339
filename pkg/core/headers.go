package core

import (
	"errors"
	"sync"

	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// headerTailKeep is how many recent header hashes stay in memory; older
// ones are read from the store.
const headerTailKeep = 4096

var errHeaderKnown = errors.New("header already known")

// headerChain is the chain of known headers: their hashes and the latest
// header. Headers are written to the committed layer when they are added
// (record, hash-by-index entry and current-header marker), independently
// of their blocks; a block's own record later replaces the header-only one.
type headerChain struct {
	d *dao.Simple

	mu   sync.RWMutex
	base uint32         // index of tail[0]
	tail []hash.Uint256 // hashes of base .. height
	top  *block.Header
}

// init loads the header chain of a stored chain: top is the current header.
func (hc *headerChain) init(d *dao.Simple, top *block.Header) error {
	hc.d = d
	hc.top = top
	n := min(uint32(headerTailKeep), top.Index+1)
	hc.base = top.Index + 1 - n
	hc.tail = make([]hash.Uint256, n, 2*headerTailKeep)
	for i := range n {
		h, err := d.GetHeaderHash(hc.base + i)
		if err != nil {
			return err
		}
		hc.tail[i] = h
	}
	return nil
}

// height returns the index of the latest header.
func (hc *headerChain) height() uint32 {
	hc.mu.RLock()
	defer hc.mu.RUnlock()
	return hc.top.Index
}

// topHeader returns the latest header.
func (hc *headerChain) topHeader() *block.Header {
	hc.mu.RLock()
	defer hc.mu.RUnlock()
	return hc.top
}

// hash returns the hash of the header at index (zero if unknown).
func (hc *headerChain) hash(index uint32) hash.Uint256 {
	hc.mu.RLock()
	if index >= hc.base && index <= hc.top.Index {
		h := hc.tail[index-hc.base]
		hc.mu.RUnlock()
		return h
	}
	top := hc.top.Index
	hc.mu.RUnlock()
	if index > top {
		return hash.Uint256{}
	}
	h, err := hc.d.GetHeaderHash(index)
	if err != nil {
		return hash.Uint256{}
	}
	return h
}

// add appends h (whose index is height+1, already verified) and stores it:
// a header-only block record (replaced by the block's own record when the
// block is committed), the hash-by-index entry and the current-header
// marker, so that a stored current header always has its record.
// It returns errHeaderKnown if the chain already has a header at that
// index (added concurrently).
func (hc *headerChain) add(h *block.Header) error {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if hc.top != nil && h.Index != hc.top.Index+1 {
		return errHeaderKnown
	}
	if err := hc.d.StoreAsBlock(&block.Block{Header: *h}); err != nil {
		return err
	}
	hc.d.PutHeaderHash(h.Index, h.Hash())
	hc.d.PutCurrentHeader(h.Hash(), h.Index)
	hc.tail = append(hc.tail, h.Hash())
	hc.top = h
	if len(hc.tail) >= 2*headerTailKeep {
		drop := len(hc.tail) - headerTailKeep
		hc.tail = append(hc.tail[:0], hc.tail[drop:]...)
		hc.base += uint32(drop)
	}
	return nil
}

// AddHeaders verifies headers that continue the known header chain
// (sorted by index; headers at or below HeaderHeight are skipped) against
// the committed state and stores them, so that HeaderHeight runs ahead of
// BlockHeight during synchronization. With SkipBlockVerification they are
// only linked, not verified.
func (bc *Blockchain) AddHeaders(hs ...*block.Header) error {
	if bc.closed.Load() {
		return ErrClosed
	}
	for len(hs) > 0 && hs[0].Index <= bc.headers.height() {
		hs = hs[1:]
	}
	if len(hs) == 0 {
		return nil
	}
	prev, err := bc.GetHeader(hs[0].PrevHash)
	if err != nil {
		return fmt.Errorf("%w: header %d (previous %s): %w", ErrUnknownHeader, hs[0].Index, hs[0].PrevHash.StringLE(), err)
	}
	verify := !bc.cfg.SkipBlockVerification
	for _, h := range hs {
		if verify {
			bc.commitMu.RLock()
			err := bc.verifyHeader(bc.committedView(), h, prev, nil)
			bc.commitMu.RUnlock()
			if err != nil {
				return fmt.Errorf("header %d: %w", h.Index, err)
			}
		} else if h.PrevHash != prev.Hash() || h.Index != prev.Index+1 {
			return fmt.Errorf("header %d: %w", h.Index, ErrHdrHashMismatch)
		}
		if err := bc.headers.add(h); err != nil {
			if errors.Is(err, errHeaderKnown) && bc.headers.hash(h.Index) == h.Hash() {
				prev = h
				continue
			}
			return fmt.Errorf("header %d: %w", h.Index, err)
		}
		prev = h
	}
	return nil
}
