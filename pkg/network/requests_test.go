package network

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

func reqHashes(from, n int) []hash.Uint256 {
	out := make([]hash.Uint256, n)
	for i := range out {
		binary.LittleEndian.PutUint64(out[i][:], uint64(from+i+1))
	}
	return out
}

// TestRequestsPerPeerBound: a peer that announces unknown items and never
// delivers them is asked for at most maxPeerRequests; beyond that its
// inventories are dropped without a lookup, other peers are still served,
// and answers, expiry and disconnection give the allowance back.
func TestRequestsPerPeerBound(t *testing.T) {
	r := newRequests()
	rogue, honest := &Peer{done: make(chan struct{})}, &Peer{done: make(chan struct{})}
	now := time.Unix(1_700_000_000, 0)
	lookups := 0
	unknown := func(hash.Uint256) bool { lookups++; return false }

	const inv = 500 // MaxHashesCount of an inventory
	next := 0
	for range maxPeerRequests/inv + 1 {
		r.claim(rogue, reqHashes(next, inv), now, unknown)
		next += inv
	}
	if got := r.pending(rogue); got != maxPeerRequests {
		t.Fatalf("pending with the rogue: %d, want %d", got, maxPeerRequests)
	}
	lookups = 0
	if got := r.claim(rogue, reqHashes(next, inv), now, unknown); got != nil || lookups != 0 {
		t.Fatalf("a peer at its bound: %d hashes claimed, %d lookups", len(got), lookups)
	}
	next += inv

	// Another peer is served, including hashes the rogue was asked for
	// once it is gone.
	if got := r.claim(honest, reqHashes(next, inv), now, unknown); len(got) != inv {
		t.Fatalf("honest peer: %d of %d claimed", len(got), inv)
	}
	for _, h := range reqHashes(next, 100) {
		r.done(h)
	}
	if got := r.pending(honest); got != inv-100 {
		t.Fatalf("after 100 answers: %d pending with the honest peer", got)
	}
	if got := r.claim(honest, reqHashes(0, 10), now, unknown); len(got) != 0 {
		t.Fatalf("hashes on their way from the rogue claimed again: %d", len(got))
	}

	// Answers for the rogue's requests (from anyone) free its allowance.
	for _, h := range reqHashes(0, 10) {
		r.done(h)
	}
	if got := r.claim(rogue, reqHashes(next+inv, 20), now, unknown); len(got) != 10 {
		t.Fatalf("after 10 answers: %d claimed, want 10", len(got))
	}

	// Expiry frees everything requested before requestTTL.
	r.expire(now.Add(requestTTL))
	if a, b := r.pending(rogue), r.pending(honest); a != 0 || b != 0 || len(r.m) != 0 || len(r.perPeer) != 0 {
		t.Fatalf("after expiry: rogue %d, honest %d, tracker %d, peers %d", a, b, len(r.m), len(r.perPeer))
	}

	// A gone peer's requests go to the next peer that announces them.
	r.claim(rogue, reqHashes(0, 50), now, unknown)
	close(rogue.done)
	if got := r.claim(honest, reqHashes(0, 50), now, unknown); len(got) != 50 {
		t.Fatalf("requests of a gone peer: %d of 50 claimed by another", len(got))
	}
	if got := r.pending(rogue); got != 0 {
		t.Fatalf("gone rogue still counts %d", got)
	}
	r.peerGone(honest)
	if len(r.m) != 0 || len(r.perPeer) != 0 {
		t.Fatalf("after peerGone: tracker %d, peers %d", len(r.m), len(r.perPeer))
	}
}
