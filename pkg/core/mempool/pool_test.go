package mempool

import (
	"errors"
	"math/big"
	"slices"
	"sync"
	"testing"

	"github.com/RaduBerinde/btreemap"

	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// feer is a Feer with per-account balances (default for the others).
type feer struct {
	mu         sync.Mutex
	feePerByte int64
	height     uint32
	def        int64
	balances   map[hash.Uint160]int64
}

func (f *feer) FeePerByte() int64   { return f.feePerByte }
func (f *feer) BlockHeight() uint32 { return f.height }
func (f *feer) GetUtilityTokenBalance(a hash.Uint160) *big.Int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.balances[a]; ok {
		return big.NewInt(b)
	}
	return big.NewInt(f.def)
}

func (f *feer) set(a hash.Uint160, b int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.balances == nil {
		f.balances = make(map[hash.Uint160]int64)
	}
	f.balances[a] = b
}

func rich() *feer { return &feer{def: 1 << 50, height: 1} }

var (
	accA = hash.Uint160{0xa}
	accB = hash.Uint160{0xb}
	accC = hash.Uint160{0xc}
)

// newTx returns a hashed transaction with the given nonce, fees and
// signers (accA if none).
func newTx(nonce uint32, sysFee, netFee int64, signers ...hash.Uint160) *transaction.Transaction {
	t := transaction.New([]byte{0x11}, nonce, sysFee, netFee, 1000)
	if len(signers) == 0 {
		signers = []hash.Uint160{accA}
	}
	for _, s := range signers {
		t.Signers = append(t.Signers, transaction.Signer{Account: s, Scopes: transaction.CalledByEntry})
	}
	t.Hash()
	t.Size()
	return t
}

func withAttrs(t *transaction.Transaction, attrs ...transaction.Attribute) *transaction.Transaction {
	c := transaction.New(t.Script, t.Nonce, t.SystemFee, t.NetworkFee, t.ValidUntilBlock)
	c.Signers = t.Signers
	c.Attributes = attrs
	c.Hash()
	c.Size()
	return c
}

func conflictsWith(h hash.Uint256) transaction.Attribute {
	return transaction.Attribute{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: h}}
}

func hashes(txs []*transaction.Transaction) []hash.Uint256 {
	r := make([]hash.Uint256, len(txs))
	for i, t := range txs {
		r[i] = t.Hash()
	}
	return r
}

// check verifies the pool's internal invariants.
func check(t *testing.T, mp *Pool) {
	t.Helper()
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	if mp.order.Len() != len(mp.byHash) {
		t.Fatalf("tree has %d items, map %d", mp.order.Len(), len(mp.byHash))
	}
	if len(mp.byHash) > mp.capacity {
		t.Fatalf("%d items over capacity %d", len(mp.byHash), mp.capacity)
	}
	sums := map[hash.Uint160]uint64{}
	conflicts := map[hash.Uint256]int{}
	for k, it := range mp.order.Ascend(btreemap.Min[prio](), btreemap.Max[prio]()) {
		if mp.byHash[it.tx.Hash()] != it || it.key != k {
			t.Fatalf("item %s indexed inconsistently", it.tx.Hash().StringLE())
		}
		sums[mp.payer(it.tx)] += txFee(it.tx)
		for _, a := range it.tx.GetAttributes(transaction.ConflictsT) {
			conflicts[a.Value.(*transaction.Conflicts).Hash]++
		}
	}
	for p, s := range sums {
		f, ok := mp.fees[p]
		if !ok || f.feeSum.Uint64() != s {
			t.Fatalf("payer %s: fee sum %v, want %d", p.StringLE(), f, s)
		}
	}
	for h, n := range conflicts {
		if len(mp.conflicts[h]) != n {
			t.Fatalf("conflicts index for %s: %d, want %d", h.StringLE(), len(mp.conflicts[h]), n)
		}
	}
	if len(conflicts) != len(mp.conflicts) {
		t.Fatalf("conflicts index has %d keys, want %d", len(mp.conflicts), len(conflicts))
	}
}

