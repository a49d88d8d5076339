// Package extpool keeps the verified extensible payloads (consensus
// messages, state roots, ...) a node has seen, so it can answer getdata
// for them and not process one twice.
//
// # Invariants
//
// A payload is in the pool only if, when it was added, the chain height h
// satisfied ValidBlockStart <= h < ValidBlockEnd and Ledger.VerifyExtensible
// accepted it (sender allowed, witness valid). Each sender holds at most
// the pool's per-sender capacity; adding beyond it evicts that sender's
// oldest payload. RemoveStale, called after every block, drops expired
// payloads and re-verifies the rest (the allowed senders may change).
//
// All methods are safe for concurrent use. Payloads are shared, not copied:
// callers must not modify them.
package extpool

import (
	"container/list"
	"errors"
	"fmt"
	"sync"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/payload"
)

// Ledger is what the pool needs of the chain.
type Ledger interface {
	BlockHeight() uint32
	// VerifyExtensible checks that the sender may send extensible
	// payloads and that the witness is valid (with C#'s 0.06 GAS limit).
	VerifyExtensible(e *payload.Extensible) error
}

// ErrInvalidHeight is returned for a payload that is not valid at the
// current height (and not just expired at it).
var ErrInvalidHeight = errors.New("extensible payload is not valid at the current height")

// DefaultSenderCapacity is the per-sender capacity used when none is given
// (neo-go defaultExtensiblePoolSize).
const DefaultSenderCapacity = 20

// Pool is the extensible payload pool.
type Pool struct {
	ledger    Ledger
	senderCap int

	mu       sync.RWMutex
	verified map[hash.Uint256]*list.Element
	senders  map[hash.Uint160]*list.List
}

// New returns a pool holding at most senderCap payloads per sender
// (DefaultSenderCapacity if <= 0).
func New(l Ledger, senderCap int) *Pool {
	if senderCap <= 0 {
		senderCap = DefaultSenderCapacity
	}
	return &Pool{
		ledger:    l,
		senderCap: senderCap,
		verified:  make(map[hash.Uint256]*list.Element),
		senders:   make(map[hash.Uint160]*list.List),
	}
}

// Add verifies e and adds it. It reports whether e was new and valid;
// an error means e is invalid. A payload whose ValidBlockEnd equals the
// height (one block late) is ignored without an error, as neo-go does, so
// a peer that is one block behind is not punished.
func (p *Pool) Add(e *payload.Extensible) (bool, error) {
	h := e.Hash()
	p.mu.RLock()
	_, known := p.verified[h]
	p.mu.RUnlock()
	if known {
		return false, nil
	}
	height := p.ledger.BlockHeight()
	if height < e.ValidBlockStart || e.ValidBlockEnd <= height {
		if e.ValidBlockEnd == height {
			return false, nil
		}
		return false, fmt.Errorf("%w: %d not in [%d, %d)", ErrInvalidHeight, height, e.ValidBlockStart, e.ValidBlockEnd)
	}
	if err := p.ledger.VerifyExtensible(e); err != nil {
		return false, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.verified[h]; ok {
		return false, nil
	}
	lst := p.senders[e.Sender]
	if lst == nil {
		lst = list.New()
		p.senders[e.Sender] = lst
	} else if lst.Len() >= p.senderCap {
		old := lst.Remove(lst.Front()).(*payload.Extensible)
		delete(p.verified, old.Hash())
	}
	p.verified[h] = lst.PushBack(e)
	return true, nil
}

// Get returns the payload with hash h, or nil.
func (p *Pool) Get(h hash.Uint256) *payload.Extensible {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if el, ok := p.verified[h]; ok {
		return el.Value.(*payload.Extensible)
	}
	return nil
}

// Len returns the number of payloads.
func (p *Pool) Len() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.verified)
}

// Category returns the hashes of the payloads of a category, oldest of
// each sender first.
func (p *Pool) Category(category string) []hash.Uint256 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	var out []hash.Uint256
	for _, lst := range p.senders {
		for el := lst.Front(); el != nil; el = el.Next() {
			if e := el.Value.(*payload.Extensible); e.Category == category {
				out = append(out, e.Hash())
			}
		}
	}
	return out
}

// RemoveStale drops payloads that expire at height index and those that
// no longer verify.
func (p *Pool) RemoveStale(index uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for s, lst := range p.senders {
		for el := lst.Front(); el != nil; {
			next := el.Next()
			e := el.Value.(*payload.Extensible)
			if e.ValidBlockEnd <= index || p.ledger.VerifyExtensible(e) != nil {
				delete(p.verified, e.Hash())
				lst.Remove(el)
			}
			el = next
		}
		if lst.Len() == 0 {
			delete(p.senders, s)
		}
	}
}
