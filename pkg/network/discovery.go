package network

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/network/capability"
)

// maxPoolSize bounds the addresses the discoverer keeps (neo-go
// maxPoolSize).
const maxPoolSize = 10000

// addrStatus is where an address stands.
type addrStatus uint8

const (
	addrPool       addrStatus = iota // a candidate, dialable from nextTry on
	addrConnecting                   // a dial is under way
	addrConnected                    // a live connection uses it
	addrGone                         // dials kept failing: never dialed again
	addrBanned                       // broke the protocol: never dialed again
	addrSelf                         // our own address: never dialed
)

type addrState struct {
	status   addrStatus
	seed     bool
	fails    int // dial failures in a row
	busy     int // connections the remote closed before the handshake, in a row
	nextTry  time.Time
	good     bool // handshaked at least once
	caps     capability.Capabilities
	lastSeen time.Time
}

// discovery keeps the address book: which addresses to dial, when, and
// which never to dial again. It makes decisions only; the server dials.
// Times come from the caller, so its logic is testable without waiting.
//
// A dial that fails counts against the address; after MaxDialAttempts
// failures in a row it is gone for good (seeds excepted: they are retried
// forever). Each failure doubles the wait before the next try. A remote
// that accepts and then closes before the handshake completes is busy
// (full, or briefly down): it is retried with backoff without counting
// towards gone. A peer that broke the protocol or was on another network
// is banned; our own address is never dialed.
type discovery struct {
	mu          sync.Mutex
	addrs       map[string]*addrState
	maxFails    int
	backoff     time.Duration
	maxBackoff  time.Duration
	connectingN int
}

func newDiscovery(seeds []string, maxFails int, backoff, maxBackoff time.Duration) *discovery {
	d := &discovery{addrs: make(map[string]*addrState), maxFails: maxFails, backoff: backoff, maxBackoff: maxBackoff}
	for _, s := range seeds {
		d.addrs[s] = &addrState{seed: true}
	}
	return d
}

// wait returns the backoff after n failures: backoff * 2^(n-1), capped.
func (d *discovery) wait(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	w := d.backoff
	for i := 1; i < n && w < d.maxBackoff; i++ {
		w *= 2
	}
	return min(w, d.maxBackoff)
}

// backfill adds addresses learned from peers.
func (d *discovery) backfill(addrs ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range addrs {
		if _, ok := d.addrs[a]; ok || len(d.addrs) >= maxPoolSize {
			continue
		}
		d.addrs[a] = &addrState{}
	}
}

// candidates picks up to n dialable addresses at time now (non-seeds
// first, in random order, then seeds) and marks them connecting.
func (d *discovery) candidates(n int, now time.Time, shuffle func([]string)) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var pool, seeds []string
	for a, st := range d.addrs {
		if st.status != addrPool || st.nextTry.After(now) {
			continue
		}
		if st.seed {
			seeds = append(seeds, a)
		} else {
			pool = append(pool, a)
		}
	}
	slices.Sort(pool) // map order is random but not seeded: sort, then shuffle
	slices.Sort(seeds)
	shuffle(pool)
	shuffle(seeds)
	out := append(pool, seeds...)
	if len(out) > n {
		out = out[:max(n, 0)]
	}
	for _, a := range out {
		d.addrs[a].status = addrConnecting
	}
	d.connectingN += len(out)
	return out
}

// connecting returns the number of dials under way.
func (d *discovery) connecting() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.connectingN
}

func (d *discovery) get(a string) *addrState {
	st := d.addrs[a]
	if st == nil {
		st = &addrState{}
		d.addrs[a] = st
	}
	return st
}

// dialFailed records a failed dial of a.
func (d *discovery) dialFailed(a string, now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.connectingN--
	st := d.get(a)
	if st.status == addrSelf || st.status == addrBanned {
		return
	}
	st.fails++
	if !st.seed && st.fails >= d.maxFails {
		st.status = addrGone
		return
	}
	st.status = addrPool
	st.nextTry = now.Add(d.wait(st.fails))
}

// dialed records a successful dial of a.
func (d *discovery) dialed(a string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.connectingN--
	st := d.get(a)
	st.fails = 0
	if st.status == addrConnecting || st.status == addrPool {
		st.status = addrConnected
	}
}

