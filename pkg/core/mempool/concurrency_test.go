package mempool

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// concurrencyProbe is an isOK that records how many calls overlap. The
// first calls wait (without a clock) until want of them are running at
// once, proving that RemoveStale spreads the work whatever the core count.
type concurrencyProbe struct {
	want    int32
	running atomic.Int32
	max     atomic.Int32
	calls   atomic.Int32
	arrived sync.WaitGroup
	drop    func(*transaction.Transaction) bool
}

func newProbe(want int, drop func(*transaction.Transaction) bool) *concurrencyProbe {
	p := &concurrencyProbe{want: int32(want), drop: drop}
	p.arrived.Add(want)
	return p
}

func (p *concurrencyProbe) isOK(t *transaction.Transaction) bool {
	n := p.running.Add(1)
	for {
		m := p.max.Load()
		if n <= m || p.max.CompareAndSwap(m, n) {
			break
		}
	}
	if c := p.calls.Add(1); c <= p.want {
		p.arrived.Done()
		p.arrived.Wait() // the first want calls meet here
	}
	p.running.Add(-1)
	return !p.drop(t)
}

func TestRemoveStaleParallel(t *testing.T) {
	const n, workers = 2000, 4
	mp := New(n, Options{Workers: workers})
	f := rich()
	var txs []*transaction.Transaction
	for i := range n {
		payer := []hash.Uint160{accA, accB, accC}[i%3]
		tx := newTx(uint32(i), 1, int64(1000+i%17), payer)
		if i%10 == 0 {
			tx = withAttrs(tx, conflictsWith(hash.Uint256{byte(i), byte(i >> 8)}))
		}
		txs = append(txs, tx)
		if err := mp.Add(tx, f); err != nil {
			t.Fatal(err)
		}
	}
	ch := make(chan mempoolevent.Event, 2*n)
	mp.SubscribeForTransactions(ch)
	defer mp.UnsubscribeFromTransactions(ch)

	inBlock := map[hash.Uint256]bool{}
	for i := 0; i < n; i += 4 {
		inBlock[txs[i].Hash()] = true
	}
	probe := newProbe(workers, func(t *transaction.Transaction) bool { return inBlock[t.Hash()] })
	f.height = 2
	mp.RemoveStale(probe.isOK, f)
	if probe.max.Load() < workers {
		t.Fatalf("at most %d isOK calls overlapped, want %d", probe.max.Load(), workers)
	}
	if int(probe.calls.Load()) != n {
		t.Fatalf("isOK called %d times", probe.calls.Load())
	}
	if mp.Count() != n-len(inBlock) {
		t.Fatalf("%d left", mp.Count())
	}
	for _, tx := range txs {
		if mp.ContainsKey(tx.Hash()) == inBlock[tx.Hash()] {
			t.Fatal("wrong transaction dropped")
		}
	}
	check(t, mp)
	for range inBlock {
		if ev := <-ch; ev.Type != mempoolevent.TransactionRemoved || !inBlock[ev.Tx.Hash()] {
			t.Fatalf("event %v", ev)
		}
	}
}

func TestRemoveStaleRules(t *testing.T) {
	mp := New(100, Options{Workers: 2})
	f := rich()
	f.feePerByte = 1
	keep := func(*transaction.Transaction) bool { return true }

	// Expiry: ValidUntilBlock <= height goes.
	exp := newTx(1, 1, 1000)
	exp.ValidUntilBlock = 5
	exp = withAttrs(exp)
	if err := mp.Add(exp, f); err != nil {
		t.Fatal(err)
	}
	// A raised fee per byte drops those paying less.
	cheap := newTx(2, 1, int64(newTx(2, 1, 0).Size())*2)
	dear := newTx(3, 1, int64(newTx(3, 1, 0).Size())*3)
	// Balance shrinks: the payer keeps its best transactions that fit.
	b1 := newTx(4, 0, 1000, accB)
	b2 := newTx(5, 0, 900, accB)
	b3 := newTx(6, 0, 800, accB)
	for _, tx := range []*transaction.Transaction{cheap, dear, b1, b2, b3} {
		if err := mp.Add(tx, f); err != nil {
			t.Fatal(err)
		}
	}
	f.height = 4
	mp.RemoveStale(keep, f)
	if mp.Count() != 6 {
		t.Fatalf("dropped too early: %d", mp.Count())
	}
	f.height = 5
	f.feePerByte = 3
	f.set(accB, 1800)
	mp.RemoveStale(keep, f)
	want := []*transaction.Transaction{b1, dear, b3}
	slices.SortFunc(want, func(a, b *transaction.Transaction) int { return int(b.FeePerByte() - a.FeePerByte()) })
	got := mp.GetVerifiedTransactions()
	if !slices.Equal(hashes(got), hashes(want)) {
		t.Fatalf("kept %d transactions, want b1, dear, b3", len(got))
	}
	check(t, mp)
	// The fee per byte policy only ratchets up within the pool: a lower
	// one does not bring anything back, nor drop anything.
	f.feePerByte = 0
	mp.RemoveStale(keep, f)
	if mp.Count() != 3 {
		t.Fatal(mp.Count())
	}
}