func TestAddRemove(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	tx := newTx(1, 10, 10)
	if _, ok := mp.TryGetValue(tx.Hash()); ok {
		t.Fatal("found in empty pool")
	}
	if err := mp.Add(tx, f, "data"); err != nil {
		t.Fatal(err)
	}
	if err := mp.Add(tx, f); !errors.Is(err, ErrDup) {
		t.Fatalf("re-add: %v", err)
	}
	if got, ok := mp.TryGetValue(tx.Hash()); !ok || got != tx {
		t.Fatal("TryGetValue")
	}
	if d, ok := mp.TryGetData(tx.Hash()); !ok || d != "data" {
		t.Fatal("TryGetData")
	}
	if !mp.ContainsKey(tx.Hash()) || mp.Count() != 1 {
		t.Fatal("ContainsKey/Count")
	}
	check(t, mp)
	mp.Remove(tx.Hash())
	mp.Remove(tx.Hash())
	if mp.ContainsKey(tx.Hash()) || mp.Count() != 0 {
		t.Fatal("still pooled")
	}
	check(t, mp)
}

func TestOrder(t *testing.T) {
	mp := New(100, Options{})
	f := rich()
	var txs []*transaction.Transaction
	for i := range 30 {
		// fee per byte in a few classes, network fee varied within them.
		net := int64((i%3)*1000 + (i % 5))
		tx := newTx(uint32(i), 0, net)
		if i%7 == 0 {
			tx = withAttrs(tx, transaction.Attribute{Type: transaction.HighPriority})
		}
		txs = append(txs, tx)
		if err := mp.Add(tx, f); err != nil {
			t.Fatal(err)
		}
	}
	want := slices.Clone(txs)
	arrival := map[*transaction.Transaction]int{}
	for i, tx := range txs {
		arrival[tx] = i
	}
	slices.SortStableFunc(want, func(a, b *transaction.Transaction) int {
		ha, hb := a.HasAttribute(transaction.HighPriority), b.HasAttribute(transaction.HighPriority)
		switch {
		case ha && !hb:
			return -1
		case hb && !ha:
			return 1
		case a.FeePerByte() != b.FeePerByte():
			return int(b.FeePerByte() - a.FeePerByte())
		case a.NetworkFee != b.NetworkFee:
			return int(b.NetworkFee - a.NetworkFee)
		}
		return arrival[a] - arrival[b]
	})
	got := mp.GetVerifiedTransactions()
	if !slices.Equal(hashes(got), hashes(want)) {
		t.Fatal("order differs")
	}
	// Iteration sees the same order and stops when asked.
	var n int
	mp.IterateVerifiedTransactions(func(tx *transaction.Transaction, _ any) bool {
		if tx != want[n] {
			t.Fatalf("iteration %d differs", n)
		}
		n++
		return n < 5
	})
	if n != 5 {
		t.Fatalf("iterated %d", n)
	}
	check(t, mp)
}

func TestCapacity(t *testing.T) {
	mp := New(5, Options{})
	f := rich()
	ch := make(chan mempoolevent.Event, 100)
	mp.SubscribeForTransactions(ch)
	defer mp.UnsubscribeFromTransactions(ch)
	var txs []*transaction.Transaction
	for i := range 5 {
		tx := newTx(uint32(i), 1, 1000)
		txs = append(txs, tx)
		if err := mp.Add(tx, f); err != nil {
			t.Fatal(err)
		}
	}
	// Equal priority: the pool keeps the earlier arrivals.
	if err := mp.Add(newTx(100, 1, 1000), f); !errors.Is(err, ErrOOM) {
		t.Fatalf("equal: %v", err)
	}
	if err := mp.Add(newTx(101, 1, 999), f); !errors.Is(err, ErrOOM) {
		t.Fatalf("worse: %v", err)
	}
	// Better: evicts the worst, the last arrival among equals.
	better := newTx(102, 1, 1001)
	if err := mp.Add(better, f); err != nil {
		t.Fatal(err)
	}
	if mp.ContainsKey(txs[4].Hash()) || !mp.ContainsKey(better.Hash()) || mp.Count() != 5 {
		t.Fatal("wrong eviction")
	}
	check(t, mp)
	for i := range 5 {
		if ev := <-ch; ev.Type != mempoolevent.TransactionAdded || ev.Tx != txs[i] {
			t.Fatalf("event %d: %v", i, ev)
		}
	}
	if ev := <-ch; ev.Type != mempoolevent.TransactionRemoved || ev.Tx != txs[4] {
		t.Fatalf("eviction event: %v", ev)
	}
	if ev := <-ch; ev.Type != mempoolevent.TransactionAdded || ev.Tx != better {
		t.Fatalf("add event: %v", ev)
	}
	// A high priority transaction beats any fee.
	hp := withAttrs(newTx(103, 0, 0), transaction.Attribute{Type: transaction.HighPriority})
	if err := mp.Add(hp, f); err != nil {
		t.Fatal(err)
	}
	if got := mp.GetVerifiedTransactions(); got[0] != hp {
		t.Fatal("high priority not first")
	}
	check(t, mp)
}

