package keys

import (
	"sync"
	"sync/atomic"

	"filippo.io/nistec"
)

// Verification of signatures by hot keys.
//
// An ECDSA check computes u1·G + u2·Q. crypto/ecdsa does u1·G with a
// precomputed table of the generator and u2·Q with a generic windowed
// multiplication (256 doublings and about 50 additions), which is about
// two thirds of the whole check. Witness checking meets a few keys over and
// over (the validators' keys on every consensus message and block, a busy
// sender's key on each of its transactions), so for a key seen often a table
// of its multiples (fixedTable) turns u2·Q into at most 31 additions.
//
// The result is the same predicate as crypto/ecdsa.Verify for P-256 with a
// 32-byte digest: r and s in [1, n-1], e = digest mod n, w = s⁻¹,
// R = (e·w)·G + (r·w)·Q, valid iff R is not the point at infinity and
// x(R) mod n = r. TestHotVerifyMatchesECDSA and FuzzHotVerify compare the two.
//
// Cost bound: a table is built only for a key that makes HotKeyPromoteAfter
// of the last hotKeyWindow checks by keys without a table (a build is about
// 8,000 point additions, the cost of ~30 checks), and at most HotKeyTables
// tables exist (least recently used is dropped). The counts are forgotten
// wholesale every hotKeyWindow such checks, so they also stay bounded. A
// key must be a steady share of the traffic (≥ 1/64 of it), not merely
// used often over a long time: an import of blocks from thousands of
// senders, each signing a few hundred transactions, builds no tables
// (counting over all time, every sender reached the threshold and its
// table was evicted before its next use: 13% of an import's CPU).

const (
	// HotKeyTables is the most keys that have a table at once. Each table
	// takes fixedTableBytes (about 0.8 MB).
	HotKeyTables = 8
	// HotKeyPromoteAfter is how many checks by a key build its table.
	HotKeyPromoteAfter = 64
	// hotKeyWindow is how many checks by keys without a table the counts
	// cover; it also bounds the counts kept.
	hotKeyWindow = 4096

	// fixedWindows × fixedEntries multiples of Q: entry [i][j] is
	// (j+1)·256^i·Q, so u·Q is the sum of one entry per non-zero byte of u.
	fixedWindows = 32
	fixedEntries = 255
	// fixedTableBytes is the size of one table (a P256Point is three
	// 4-limb field elements).
	fixedTableBytes = fixedWindows * fixedEntries * 96
)

// fixedTable holds the multiples of one public key.
type fixedTable struct {
	t    [fixedWindows][fixedEntries]nistec.P256Point
	used atomic.Int64 // hotKeys.clock at the last use
}

var p256Infinity = nistec.NewP256Point() // read only

// newFixedTable builds the table of the uncompressed point; nil if it is not
// a valid curve point.
func newFixedTable(point *[UncompressedSize]byte) *fixedTable {
	base, err := nistec.NewP256Point().SetBytes(point[:])
	if err != nil {
		return nil
	}
	ft := new(fixedTable)
	for i := range fixedWindows {
		row := &ft.t[i]
		row[0].Set(base)
		for j := 1; j < fixedEntries; j++ {
			row[j].Add(&row[j-1], base)
		}
		base.Add(&row[fixedEntries-1], base) // 256^(i+1)·Q
	}
	return ft
}

// mult sets r = u·Q for the 32-byte big-endian scalar u.
func (ft *fixedTable) mult(r *nistec.P256Point, u *[32]byte) {
	r.Set(p256Infinity)
	for i := range fixedWindows {
		if b := u[31-i]; b != 0 {
			r.Add(r, &ft.t[i][b-1])
		}
	}
}

// verifyScratch holds the points of one check; verify takes one from
// verifyPool so that they need not be allocated per check.
type verifyScratch struct {
	b1, b2 [32]byte
	p1, p2 nistec.P256Point
}

