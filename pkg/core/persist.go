package core

import (
	"fmt"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/core/storage"
)

// persistSamples is the number of samples of the moving average of the
// disk's speed (neo-go persistSamples); persistMinForSampling the fewest
// keys a persist must write to be a sample.
const (
	persistSamples        = 10
	persistMinForSampling = 100
)

// persister writes the committed layer to the disk store in the background
// (every PersistInterval, or sooner when asked) and provides the
// back-pressure that keeps that layer bounded: a commit waits while the
// layer holds more keys than the limit.
type persister struct {
	bc *Blockchain

	kickCh chan struct{}
	stopCh chan struct{}
	doneCh chan struct{}

	mu       sync.Mutex
	cond     *sync.Cond
	velocity int   // keys the disk takes per PersistInterval (moving average)
	lastErr  error // of the latest persist
	stopped  bool
	// Persisted and Persists count what was written (for tests, metrics).
	persisted int64
	persists  int64
	// height is the highest block whose changes are all on disk.
	height uint32
}

func newPersister(bc *Blockchain) *persister {
	p := &persister{bc: bc, kickCh: make(chan struct{}, 1), stopCh: make(chan struct{}), doneCh: make(chan struct{})}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// start runs the loop; what the chain holds at start is on disk.
func (p *persister) start() {
	p.height = p.bc.BlockHeight()
	go p.loop()
}

func (p *persister) loop() {
	defer close(p.doneCh)
	interval := p.bc.opts.PersistInterval
	t := time.NewTimer(interval)
	defer t.Stop()
	for {
		select {
		case <-p.stopCh:
			return
		case <-t.C:
		case <-p.kickCh:
		}
		dur := p.persistOnce()
		t.Reset(max(interval-dur, time.Millisecond))
	}
}

// persistOnce writes the committed layer to disk and updates the speed
// estimate.
func (p *persister) persistOnce() time.Duration {
	start := time.Now()
	h := p.bc.BlockHeight() // committed before the layer is taken: on disk after it
	n, err := p.bc.dao.Persist()
	dur := time.Since(start)
	p.mu.Lock()
	switch {
	case err != nil && p.lastErr == nil:
		p.bc.log.Error("not accepting blocks and transactions until the database takes writes again: "+describeWriteErr(err),
			"err", err, "height", p.bc.BlockHeight(), "pendingKeys", p.bc.dao.Store.Len())
	case err == nil && p.lastErr != nil:
		p.bc.log.Info("the database takes writes again, accepting blocks and transactions", "height", p.bc.BlockHeight())
	}
	p.lastErr = err
	if err != nil {
		p.bc.log.Debug("failed to persist blockchain", "err", err)
	} else {
		p.height = max(p.height, h)
	}
	if err == nil && n > 0 {
		p.persisted += int64(n)
		p.persists++
		if dur > 0 && n > persistMinForSampling {
			cur := int(int64(n) * int64(p.bc.opts.PersistInterval) / int64(dur))
			if p.velocity != 0 {
				cur = min(cur, 2*p.velocity)
				cur = (p.velocity*(persistSamples-1) + cur) / persistSamples
			}
			p.velocity = cur
		}
		p.bc.log.Debug("persisted to disk", "keys", n, "height", p.bc.BlockHeight(), "took", dur)
	}
	p.cond.Broadcast()
	p.mu.Unlock()
	return dur
}

// paused returns the error of the latest persist: while it is set the chain
// refuses blocks and transactions (ErrWritesPaused).
func (p *persister) paused() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastErr
}

// describeWriteErr names the cause of a failed persist for the operator.
func describeWriteErr(err error) string {
	if storage.IsDiskFull(err) {
		return "the disk is full"
	}
	return "the database refuses writes"
}

// WritesPaused returns nil while the database takes writes; otherwise the
// error of the latest background write, and the chain refuses blocks and
// transactions (ErrWritesPaused) until a retry, every PersistInterval,
// succeeds. Nothing committed is lost meanwhile: it stays in memory and
// reads see it.
func (bc *Blockchain) WritesPaused() error { return bc.persist.paused() }

// checkWrites returns an ErrWritesPaused error while writes are paused,
// and ErrReadFailed for good once a read failed.
func (bc *Blockchain) checkWrites() error {
	if err := bc.ReadErr(); err != nil {
		return err
	}
	if err := bc.persist.paused(); err != nil {
		return fmt.Errorf("%w: %w", ErrWritesPaused, err)
	}
	return nil
}

// kick asks for a persist now.
func (p *persister) kick() {
	select {
	case p.kickCh <- struct{}{}:
	default:
	}
}

// limit returns the number of pending keys above which commits wait: four
// intervals' worth of the measured disk speed, capped by MaxPendingKeys;
// 0 means no limit (no measurement yet and no cap).
func (p *persister) limit() int {
	l := 4 * p.velocity
	if m := p.bc.opts.MaxPendingKeys; m > 0 && (l == 0 || l > m) {
		l = m
	}
	return l
}

// throttle waits while the committed layer holds more keys than the limit
// (asking for a persist), unless the last persist failed or the persister
// stopped.
func (p *persister) throttle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		l := p.limit()
		if l <= 0 || p.stopped || p.lastErr != nil || p.bc.dao.Store.Len() <= l {
			return
		}
		p.kick()
		p.cond.Wait()
	}
}

// stop ends the loop (a persist in progress finishes).
func (p *persister) stop() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	p.cond.Broadcast()
	p.mu.Unlock()
	close(p.stopCh)
	<-p.doneCh
}

// PersistStats reports how many keys were written to disk in how many
// background persists, and the measured disk speed (keys per persist
// interval).
func (bc *Blockchain) PersistStats() (keys, persists int64, velocity int) {
	p := bc.persist
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.persisted, p.persists, p.velocity
}

// Persist writes the committed layer to the disk store now, as the
// background persister does every PersistInterval, and returns the error
// of the write (which pauses the chain, see WritesPaused). A simulation
// that sets a long PersistInterval calls it to choose when writes reach
// the store.
func (bc *Blockchain) Persist() error {
	bc.persist.persistOnce()
	return bc.persist.paused()
}

// PersistedHeight returns the highest block whose changes the background
// persist has written to disk (neo-go's persisted height; 0 before the
// first persist).
func (bc *Blockchain) PersistedHeight() uint32 {
	p := bc.persist
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.height
}

// PendingKeys returns the number of changed keys held in memory above the
// disk store.
func (bc *Blockchain) PendingKeys() int { return bc.dao.Store.Len() }