func TestRemoveStaleConflictsIndex(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	target := newTx(1, 1, 1000)
	p := withAttrs(newTx(2, 1, 10), conflictsWith(target.Hash()))
	if err := mp.Add(p, f); err != nil {
		t.Fatal(err)
	}
	mp.RemoveStale(func(tx *transaction.Transaction) bool { return tx != p }, f)
	check(t, mp)
	if mp.HasConflicts(target) {
		t.Fatal("conflict of a dropped transaction remains")
	}
}

func TestResend(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	f.height = 0
	txs := make([]*transaction.Transaction, 5)
	for i := range txs {
		f.height = uint32(i)
		txs[i] = newTx(uint32(i), 1, 1)
		if err := mp.Add(txs[i], f); err != nil {
			t.Fatal(err)
		}
	}
	resent := make(chan *transaction.Transaction, 10)
	mp.SetResendThreshold(5, func(tx *transaction.Transaction, _ any) { resent <- tx })
	keep := func(*transaction.Transaction) bool { return true }
	// Pooled at heights 0..4, resent when 5, 10, 20, 40... blocks old.
	for _, c := range []struct {
		h    uint32
		want *transaction.Transaction
	}{{5, txs[0]}, {6, txs[1]}, {10, txs[0]}} {
		f.height = c.h
		mp.RemoveStale(keep, f)
		if got := <-resent; got != c.want {
			t.Fatalf("height %d: resent %s", c.h, got.Hash().StringLE())
		}
	}
	f.height = 15 // 15, 14, ... 11 blocks old: none is 5*2^k
	mp.RemoveStale(keep, f)
	f.height = 20 // txs[0] is 20 = 5*4 old
	mp.RemoveStale(keep, f)
	if got := <-resent; got != txs[0] {
		t.Fatal("height 20")
	}
	select {
	case got := <-resent:
		t.Fatalf("extra resend %s", got.Hash().StringLE())
	default:
	}
}

func TestVerifyAndAddOnce(t *testing.T) {
	const callers = 16
	mp := New(10, Options{})
	f := rich()
	tx := newTx(1, 1, 1)
	var calls atomic.Int32
	release := make(chan struct{})
	verify := func(*transaction.Transaction) error {
		calls.Add(1)
		<-release
		return nil
	}
	errs := make(chan error, callers)
	for range callers {
		go func() { errs <- mp.VerifyAndAdd(tx, f, verify, nil) }()
	}
	waitWaiters(t, mp, tx.Hash(), callers-1)
	close(release)
	var ok, dup int
	for range callers {
		switch err := <-errs; {
		case err == nil:
			ok++
		case errors.Is(err, ErrDup):
			dup++
		default:
			t.Fatal(err)
		}
	}
	if ok != 1 || dup != callers-1 || calls.Load() != 1 {
		t.Fatalf("ok %d, dup %d, verified %d times", ok, dup, calls.Load())
	}
	if mp.InFlight() != 0 {
		t.Fatal("flight left behind")
	}
	// Pooled: no verification at all.
	if err := mp.VerifyAndAdd(tx, f, verify, nil); !errors.Is(err, ErrDup) || calls.Load() != 1 {
		t.Fatalf("pooled: %v", err)
	}
}

// waitWaiters yields until n callers wait on the flight of h.
func waitWaiters(t *testing.T, mp *Pool, h hash.Uint256, n int) {
	t.Helper()
	for {
		mp.flightMu.Lock()
		f := mp.flights[h]
		mp.flightMu.Unlock()
		if f != nil && int(f.waiters.Load()) == n {
			return
		}
		runtime.Gosched()
	}
}

func TestVerifyAndAddFailureShared(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	tx := newTx(1, 1, 1)
	bad := errors.New("bad witness")
	var calls atomic.Int32
	release := make(chan struct{})
	verify := func(*transaction.Transaction) error {
		calls.Add(1)
		<-release
		return bad
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() { errs <- mp.VerifyAndAdd(tx, f, verify, nil) }()
	}
	waitWaiters(t, mp, tx.Hash(), 3)
	close(release)
	for range 4 {
		if err := <-errs; !errors.Is(err, bad) {
			t.Fatal(err)
		}
	}
	if calls.Load() != 1 {
		t.Fatalf("verified %d times", calls.Load())
	}
	// Once settled, a new attempt verifies again (a serial run would).
	if err := mp.VerifyAndAdd(tx, f, verify, nil); !errors.Is(err, bad) || calls.Load() != 2 {
		t.Fatal(err)
	}
	// Pool errors reach every caller too.
	f.set(accB, 0)
	poor := newTx(2, 1, 1, accB)
	if err := mp.VerifyAndAdd(poor, f, func(*transaction.Transaction) error { return nil }, nil); !errors.Is(err, ErrInsufficientFunds) {
		t.Fatal(err)
	}
}

