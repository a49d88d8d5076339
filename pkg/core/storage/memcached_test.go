package storage_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
)

func b(s string) []byte { return []byte(s) }

func wantGet(t *testing.T, s storage.Store, k, want string) {
	t.Helper()
	v, err := s.Get(b(k))
	if err != nil || string(v) != want {
		t.Fatalf("Get(%q) = %q, %v; want %q", k, v, err, want)
	}
}

func wantMiss(t *testing.T, s storage.Store, k string) {
	t.Helper()
	if v, err := s.Get(b(k)); !errors.Is(err, storage.ErrKeyNotFound) {
		t.Fatalf("Get(%q) = %q, %v; want ErrKeyNotFound", k, v, err)
	}
}

func wantSeek(t *testing.T, s storage.Store, want ...string) {
	t.Helper()
	var got []string
	s.Seek(storage.SeekRange{}, func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	})
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("Seek = %q, want %q", got, want)
	}
}

// heldWrites makes the next PutChangeSet on f stop at its hook until the
// returned release is called; entered is closed when the write is held.
func heldWrites(f *storagetest.FaultStore) (entered <-chan struct{}, release func()) {
	in, out := make(chan struct{}), make(chan struct{})
	var once sync.Once
	f.SetWriteHook(func(map[string][]byte) {
		once.Do(func() {
			close(in)
			<-out
		})
	})
	return in, func() { close(out) }
}

// TestPersistKeepsServing holds a Persist in the middle of its disk write
// and checks that the layer answers reads, seeks and writes meanwhile.
func TestPersistKeepsServing(t *testing.T) {
	lower := storagetest.NewFaultStore(storage.NewMemoryStore())
	c := storage.NewMemCachedStore(lower)
	c.Put(b("a"), b("1"))
	c.Put(b("b"), b("2"))
	if n, err := c.Persist(); n != 2 || err != nil {
		t.Fatalf("Persist = %d, %v", n, err)
	}
	c.Put(b("a"), b("10"))
	c.Delete(b("b"))
	c.Put(b("c"), b("3"))

	entered, release := heldWrites(lower)
	type result struct {
		n   int
		err error
	}
	done := make(chan result)
	go func() {
		n, err := c.Persist()
		done <- result{n, err}
	}()
	<-entered
	// The change set is in flight: it still answers reads.
	wantGet(t, c, "a", "10")
	wantMiss(t, c, "b")
	wantGet(t, c, "c", "3")
	wantSeek(t, c, "a=10", "c=3")
	// Writes go to the fresh change set and win over the one in flight.
	c.Put(b("a"), b("11"))
	c.Delete(b("c"))
	c.Put(b("d"), b("4"))
	wantGet(t, c, "a", "11")
	wantMiss(t, c, "c")
	wantSeek(t, c, "a=11", "d=4")
	if n := c.Len(); n != 6 {
		t.Fatalf("Len during the flush = %d, want 3 in flight + 3 new", n)
	}
	wantGet(t, lower.Store, "a", "1") // not written yet
	release()
	if r := <-done; r.n != 3 || r.err != nil {
		t.Fatalf("Persist = %d, %v", r.n, r.err)
	}
	wantGet(t, lower.Store, "a", "10")
	wantMiss(t, lower.Store, "b")
	wantGet(t, lower.Store, "c", "3")
	wantSeek(t, c, "a=11", "d=4")
	if n := c.Len(); n != 3 {
		t.Fatalf("Len after the flush = %d, want 3", n)
	}
	if _, err := c.PersistSync(); err != nil {
		t.Fatal(err)
	}
	wantSeek(t, lower.Store, "a=11", "d=4")
	if n := c.Len(); n != 0 {
		t.Fatalf("Len after PersistSync = %d", n)
	}
}