func TestSenderFees(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	f.set(accA, 100)
	tx1 := newTx(1, 30, 30) // 60
	if err := mp.Add(tx1, f); err != nil {
		t.Fatal(err)
	}
	if err := mp.Add(newTx(2, 100, 10), f); !errors.Is(err, ErrInsufficientFunds) {
		t.Fatalf("over balance alone: %v", err)
	}
	tx3 := newTx(3, 25, 25) // 50: 110 total
	if err := mp.Add(tx3, f); !errors.Is(err, ErrConflict) {
		t.Fatalf("over balance with pooled: %v", err)
	}
	if mp.Verify(tx3, f) {
		t.Fatal("Verify accepts")
	}
	tx4 := newTx(4, 20, 20) // 100 total: exactly the balance
	if !mp.Verify(tx4, f) {
		t.Fatal("Verify refuses")
	}
	if err := mp.Add(tx4, f); err != nil {
		t.Fatal(err)
	}
	// Another payer is independent; the cached balance is used for A.
	if err := mp.Add(newTx(5, 1000, 1000, accB), f); err != nil {
		t.Fatal(err)
	}
	check(t, mp)
	mp.Remove(tx1.Hash())
	if err := mp.Add(tx3, f); err != nil {
		t.Fatalf("after removal: %v", err)
	}
	check(t, mp)
	// A co-signer's balance does not matter, only the payer's.
	f.set(accC, 0)
	if err := mp.Add(newTx(6, 1, 1, accB, accC), f); err != nil {
		t.Fatal(err)
	}
	check(t, mp)
}

func TestPayerIndex(t *testing.T) {
	mp := New(10, Options{PayerIndex: 1})
	f := rich()
	f.set(accA, 0)
	f.set(accB, 10)
	if err := mp.Add(newTx(1, 5, 5, accA, accB), f); err != nil {
		t.Fatal(err)
	}
	if err := mp.Add(newTx(2, 5, 5, accA, accB), f); !errors.Is(err, ErrConflict) {
		t.Fatalf("second: %v", err)
	}
	check(t, mp)
}