func TestVerifyAndAddPanic(t *testing.T) {
	mp := New(10, Options{})
	tx := newTx(1, 1, 1)
	func() {
		defer func() { _ = recover() }()
		_ = mp.VerifyAndAdd(tx, rich(), func(*transaction.Transaction) error { panic("boom") }, nil)
	}()
	if mp.InFlight() != 0 {
		t.Fatal("flight left behind")
	}
	if err := mp.VerifyAndAdd(tx, rich(), func(*transaction.Transaction) error { return nil }, nil); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyAndAddReverifiesAfterBlock(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	tx := newTx(1, 1, 1)
	var calls int
	verify := func(*transaction.Transaction) error {
		calls++
		if calls == 1 {
			// A block lands while the first verification runs.
			mp.RemoveStale(func(*transaction.Transaction) bool { return true }, f)
		}
		return nil
	}
	if err := mp.VerifyAndAdd(tx, f, verify, "d"); err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Fatalf("verified %d times", calls)
	}
	if d, _ := mp.TryGetData(tx.Hash()); d != "d" {
		t.Fatal("data lost")
	}
}

func TestConcurrentAddRemove(t *testing.T) {
	// Run under -race: adds, removals, stale removal and readers at once.
	mp := New(500, Options{Workers: 3})
	f := rich()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			for i := range 300 {
				tx := newTx(uint32(g*1000+i), 1, int64(i%50))
				_ = mp.VerifyAndAdd(tx, f, func(*transaction.Transaction) error { return nil }, nil)
				if i%7 == 0 {
					mp.Remove(tx.Hash())
				}
				_ = mp.GetVerifiedTransactions()
				_ = mp.Count()
			}
		})
	}
	wg.Go(func() {
		for i := range 20 {
			mp.RemoveStale(func(tx *transaction.Transaction) bool { return tx.Nonce%5 != uint32(i%5) }, f)
		}
	})
	wg.Wait()
	check(t, mp)
}

func TestSubscriptions(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	// Nobody listens: nothing queued.
	if err := mp.Add(newTx(100, 1, 1), f); err != nil {
		t.Fatal(err)
	}
	ch1 := make(chan mempoolevent.Event, 10)
	ch2 := make(chan mempoolevent.Event) // unbuffered, read below
	mp.SubscribeForTransactions(ch1)
	mp.SubscribeForTransactions(ch2)
	mp.SubscribeForTransactions(ch1) // twice is once
	tx1, tx2 := newTx(1, 1, 1), newTx(2, 1, 1)
	_ = mp.Add(tx1, f, "x")
	_ = mp.Add(tx2, f)
	mp.Remove(tx1.Hash())
	want := []mempoolevent.Event{
		{Type: mempoolevent.TransactionAdded, Tx: tx1, Data: "x"},
		{Type: mempoolevent.TransactionAdded, Tx: tx2},
		{Type: mempoolevent.TransactionRemoved, Tx: tx1, Data: "x"},
	}
	for i, w := range want {
		if ev := <-ch2; ev != w {
			t.Fatalf("ch2 event %d: %+v", i, ev)
		}
	}
	for i, w := range want {
		if ev := <-ch1; ev != w {
			t.Fatalf("ch1 event %d: %+v", i, ev)
		}
	}
	mp.UnsubscribeFromTransactions(ch1)
	close(ch1)
	_ = mp.Add(newTx(3, 1, 1), f)
	if ev := <-ch2; ev.Tx.Nonce != 3 {
		t.Fatal("ch2 missed an event")
	}
	mp.UnsubscribeFromTransactions(ch2)
	mp.UnsubscribeFromTransactions(ch2)
}

func TestSlowSubscriberDoesNotBlock(t *testing.T) {
	mp := New(1000, Options{})
	f := rich()
	stuck := make(chan mempoolevent.Event) // never read
	mp.SubscribeForTransactions(stuck)
	for i := range 500 {
		if err := mp.Add(newTx(uint32(i), 1, 1), f); err != nil {
			t.Fatal(err)
		}
	}
	mp.RemoveStale(func(*transaction.Transaction) bool { return false }, f)
	if mp.Count() != 0 {
		t.Fatal(mp.Count())
	}
	// Unsubscribing while the dispatcher is blocked on the channel works,
	// and nothing is sent afterwards (closing it would panic the sender).
	mp.UnsubscribeFromTransactions(stuck)
	close(stuck)
	if mp.DroppedEvents() != 0 {
		t.Fatal("dropped")
	}
}