// TestPersistFailureLosesNothing fails the disk write of a Persist while
// the layer is being written, and checks that the change set is merged back
// under the newer writes and persisted by the next Persist.
func TestPersistFailureLosesNothing(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("sync=%v", locked), func(t *testing.T) {
			lower := storagetest.NewFaultStore(storage.NewMemoryStore())
			c := storage.NewMemCachedStore(lower)
			c.Put(b("a"), b("1"))
			c.Put(b("b"), b("2"))
			c.Put(b("x"), b("9"))
			if _, err := c.Persist(); err != nil {
				t.Fatal(err)
			}
			c.Put(b("a"), b("10"))
			c.Delete(b("b"))
			c.Put(b("c"), b("3"))
			c.Put(b("e"), b("5"))
			lower.FailWrites(1)
			if locked {
				if _, err := c.PersistSync(); !errors.Is(err, storagetest.ErrInjected) {
					t.Fatalf("PersistSync: %v, want ErrInjected", err)
				}
			} else {
				entered, release := heldWrites(lower)
				done := make(chan error)
				go func() {
					_, err := c.Persist()
					done <- err
				}()
				<-entered
				c.Put(b("a"), b("11")) // newer than the failed set: must win
				c.Delete(b("c"))       // a deletion must win too
				c.Put(b("d"), b("4"))
				release()
				if err := <-done; !errors.Is(err, storagetest.ErrInjected) {
					t.Fatalf("Persist: %v, want ErrInjected", err)
				}
			}
			want := storagetest.Model{"a": b("10"), "c": b("3"), "e": b("5"), "x": b("9")}
			if !locked {
				want = storagetest.Model{"a": b("11"), "d": b("4"), "e": b("5"), "x": b("9")}
			}
			checkView := func(s storage.Store) {
				t.Helper()
				if got, w := storagetest.Collect(s, storage.SeekRange{}), want.Seek(storage.SeekRange{}); !reflect.DeepEqual(got, w) {
					t.Fatalf("view = %q, want %q", got, w)
				}
				wantMiss(t, s, "b")
			}
			checkView(c)
			wantGet(t, lower.Store, "a", "1") // the failed write left the disk alone
			if n, err := c.Persist(); err != nil || n == 0 {
				t.Fatalf("retry Persist = %d, %v", n, err)
			}
			checkView(c)
			checkView(lower.Store)
			if c.Len() != 0 {
				t.Fatalf("Len after the retry = %d", c.Len())
			}
		})
	}
}

// TestPersistConcurrent runs writers, readers, seekers and persisters on a
// two-layer stack over a store that fails a share of its writes, under the
// race detector in `make test-race`. Every change set the writer commits
// puts key w/i, sets the counter to i and deletes w/(i-window); a
// consistent view therefore holds exactly the keys w/(c-window+1)..w/c for
// the counter value c it shows, and a reader that has seen the counter at c
// must never see it lower (nothing is lost or goes back in time).
func TestPersistConcurrent(t *testing.T) {
	t.Run("memory", func(t *testing.T) { testPersistConcurrent(t, storage.NewMemoryStore()) })
	t.Run("pebble", func(t *testing.T) {
		s := openDisk(t, storage.EnginePebble, diskPath(t, storage.EnginePebble))
		defer s.Close()
		testPersistConcurrent(t, s)
	})
}

