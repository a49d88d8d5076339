package extpool_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/extpool"
	"github.com/n3node/n3node/pkg/network/payload"
)

type ledger struct {
	mu      sync.Mutex
	height  uint32
	banned  map[hash.Uint160]bool
	verifed int
}

func (l *ledger) BlockHeight() uint32 { l.mu.Lock(); defer l.mu.Unlock(); return l.height }

func (l *ledger) VerifyExtensible(e *payload.Extensible) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.verifed++
	if l.banned[e.Sender] {
		return errors.New("sender not allowed")
	}
	return nil
}

func ext(sender byte, start, end uint32, data byte) *payload.Extensible {
	return &payload.Extensible{Category: payload.ConsensusCategory, ValidBlockStart: start, ValidBlockEnd: end,
		Sender: hash.Uint160{sender}, Data: []byte{data}}
}

func TestAdd(t *testing.T) {
	l := &ledger{height: 10, banned: map[hash.Uint160]bool{{9}: true}}
	p := extpool.New(l, 2)
	e := ext(1, 0, 11, 1)
	if ok, err := p.Add(e); !ok || err != nil {
		t.Fatalf("add: %v %v", ok, err)
	}
	if ok, err := p.Add(ext(1, 0, 11, 1)); ok || err != nil {
		t.Fatalf("duplicate: %v %v", ok, err)
	}
	if p.Get(e.Hash()) != e {
		t.Fatal("Get")
	}
	// One block late: ignored without error.
	if ok, err := p.Add(ext(1, 0, 10, 2)); ok || err != nil {
		t.Fatalf("late: %v %v", ok, err)
	}
	if _, err := p.Add(ext(1, 11, 20, 3)); !errors.Is(err, extpool.ErrInvalidHeight) {
		t.Fatalf("future: %v", err)
	}
	if _, err := p.Add(ext(1, 0, 5, 3)); !errors.Is(err, extpool.ErrInvalidHeight) {
		t.Fatalf("expired: %v", err)
	}
	if _, err := p.Add(ext(9, 0, 11, 3)); err == nil {
		t.Fatal("banned sender accepted")
	}
	// Per-sender capacity evicts the oldest.
	p.Add(ext(1, 0, 12, 4))
	p.Add(ext(1, 0, 13, 5))
	if p.Get(e.Hash()) != nil || p.Len() != 2 {
		t.Fatalf("capacity: len %d", p.Len())
	}
	p.Add(ext(2, 0, 11, 6))
	if n := len(p.Category(payload.ConsensusCategory)); n != 3 {
		t.Fatalf("category: %d", n)
	}
	if n := len(p.Category("StateService")); n != 0 {
		t.Fatalf("other category: %d", n)
	}
}

func TestRemoveStale(t *testing.T) {
	l := &ledger{height: 10, banned: map[hash.Uint160]bool{}}
	p := extpool.New(l, 5)
	p.Add(ext(1, 0, 11, 1))
	p.Add(ext(1, 0, 15, 2))
	p.Add(ext(2, 0, 15, 3))
	p.RemoveStale(11)
	if p.Len() != 2 {
		t.Fatalf("len %d", p.Len())
	}
	l.mu.Lock()
	l.banned[hash.Uint160{2}] = true
	l.mu.Unlock()
	p.RemoveStale(12)
	if p.Len() != 1 {
		t.Fatalf("len %d after the sender lost its right", p.Len())
	}
}