func TestConflictsOwnAttribute(t *testing.T) {
	// The new transaction names pooled ones in its Conflicts attributes.
	mp := New(10, Options{})
	f := rich()
	tx1 := newTx(1, 5, 10)
	tx2 := newTx(2, 5, 20)
	txB := newTx(3, 5, 1, accB)
	for _, tx := range []*transaction.Transaction{tx1, tx2, txB} {
		if err := mp.Add(tx, f); err != nil {
			t.Fatal(err)
		}
	}
	// Not paying more than both together.
	low := withAttrs(newTx(10, 0, 30), conflictsWith(tx1.Hash()), conflictsWith(tx2.Hash()))
	if err := mp.Add(low, f); !errors.Is(err, ErrConflictsAttribute) {
		t.Fatalf("equal fee: %v", err)
	}
	if mp.Verify(low, f) {
		t.Fatal("Verify accepts")
	}
	// No common signer with txB.
	foreign := withAttrs(newTx(11, 0, 100), conflictsWith(txB.Hash()))
	if err := mp.Add(foreign, f); !errors.Is(err, ErrConflictsAttribute) {
		t.Fatalf("foreign: %v", err)
	}
	// A co-signer is enough.
	cosigned := withAttrs(newTx(12, 0, 100, accC, accB), conflictsWith(txB.Hash()))
	if err := mp.Add(cosigned, f); err != nil {
		t.Fatalf("cosigned: %v", err)
	}
	if mp.ContainsKey(txB.Hash()) {
		t.Fatal("txB not replaced")
	}
	// Paying more than both: both replaced. A conflict with a transaction
	// that is not pooled costs nothing.
	high := withAttrs(newTx(13, 0, 31), conflictsWith(tx1.Hash()), conflictsWith(tx2.Hash()), conflictsWith(hash.Uint256{1}))
	if err := mp.Add(high, f); err != nil {
		t.Fatal(err)
	}
	if mp.ContainsKey(tx1.Hash()) || mp.ContainsKey(tx2.Hash()) || !mp.ContainsKey(high.Hash()) {
		t.Fatal("wrong replacement")
	}
	check(t, mp)
	// The replaced ones now conflict with a pooled transaction.
	if !mp.HasConflicts(tx1) || !mp.HasConflicts(high) {
		t.Fatal("HasConflicts")
	}
	if err := mp.Add(tx1, f); !errors.Is(err, ErrConflictsAttribute) {
		t.Fatalf("re-adding replaced tx1: %v", err)
	}
}

func TestConflictsPooledAttribute(t *testing.T) {
	// Pooled transactions name the new one in their Conflicts attributes.
	mp := New(10, Options{})
	f := rich()
	target := newTx(1, 5, 25, accA)
	p1 := withAttrs(newTx(2, 5, 10, accA), conflictsWith(target.Hash()))
	p2 := withAttrs(newTx(3, 5, 15, accB, accA), conflictsWith(target.Hash()))
	p3 := withAttrs(newTx(4, 5, 100, accC), conflictsWith(target.Hash()))
	for _, tx := range []*transaction.Transaction{p1, p2, p3} {
		if err := mp.Add(tx, f); err != nil {
			t.Fatal(err)
		}
	}
	if !mp.HasConflicts(target) {
		t.Fatal("HasConflicts")
	}
	// accA signed p1 and p2: 10+15 = 25, target pays 25, not more.
	if err := mp.Add(target, f); !errors.Is(err, ErrConflictsAttribute) {
		t.Fatalf("equal: %v", err)
	}
	target = newTx(1, 5, 26, accA)
	for _, p := range []*transaction.Transaction{p1, p2, p3} {
		mp.Remove(p.Hash())
	}
	p1 = withAttrs(newTx(2, 5, 10, accA), conflictsWith(target.Hash()))
	p2 = withAttrs(newTx(3, 5, 15, accB, accA), conflictsWith(target.Hash()))
	p3 = withAttrs(newTx(4, 5, 100, accC), conflictsWith(target.Hash()))
	for _, tx := range []*transaction.Transaction{p1, p2, p3} {
		if err := mp.Add(tx, f); err != nil {
			t.Fatal(err)
		}
	}
	// 26 > 25; p3 (not signed by accA) does not count but goes too.
	if err := mp.Add(target, f); err != nil {
		t.Fatal(err)
	}
	if mp.Count() != 1 || !mp.ContainsKey(target.Hash()) {
		t.Fatalf("pool has %d", mp.Count())
	}
	check(t, mp)

	// An outsider named by pooled transactions replaces them for free.
	mp2 := New(10, Options{})
	outsider := newTx(9, 1, 1, accC)
	q := withAttrs(newTx(8, 1, 1000, accA), conflictsWith(outsider.Hash()))
	if err := mp2.Add(q, f); err != nil {
		t.Fatal(err)
	}
	if err := mp2.Add(outsider, f); err != nil {
		t.Fatal(err)
	}
	if mp2.ContainsKey(q.Hash()) {
		t.Fatal("q kept")
	}
	check(t, mp2)
}

