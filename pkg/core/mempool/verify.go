package mempool

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/n3node/n3node/pkg/core/transaction"
)

// Verifier checks a transaction against the current chain state
// (witnesses, fees, validity period, policy, on-chain conflicts). It is
// called without any pool lock held and must be safe for concurrent use.
type Verifier func(*transaction.Transaction) error

// flight is a verification in progress; done is released once err is set
// (a WaitGroup rather than a channel: one allocation per transaction
// less).
type flight struct {
	done    sync.WaitGroup
	err     error
	waiters atomic.Int32 // callers waiting on done (for tests)
}

// VerifyAndAdd verifies t with verify and adds it with the given data, as
// Add does. Concurrent calls for the same hash run verify once: the later
// callers wait for the first and get ErrDup if it added t, or its error.
// A transaction already pooled is refused with ErrDup without verifying.
// If RemoveStale runs while verify is under way, verify runs again.
func (mp *Pool) VerifyAndAdd(t *transaction.Transaction, feer Feer, verify Verifier, data any) error {
	h := t.Hash()
	if mp.ContainsKey(h) {
		return ErrDup
	}
	mp.flightMu.Lock()
	if f, ok := mp.flights[h]; ok {
		mp.flightMu.Unlock()
		f.waiters.Add(1)
		f.done.Wait()
		if f.err == nil {
			return ErrDup
		}
		return f.err
	}
	f := &flight{}
	f.done.Add(1)
	mp.flights[h] = f
	mp.flightMu.Unlock()

	// Should verify panic, the waiters must not hang nor report success.
	f.err = errVerifyPanicked
	defer func() {
		mp.flightMu.Lock()
		delete(mp.flights, h)
		mp.flightMu.Unlock()
		f.done.Done()
	}()
	f.err = mp.verifyAndAdd(t, feer, verify, data)
	return f.err
}

var errVerifyPanicked = errors.New("mempool: verification panicked")

func (mp *Pool) verifyAndAdd(t *transaction.Transaction, feer Feer, verify Verifier, data any) error {
	for {
		gen := mp.gen.Load()
		if err := verify(t); err != nil {
			return err
		}
		err := mp.add(t, feer, data, gen, true)
		if !errors.Is(err, errStale) {
			return err
		}
	}
}

// InFlight returns the number of verifications under way in VerifyAndAdd.
func (mp *Pool) InFlight() int {
	mp.flightMu.Lock()
	defer mp.flightMu.Unlock()
	return len(mp.flights)
}