var verifyPool = sync.Pool{New: func() any { return new(verifyScratch) }}

// verify checks the 64-byte r‖s signature of the 32-byte digest (see the
// comment at the top of the file for the predicate). The scalars mod n are
// fixed-size (p256order.go).
func (ft *fixedTable) verify(sig, digest []byte) bool {
	var r, s, e, w, u orderScalar
	r.setBytes(sig[:32])
	s.setBytes(sig[32:64])
	if r.isZero() || s.isZero() || r.cmp(&p256Order) >= 0 || s.cmp(&p256Order) >= 0 {
		return false
	}
	w.invertMont(&s) // s⁻¹·2²⁵⁶, so that montMul(x, w) = x·s⁻¹
	e.setBytes(digest)
	e.reduceOnce()

	v := verifyPool.Get().(*verifyScratch)
	defer verifyPool.Put(v)
	u.montMul(&e, &w) // u1 = e·w mod n
	u.putBytes(&v.b1)
	u.montMul(&r, &w) // u2 = r·w mod n
	u.putBytes(&v.b2)

	p1, err := v.p1.ScalarBaseMult(v.b1[:])
	if err != nil {
		return false
	}
	ft.mult(&v.p2, &v.b2)
	x, err := p1.Add(p1, &v.p2).BytesX() // infinity is an error
	if err != nil {
		return false
	}
	u.setBytes(x)
	u.reduceOnce()
	return u == r
}

// hotKeys is the set of tables and the counts that lead to them.
type hotKeys struct {
	maxTables, promoteAfter, window int

	clock  atomic.Int64
	misses int // checks without a table since seen was cleared; guarded by mu
	mu     sync.RWMutex
	tables map[[UncompressedSize]byte]*fixedTable
	seen   map[[UncompressedSize]byte]int // guarded by mu (write lock)
}

func newHotKeys(maxTables, promoteAfter, window int) *hotKeys {
	return &hotKeys{
		maxTables:    maxTables,
		promoteAfter: promoteAfter,
		window:       window,
		tables:       make(map[[UncompressedSize]byte]*fixedTable, maxTables),
		seen:         make(map[[UncompressedSize]byte]int),
	}
}

var hot = newHotKeys(HotKeyTables, HotKeyPromoteAfter, hotKeyWindow)

// table returns the key's table, counting the check and building the table
// when the key has become hot; nil while it has none.
func (h *hotKeys) table(point *[UncompressedSize]byte) *fixedTable {
	h.mu.RLock()
	ft := h.tables[*point]
	h.mu.RUnlock()
	if ft != nil {
		ft.used.Store(h.clock.Add(1))
		return ft
	}
	h.mu.Lock()
	if ft = h.tables[*point]; ft != nil {
		h.mu.Unlock()
		return ft
	}
	if h.misses++; h.misses > h.window {
		clear(h.seen)
		h.misses = 1
	}
	n := h.seen[*point] + 1
	if n < h.promoteAfter {
		h.seen[*point] = n
		h.mu.Unlock()
		return nil
	}
	delete(h.seen, *point)
	h.mu.Unlock()

	// Built outside the lock; two goroutines may build the same table at
	// once, the second one's is dropped.
	ft = newFixedTable(point)
	if ft == nil {
		return nil
	}
	ft.used.Store(h.clock.Add(1))
	h.mu.Lock()
	defer h.mu.Unlock()
	if old := h.tables[*point]; old != nil {
		return old
	}
	if len(h.tables) >= h.maxTables {
		var (
			victim [UncompressedSize]byte
			oldest int64 = -1
		)
		for k, t := range h.tables {
			if u := t.used.Load(); oldest < 0 || u < oldest {
				victim, oldest = k, u
			}
		}
		delete(h.tables, victim)
	}
	h.tables[*point] = ft
	return ft
}

// len reports the number of tables.
func (h *hotKeys) len() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.tables)
}