func TestConflictsFees(t *testing.T) {
	// The payer's replaced transactions free their fees for the new one.
	mp := New(10, Options{})
	f := rich()
	f.set(accA, 100)
	tx1 := newTx(1, 40, 40) // 80
	if err := mp.Add(tx1, f); err != nil {
		t.Fatal(err)
	}
	repl := withAttrs(newTx(2, 50, 45), conflictsWith(tx1.Hash())) // 95 alone
	if err := mp.Add(repl, f); err != nil {
		t.Fatal(err)
	}
	check(t, mp)
	// A Conflicts attribute repeated counts the fee twice (as neo-go
	// does) but frees the payer's balance once.
	mp = New(10, Options{})
	f.set(accA, 100)
	a := newTx(3, 30, 10) // 40
	if err := mp.Add(a, f); err != nil {
		t.Fatal(err)
	}
	twice := withAttrs(newTx(4, 30, 20), conflictsWith(a.Hash()), conflictsWith(a.Hash()))
	if err := mp.Add(twice, f); !errors.Is(err, ErrConflictsAttribute) {
		t.Fatalf("fee counted once: %v", err)
	}
	twice = withAttrs(newTx(4, 30, 21), conflictsWith(a.Hash()), conflictsWith(a.Hash()))
	if err := mp.Add(twice, f); err != nil {
		t.Fatal(err)
	}
	check(t, mp)
	// 51 + 49 = 100: the payer's balance is exactly spent.
	if err := mp.Add(newTx(5, 40, 9), f); err != nil {
		t.Fatal(err)
	}
	if err := mp.Add(newTx(6, 0, 1), f); !errors.Is(err, ErrConflict) {
		t.Fatalf("over: %v", err)
	}
	check(t, mp)
}

func TestOracleResponse(t *testing.T) {
	mp := New(10, Options{})
	f := rich()
	resp := func(nonce uint32, netFee int64, id uint64) *transaction.Transaction {
		return withAttrs(newTx(nonce, 1, netFee), transaction.Attribute{
			Type:  transaction.OracleResponseT,
			Value: &transaction.OracleResponse{ID: id, Code: transaction.Success},
		})
	}
	r1 := resp(1, 10, 7)
	if err := mp.Add(r1, f); err != nil {
		t.Fatal(err)
	}
	if err := mp.Add(resp(2, 10, 7), f); !errors.Is(err, ErrOracleResponse) {
		t.Fatalf("equal fee: %v", err)
	}
	r3 := resp(3, 11, 7)
	if err := mp.Add(r3, f); err != nil {
		t.Fatal(err)
	}
	if mp.ContainsKey(r1.Hash()) || !mp.ContainsKey(r3.Hash()) {
		t.Fatal("not replaced")
	}
	if err := mp.Add(resp(4, 1, 8), f); err != nil {
		t.Fatal(err)
	}
	mp.Remove(r3.Hash())
	if err := mp.Add(resp(5, 1, 7), f); err != nil {
		t.Fatalf("after removal: %v", err)
	}
	check(t, mp)
}

func TestRegisterTransactionAddedSubscriber(t *testing.T) {
	mp := New(10, Options{})
	ch := make(chan struct{})
	mp.RegisterTransactionAddedSubscriber(ch)
	if err := mp.Add(newTx(1, 1, 1), rich()); err != nil {
		t.Fatal(err)
	}
	<-ch
	// Single use: the next add does not close it again (would panic).
	if err := mp.Add(newTx(2, 1, 1), rich()); err != nil {
		t.Fatal(err)
	}
}

func TestOnCountChange(t *testing.T) {
	var counts []int
	mp := New(10, Options{OnCountChange: func(n int) { counts = append(counts, n) }})
	f := rich()
	a, b := newTx(1, 1, 1), newTx(2, 1, 1)
	_ = mp.Add(a, f)
	_ = mp.Add(b, f)
	mp.Remove(a.Hash())
	mp.RemoveStale(func(*transaction.Transaction) bool { return false }, f)
	if !slices.Equal(counts, []int{1, 2, 1, 0}) {
		t.Fatal(counts)
	}
}