func testPersistConcurrent(t *testing.T, store storage.Store) {
	const (
		changes = 1500
		window  = 40
	)
	key := func(i int) string { return fmt.Sprintf("\x02w/%06d", i) }
	bottom := storagetest.NewFaultStore(store)
	mid := storage.NewMemCachedStore(bottom)
	top := storage.NewMemCachedStore(mid)

	var written atomic.Int64 // highest i committed to top
	written.Store(-1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	fail := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}

	// checkView verifies one Seek over everything and returns the counter.
	checkView := func(s storage.Store) int {
		c := -1
		var keys []string
		s.Seek(storage.SeekRange{}, func(k, v []byte) bool {
			if string(k) == "\x01cnt" {
				fmt.Sscanf(string(v), "%d", &c)
			} else {
				keys = append(keys, string(k))
			}
			return true
		})
		if c < 0 {
			if len(keys) != 0 {
				fail(fmt.Errorf("keys %q without a counter", keys))
			}
			return c
		}
		var want []string
		for i := max(0, c-window+1); i <= c; i++ {
			want = append(want, key(i))
		}
		if !reflect.DeepEqual(keys, want) {
			fail(fmt.Errorf("inconsistent view at counter %d: %d keys %q..", c, len(keys), keys[:min(3, len(keys))]))
		}
		return c
	}

	wg.Add(1)
	go func() { // writer
		defer wg.Done()
		for i := range changes {
			cs := map[string][]byte{key(i): b("v"), "\x01cnt": fmt.Appendf(nil, "%d", i)}
			if i >= window {
				cs[key(i-window)] = nil
			}
			if err := top.PutChangeSet(cs); err != nil {
				fail(err)
				return
			}
			written.Store(int64(i))
			if i%20 == 19 {
				// Let the persisters reach the bottom store between batches:
				// until it takes another write, or until nothing is left to
				// persist (the persisters may have written this batch down
				// before a is read; waiting for a write then never ended
				// on a loaded host).
				a, _ := bottom.Writes()
				for n := a; n == a && (top.Len() > 0 || mid.Len() > 0); n, _ = bottom.Writes() {
					select {
					case <-stop:
						return
					default:
					}
					runtime.Gosched()
				}
			}
		}
	}()
	for _, l := range []*storage.MemCachedStore{top, mid} {
		wg.Add(1)
		go func() { // persister
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				n, err := l.Persist()
				if err != nil && !errors.Is(err, storagetest.ErrInjected) {
					fail(err)
				}
				if n == 0 {
					runtime.Gosched()
				}
			}
		}()
	}
	// Fail about a third of the bottom store's writes.
	var rmu sync.Mutex
	r := rand.New(rand.NewPCG(3, 4))
	bottom.SetWriteHook(func(map[string][]byte) {
		rmu.Lock()
		defer rmu.Unlock()
		if r.IntN(3) == 0 {
			bottom.FailWrites(1)
		}
	})
	for range 2 {
		wg.Add(1)
		go func() { // reader and seeker
			defer wg.Done()
			last := -1
			for {
				select {
				case <-stop:
					return
				default:
				}
				w := int(written.Load())
				c := checkView(top)
				if c < w || c < last {
					fail(fmt.Errorf("view at counter %d after %d was committed (previous view %d)", c, w, last))
				}
				last = c
				w = int(written.Load())
				if w >= 0 {
					v, err := top.Get(b("\x01cnt"))
					n := -1
					fmt.Sscanf(string(v), "%d", &n)
					if err != nil || n < w {
						fail(fmt.Errorf("Get(counter) = %d, %v after %d was committed", n, err, w))
					}
				}
			}
		}()
	}

	// Wait for the writer, then stop the rest.
	for written.Load() < changes-1 {
		select {
		case err := <-errs:
			close(stop)
			wg.Wait()
			t.Fatal(err)
		default:
		}
		top.Get(b("\x01cnt"))
	}
	close(stop)
	wg.Wait()
	bottom.SetWriteHook(nil)
	bottom.Heal()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	for _, l := range []*storage.MemCachedStore{top, mid} {
		if _, err := l.PersistSync(); err != nil {
			t.Fatal(err)
		}
	}
	if c := checkView(bottom.Store); c != changes-1 {
		t.Fatalf("bottom store ends at counter %d, want %d", c, changes-1)
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	a, f := bottom.Writes()
	if f == 0 || a == f {
		t.Fatalf("fault injection did not mix failures and successes: %d writes, %d failed", a, f)
	}
	t.Logf("%d change sets, %d writes to the bottom store, %d failed", changes, a, f)
}