// isConnected reports whether a live connection uses address a.
func (d *discovery) isConnected(a string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.addrs[a]
	return st != nil && st.status == addrConnected
}

// handshaked records a peer that completed the handshake at its listening
// address a (empty if it has none).
func (d *discovery) handshaked(a string, caps capability.Capabilities, now time.Time) {
	if a == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.get(a)
	st.status = addrConnected
	st.fails, st.busy = 0, 0
	st.good = true
	st.caps = caps
	st.lastSeen = now
}

// dropKind classifies why a connection ended, for the address book.
type dropKind uint8

const (
	dropNormal    dropKind = iota // retry later (with backoff if it never handshaked)
	dropBusy                      // closed by the remote before the handshake: retry with backoff
	dropDuplicate                 // a second connection to a connected node: leave the address alone
	dropSelf                      // our own address
	dropBan                       // protocol violation: never again
)

// disconnected records the end of a connection that used address a.
func (d *discovery) disconnected(a string, kind dropKind, handshaked bool, now time.Time) {
	if a == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.get(a)
	if kind == dropBan && st.seed {
		kind = dropNormal // the operator's seeds are never banned, only retried later
	}
	if st.status == addrSelf || st.status == addrBanned || st.status == addrGone {
		if kind != dropSelf && kind != dropBan {
			return // a verdict is never softened
		}
	}
	switch kind {
	case dropDuplicate:
		return
	case dropSelf:
		st.status = addrSelf
	case dropBan:
		st.status = addrBanned
		st.good = false
	case dropBusy:
		st.busy++
		st.status = addrPool
		st.nextTry = now.Add(d.wait(st.busy))
	default:
		st.status = addrPool
		if handshaked {
			st.nextTry = now.Add(d.backoff)
		} else {
			st.busy++
			st.nextTry = now.Add(d.wait(st.busy))
		}
	}
}

// poolCount returns the number of addresses that may still be dialed.
func (d *discovery) poolCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, st := range d.addrs {
		if st.status == addrPool {
			n++
		}
	}
	return n
}

// networkSize estimates the network (neo-go updateNetSize): at least the
// seeds, otherwise the good and candidate addresses plus ourselves.
func (d *discovery) networkSize() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 1
	seeds := 0
	for _, st := range d.addrs {
		if st.seed {
			seeds++
		}
		if st.status == addrPool || st.status == addrConnecting || st.status == addrConnected {
			n++
		}
	}
	return max(seeds, n)
}

// fanOut is neo-go's optimal fan-out: max(1, round(2.5 ln(size-1))).
func fanOut(size int) int {
	return int(max(1, 2.5*math.Log(float64(size-1))) + 0.5)
}

// goodPeers returns the good addresses (handshaked once, not banned) with
// their capabilities, at most n, most recently seen first.
func (d *discovery) goodPeers(n int) []goodPeer {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []goodPeer
	for a, st := range d.addrs {
		if st.good && st.status != addrBanned && st.status != addrSelf && st.status != addrGone {
			out = append(out, goodPeer{addr: a, caps: st.caps, seen: st.lastSeen})
		}
	}
	slices.SortFunc(out, func(x, y goodPeer) int {
		if c := y.seen.Compare(x.seen); c != 0 {
			return c
		}
		if x.addr < y.addr {
			return -1
		}
		return 1
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

type goodPeer struct {
	addr string
	caps capability.Capabilities
	seen time.Time
}

// status returns an address's status (for tests and diagnostics).
func (d *discovery) status(a string) (addrStatus, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st, ok := d.addrs[a]
	if !ok {
		return 0, false
	}
	return st.status, true
}

// lists returns unconnected (dialable or waiting) and bad (gone, banned)
// addresses, sorted.
func (d *discovery) lists() (unconnected, bad []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for a, st := range d.addrs {
		switch st.status {
		case addrPool:
			unconnected = append(unconnected, a)
		case addrGone, addrBanned:
			bad = append(bad, a)
		}
	}
	slices.Sort(unconnected)
	slices.Sort(bad)
	return
}
