package core

import (
	"errors"
	"fmt"
	"sync"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/storage"
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

	// trusted is the configured TrustedHeader while it is pending: the
	// chain holds only the genesis block and no header at trusted.Index.
	// Until that header comes, the chain reports height trusted.Index-1
	// (so that header sync asks for it next), has no hashes between
	// genesis and it, and takes it as the next header unverified, once
	// its hash is the configured one. Zero Index: none pending.
	trusted config.HashIndex
}

// errBelowTrusted refuses a header between genesis and a pending trusted
// header: that part of the chain is not synchronized.
var errBelowTrusted = errors.New("below the trusted header")

// init loads the header chain of a stored chain: top is the current header.
func (hc *headerChain) init(d *dao.Simple, top *block.Header) error {
	hc.d = d
	hc.top = top
	n := min(uint32(headerTailKeep), top.Index+1)
	hc.base = top.Index + 1 - n
	hc.tail = make([]hash.Uint256, n, 2*headerTailKeep)
	for i := range n {
		h, err := d.GetHeaderHash(hc.base + i)
		switch {
		case errors.Is(err, storage.ErrKeyNotFound):
			// Below a trusted header, or removed with its untraceable
			// block: unknown, as hash() reports it.
		case err != nil:
			return err
		default:
			hc.tail[i] = h
		}
	}
	return nil
}

// setTrusted makes t the pending trusted header of a chain whose block
// height is blockHeight (ApplicationConfiguration.TrustedHeader): it is
// pending while the chain has only the genesis block and its header chain
// has not reached t.Index. A chain that has blocks and still headers
// below t cannot start from it.
func (hc *headerChain) setTrusted(t config.HashIndex, blockHeight uint32) error {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if t.Index == 0 || hc.top.Index >= t.Index {
		return nil
	}
	if blockHeight != 0 {
		return fmt.Errorf("trusted header %d is above the header height %d of a chain at block %d; remove TrustedHeader or drop the database",
			t.Index, hc.top.Index, blockHeight)
	}
	hc.trusted = t
	return nil
}

// pendingTrusted returns the trusted header the chain waits for, if any.
func (hc *headerChain) pendingTrusted() (config.HashIndex, bool) {
	hc.mu.RLock()
	defer hc.mu.RUnlock()
	return hc.trusted, hc.trusted.Index != 0
}

// height returns the index of the latest header.
func (hc *headerChain) height() uint32 {
	hc.mu.RLock()
	defer hc.mu.RUnlock()
	if hc.trusted.Index != 0 {
		return hc.trusted.Index - 1
	}
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
	jump := false
	switch {
	case hc.trusted.Index != 0 && h.Index == hc.trusted.Index:
		jump = true
	case hc.trusted.Index != 0 && h.Index < hc.trusted.Index:
		return fmt.Errorf("header %d: %w %d", h.Index, errBelowTrusted, hc.trusted.Index)
	case hc.top != nil && h.Index != hc.top.Index+1:
		return errHeaderKnown
	}
	if err := hc.d.StoreAsBlock(&block.Block{Header: *h}); err != nil {
		return err
	}
	hc.d.PutHeaderHash(h.Index, h.Hash())
	hc.d.PutCurrentHeader(h.Hash(), h.Index)
	if jump {
		hc.tail, hc.base, hc.trusted = hc.tail[:0], h.Index, config.HashIndex{}
	}
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
	if t, ok := bc.headers.pendingTrusted(); ok && hs[0].Index == t.Index {
		// The trusted header has no predecessor here: it is taken by its
		// configured hash, unverified, and the rest are verified from it.
		if hs[0].Hash() != t.Hash {
			return fmt.Errorf("%w at %d: expected %s, got %s",
				ErrTrustedHeader, t.Index, t.Hash.StringLE(), hs[0].Hash().StringLE())
		}
		if err := bc.headers.add(hs[0]); err != nil && !errors.Is(err, errHeaderKnown) {
			return fmt.Errorf("header %d: %w", hs[0].Index, err)
		}
		hs = hs[1:]
		if len(hs) == 0 {
			return nil
		}
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