// TestPersistWaitsForSeekToPin holds a Seek between copying its part of the
// layer and opening its walk of the lower store, and runs a Persist of newer
// writes meanwhile: the Persist must not write the lower store until the
// walk is open, or the walk would see writes made after it began.
func TestPersistWaitsForSeekToPin(t *testing.T) {
	lower := storagetest.NewFaultStore(storage.NewMemoryStore())
	c := storage.NewMemCachedStore(lower)
	c.Put(b("a"), b("1"))
	if _, err := c.Persist(); err != nil {
		t.Fatal(err)
	}
	seekHeld, seekGo := make(chan struct{}), make(chan struct{})
	var once sync.Once
	lower.SetSeekHook(func(storage.SeekRange) {
		once.Do(func() {
			close(seekHeld)
			<-seekGo
		})
	})
	var wrote atomic.Bool
	lower.SetWriteHook(func(map[string][]byte) { wrote.Store(true) })

	walked := make(chan []string)
	go func() {
		var got []string
		c.Seek(storage.SeekRange{}, func(k, v []byte) bool {
			got = append(got, string(k)+"="+string(v))
			return true
		})
		walked <- got
	}()
	<-seekHeld
	c.Put(b("b"), b("2")) // after the Seek began
	c.Delete(b("a"))
	persisted := make(chan error)
	go func() {
		_, err := c.Persist()
		persisted <- err
	}()
	// Give a wrong Persist every chance to write now; a right one waits.
	for i := 0; i < 1000 && !wrote.Load(); i++ {
		runtime.Gosched()
	}
	if wrote.Load() {
		t.Fatal("Persist wrote the lower store while a Seek had not opened its walk")
	}
	close(seekGo)
	if got, want := <-walked, []string{"a=1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("walk = %q, want %q", got, want)
	}
	if err := <-persisted; err != nil {
		t.Fatal(err)
	}
	wantSeek(t, lower.Store, "b=2")
}

// TestSeekCallbackMayPersist persists the layer from inside its own Seek
// callback: no deadlock, and the walk still shows the state it began with.
func TestSeekCallbackMayPersist(t *testing.T) {
	lower := storage.NewMemoryStore()
	c := storage.NewMemCachedStore(lower)
	c.Put(b("a"), b("1"))
	c.Put(b("c"), b("3"))
	if _, err := c.Persist(); err != nil {
		t.Fatal(err)
	}
	c.Put(b("b"), b("2"))
	var got []string
	c.Seek(storage.SeekRange{}, func(k, v []byte) bool {
		if len(got) == 0 {
			c.Delete(b("c"))
			c.Put(b("d"), b("4"))
			if _, err := c.Persist(); err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, string(k)+"="+string(v))
		return true
	})
	if want := []string{"a=1", "b=2", "c=3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("walk = %q, want %q", got, want)
	}
	wantSeek(t, lower, "a=1", "b=2", "d=4")
}

// TestPrivateLayer is the per-transaction pattern: a private layer over a
// block layer, persisted (merged) and reused, or discarded.
func TestPrivateLayer(t *testing.T) {
	block := storage.NewMemCachedStore(storage.NewMemoryStore())
	block.Put(b("\x70a"), b("1"))
	block.Put(b("\x70b"), b("2"))
	tx := storage.NewPrivateMemCachedStore(block)

	v := b("3")
	tx.Put(b("\x70c"), v)
	v[0] = 'X' // Put copied it
	tx.Delete(b("\x70a"))
	wantGet(t, tx, "\x70c", "3")
	wantMiss(t, tx, "\x70a")
	wantGet(t, tx, "\x70b", "2")
	wantSeek(t, tx, "\x70b=2", "\x70c=3")
	wantSeek(t, block, "\x70a=1", "\x70b=2")
	if n, err := tx.Persist(); n != 2 || err != nil {
		t.Fatalf("Persist = %d, %v", n, err)
	}
	if tx.Len() != 0 {
		t.Fatalf("private layer not empty after Persist: %d", tx.Len())
	}
	wantSeek(t, block, "\x70b=2", "\x70c=3")

	// Reused for the next transaction, which fails and is discarded.
	tx.Put(b("\x70d"), b("4"))
	tx.Discard()
	wantMiss(t, tx, "\x70d")
	if n, err := tx.Persist(); n != 0 || err != nil {
		t.Fatalf("Persist of an empty layer = %d, %v", n, err)
	}
	wantSeek(t, block, "\x70b=2", "\x70c=3")

	// The block's contract-storage changes, deletions included.
	block.Put(b("\x01other"), b("x"))
	want := map[string][]byte{"\x70a": nil, "\x70b": b("2"), "\x70c": b("3")}
	if got := block.Changes([]byte{byte(storage.STStorage)}); !maps.EqualFunc(got, want, func(x, y []byte) bool {
		return string(x) == string(y) && (x == nil) == (y == nil)
	}) {
		t.Fatalf("Changes(0x70) = %q, want %q", got, want)
	}
	var walked []string
	block.SeekChanges(storage.SeekRange{Backwards: true}, func(k, v []byte) bool {
		if v == nil {
			walked = append(walked, string(k)+" deleted")
		} else {
			walked = append(walked, string(k)+"="+string(v))
		}
		return true
	})
	if want := []string{"\x70c=3", "\x70b=2", "\x70a deleted", "\x01other=x"}; !reflect.DeepEqual(walked, want) {
		t.Fatalf("SeekChanges = %q, want %q", walked, want)
	}
}

// TestPrivatePersistFailure: a private layer keeps its changes when the
// write below it fails.
func TestPrivatePersistFailure(t *testing.T) {
	lower := storagetest.NewFaultStore(storage.NewMemoryStore())
	p := storage.NewPrivateMemCachedStore(lower)
	p.Put(b("a"), b("1"))
	lower.FailWrites(1)
	if _, err := p.Persist(); !errors.Is(err, storagetest.ErrInjected) {
		t.Fatalf("Persist: %v", err)
	}
	wantGet(t, p, "a", "1")
	if n, err := p.Persist(); n != 1 || err != nil {
		t.Fatalf("retry = %d, %v", n, err)
	}
	wantGet(t, lower, "a", "1")
}

// TestChangesDuringPersist: the change set of a layer includes the part a
// Persist is writing.
func TestChangesDuringPersist(t *testing.T) {
	lower := storagetest.NewFaultStore(storage.NewMemoryStore())
	c := storage.NewMemCachedStore(lower)
	c.Put(b("\x70a"), b("1"))
	c.Put(b("\x70b"), b("2"))
	entered, release := heldWrites(lower)
	done := make(chan error)
	go func() {
		_, err := c.Persist()
		done <- err
	}()
	<-entered
	c.Put(b("\x70b"), b("20"))
	c.Put(b("\x70c"), b("3"))
	got := c.Changes([]byte{0x70})
	if len(got) != 3 || string(got["\x70a"]) != "1" || string(got["\x70b"]) != "20" || string(got["\x70c"]) != "3" {
		t.Fatalf("Changes = %q", got)
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := c.Changes(nil); len(got) != 2 {
		t.Fatalf("Changes after the flush = %q", got)
	}
}

func TestMemCachedEmptyKeyPanics(t *testing.T) {
	c := storage.NewMemCachedStore(storage.NewMemoryStore())
	defer func() {
		if recover() == nil {
			t.Fatal("Put with an empty key did not panic")
		}
	}()
	c.Put(nil, b("x"))
}

// TestPutOwned: PutOwned keeps the caller's value (Put keeps a copy), a
// nil value is stored as empty, and both persist alike.
func TestPutOwned(t *testing.T) {
	s := storage.NewMemCachedStore(storage.NewMemoryStore())
	v := b("owned")
	s.PutOwned(b("a"), v)
	s.PutOwned(b("e"), nil)
	c := b("copied")
	s.Put(b("c"), c)
	v[0], c[0] = 'O', 'C'
	wantGet(t, s, "a", "Owned")
	wantGet(t, s, "c", "copied")
	wantGet(t, s, "e", "")
	if _, err := s.Persist(); err != nil {
		t.Fatal(err)
	}
	wantGet(t, s.Lower(), "a", "Owned")
	wantGet(t, s.Lower(), "e", "")
}
