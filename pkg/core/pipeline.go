package core

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// job is one block moving through the pipeline (see docs/ledger.md):
//
//	prepare (parallel, ahead)  stateless checks and precomputed witnesses
//	execute (one goroutine)    header and transaction checks on the state of
//	                           the previous block, then execution into a
//	                           private layer; a records goroutine writes the
//	                           block, transaction, result and transfer
//	                           records as results arrive
//	merge   (same goroutine)   once the previous block is committed: the
//	                           execution and record layers go into stage
//	commit  (committer)        trie update, root record, then stage (now
//	                           holding exactly this block) goes into the
//	                           committed layer in one step
//
// so the next block executes while this block's trie is updated.
type job struct {
	blk *block.Block

	preDone chan struct{}
	preErr  error
	prevNC  hash.Uint160 // NextConsensus the header precheck assumed
	hdrPre  witnessResult
	txPre   []*txPre

	exec    *dao.Simple
	rec     *dao.Simple
	recDone chan error
	aers    []*state.AppExecResult
	changes map[string][]byte
	batch   *chaindump.StorageBatch // with SaveStorageBatch
	txpool  *mempool.Pool

	committed chan struct{}
	commitErr error
}

// PipelineStats are cumulative times of the block pipeline's stages and
// waits (for profiling imports).
type PipelineStats struct {
	Blocks       int64
	WaitPrecheck time.Duration // executor waiting for stateless checks
	Headers      time.Duration // header checks
	Verify       time.Duration // transaction checks on state (beside execution)
	Execute      time.Duration // OnPersist, transactions, PostPersist (and waiting for the checks)
	WaitCommit   time.Duration // executor waiting for the previous commit
	WaitRecords  time.Duration // executor waiting for the records goroutine
	Merge        time.Duration // merging the block's layers into stage
	Trie         time.Duration // committer: trie update and flush
	Throttle     time.Duration // committer: back-pressure waits
	Commit       time.Duration // committer: moving stage into dao
	After        time.Duration // committer: mempool, GC, events
}

type pipelineStats struct {
	mu sync.Mutex
	s  PipelineStats
}

func (p *pipelineStats) add(f func(*PipelineStats)) {
	p.mu.Lock()
	f(&p.s)
	p.mu.Unlock()
}

// PipelineStats returns the cumulative stage times of block processing.
func (bc *Blockchain) PipelineStats() PipelineStats {
	bc.stats.mu.Lock()
	defer bc.stats.mu.Unlock()
	return bc.stats.s
}

// AddBlock verifies block b (unless SkipBlockVerification), executes it and
// commits it; b.Index must be BlockHeight()+1. It returns when the block's
// state, records and state root are committed.
func (bc *Blockchain) AddBlock(b *block.Block) error {
	ch := make(chan *block.Block, 1)
	ch <- b
	close(ch)
	return bc.AddBlocks(context.Background(), ch)
}

// AddBlocks adds the blocks read from in, in order, until in is closed,
// ctx is done or a block fails. It pipelines them: later blocks are checked
// ahead and a block executes while the previous one's state root is
// computed. Blocks at or below the height are refused (ErrAlreadyExists),
// every block while the database refuses writes (ErrWritesPaused). On
// error, every block before the failing one is committed.
func (bc *Blockchain) AddBlocks(ctx context.Context, in <-chan *block.Block) error {
	return bc.AddBlockStream(ctx, in, nil)
}

// AddBlockStream is AddBlocks calling added (if not nil) with each block
// once it is committed: in order, from the pipeline's committing goroutine,
// before the next block is committed. A block that fails is not passed to
// added, so the caller knows exactly which blocks of the stream were taken.
// The chain takes no other block (consensus, AddBlock) until the stream
// ends: callers close in when they have nothing more to send.
func (bc *Blockchain) AddBlockStream(ctx context.Context, in <-chan *block.Block, added func(*block.Block)) error {
	bc.addMu.Lock()
	defer bc.addMu.Unlock()
	if bc.closed.Load() {
		return ErrClosed
	}
	err := bc.runStream(ctx, in, !bc.cfg.SkipBlockVerification, false, added)
	if rerr := bc.ReadErr(); err != nil && rerr != nil && !errors.Is(err, ErrReadFailed) {
		// The block failed because of the read (readfault.go).
		err = fmt.Errorf("%w (then: %w)", rerr, err)
	}
	return err
}

// run is the pipeline; init is set for the genesis block of a new chain.
func (bc *Blockchain) run(ctx context.Context, in <-chan *block.Block, verify, init bool) error {
	return bc.runStream(ctx, in, verify, init, nil)
}

// runStream is run calling added (if not nil) after each block is
// committed.
func (bc *Blockchain) runStream(ctx context.Context, in <-chan *block.Block, verify, init bool, added func(*block.Block)) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan *job, bc.opts.Lookahead)
	var prepWG sync.WaitGroup
	prepWG.Add(1)
	go func() {
		defer prepWG.Done()
		bc.prepare(ctx, in, jobs, verify, init)
	}()

	commits := make(chan *job, 1)
	committerDone := make(chan struct{})
	go func() {
		defer close(committerDone)
		failed := false
		for j := range commits {
			if failed {
				j.commitErr = errors.New("previous block failed")
			} else if j.commitErr = bc.commit(j, init); j.commitErr != nil {
				failed = true
			} else if added != nil {
				added(j.blk)
			}
			close(j.committed)
		}
	}()

	next := bc.BlockHeight() + 1
	if init {
		next = 0
	}
	var (
		prev *job
		err  error
	)
	for j := range jobs {
		if err = ctx.Err(); err != nil {
			break
		}
		if err = bc.checkWrites(); err != nil {
			break
		}
		if err = bc.execute(j, next, verify, init); err != nil {
			break
		}
		t0 := time.Now()
		if prev != nil {
			<-prev.committed
			if err = prev.commitErr; err != nil {
				<-j.recDone
				break
			}
		}
		t1 := time.Now()
		if err = <-j.recDone; err != nil {
			break
		}
		t2 := time.Now()
		if _, err = j.exec.Persist(); err == nil {
			_, err = j.rec.Persist()
		}
		t3 := time.Now()
		bc.stats.add(func(s *PipelineStats) {
			s.Blocks++
			s.WaitCommit += t1.Sub(t0)
			s.WaitRecords += t2.Sub(t1)
			s.Merge += t3.Sub(t2)
		})
		if err != nil {
			bc.stage.Discard()
			break
		}
		commits <- j
		prev = j
		next++
	}
	close(commits)
	<-committerDone
	if err == nil && prev != nil {
		err = prev.commitErr
	}
	cancel()
	for range jobs {
	}
	prepWG.Wait()
	return err
}

// prepare reads blocks and runs their stateless checks on Verifiers
// goroutines, handing the jobs on in order.
func (bc *Blockchain) prepare(ctx context.Context, in <-chan *block.Block, out chan<- *job, verify, init bool) {
	defer close(out)
	work := make(chan *job, bc.opts.Verifiers)
	var wg sync.WaitGroup
	for range bc.opts.Verifiers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if verify {
					bc.precheck(j)
				}
				close(j.preDone)
			}
		}()
	}
	defer func() {
		close(work)
		wg.Wait()
	}()
	var (
		prevNC   hash.Uint160
		prevIdx  uint32
		havePrev bool
	)
	for {
		var b *block.Block
		var ok bool
		select {
		case <-ctx.Done():
			return
		case b, ok = <-in:
			if !ok {
				return
			}
		}
		// Fill the lazily computed hashes and sizes here, before several
		// goroutines read them.
		b.Hash()
		for _, tx := range b.Transactions {
			tx.Hash()
			tx.Size()
		}
		j := &job{blk: b, preDone: make(chan struct{}), recDone: make(chan error, 1), committed: make(chan struct{})}
		if havePrev && prevIdx+1 == b.Index {
			j.prevNC = prevNC
		} else if b.Index > 0 {
			if h, err := bc.GetHeaderByIndex(b.Index - 1); err == nil {
				j.prevNC = h.NextConsensus
			}
		}
		prevNC, prevIdx, havePrev = b.NextConsensus, b.Index, true
		select {
		case out <- j:
		case <-ctx.Done():
			return
		}
		select {
		case work <- j:
		case <-ctx.Done():
			close(j.preDone)
			return
		}
	}
}

// precheck runs the stateless checks of a block: merkle root, transaction
// scripts, and the witnesses that can be computed ahead (on the committed
// state; execute reuses them only if the exec fee factor and hardforks
// are the same).
func (bc *Blockchain) precheck(j *job) {
	b := j.blk
	if b.MerkleRoot != b.ComputeMerkleRoot() {
		j.preErr = ErrMerkleRoot
		return
	}
	if b.Index == 0 {
		return
	}
	v := &view{bc: bc, d: bc.dao, height: b.Index - 1}
	if isPrecomputable(&b.Witness) {
		j.hdrPre = bc.precompute(v, &b.Header, j.prevNC, &b.Witness)
	}
	j.txPre = make([]*txPre, len(b.Transactions))
	for i, tx := range b.Transactions {
		if bc.pool.ContainsKey(tx.Hash()) {
			continue
		}
		j.txPre[i] = bc.precheckTx(v, tx)
	}
}

// execute checks the block against the state of the previous one (in
// stage) and executes it into a private layer, with its records written by
// another goroutine into a second one (j.recDone reports when they are
// done).
func (bc *Blockchain) execute(j *job, next uint32, verify, init bool) error {
	t0 := time.Now()
	<-j.preDone
	t1 := time.Now()
	b := j.blk
	if j.preErr != nil {
		return fmt.Errorf("block %d: %w", b.Index, j.preErr)
	}
	if b.Index != next {
		if b.Index < next {
			return fmt.Errorf("%w: block with index %d is already on chain", ErrAlreadyExists, b.Index)
		}
		return fmt.Errorf("expected %d, got %d: %w", next, b.Index, ErrInvalidBlockIndex)
	}
	if b.StateRootEnabled != bc.cfg.StateRootInHeader {
		return fmt.Errorf("block %d: %w: %v != %v", b.Index, ErrHdrStateRootSetting, bc.cfg.StateRootInHeader, b.StateRootEnabled)
	}
	v := &view{bc: bc, d: bc.stage, height: b.Index - 1}
	if init {
		if err := bc.headers.add(&b.Header); err != nil {
			return err
		}
	} else {
		known := true
		if top := bc.headers.topHeader(); b.Index == top.Index+1 {
			if verify {
				if err := bc.verifyHeader(v, &b.Header, top, &j.hdrPre); err != nil {
					return fmt.Errorf("block %d: %w", b.Index, err)
				}
			}
			err := bc.headers.add(&b.Header)
			if err != nil && !errors.Is(err, errHeaderKnown) {
				return err
			}
			known = err != nil
		}
		if h := bc.headers.hash(b.Index); known && h != b.Hash() {
			return fmt.Errorf("%w: expected %s, got %s", ErrBlockHashMismatch, h.StringLE(), b.Hash().StringLE())
		}
	}
	// The transactions are checked on the previous block's state while the
	// block executes into its own layer (nothing of which is used unless
	// the checks pass).
	var verified chan error
	if verify && !init && len(b.Transactions) > 0 {
		verified = make(chan error, 1)
		go func() { verified <- bc.verifyBlockTxs(j, v) }()
	}
	waitVerified := func() error {
		if verified == nil {
			return nil
		}
		err := <-verified
		verified = nil
		return err
	}
	t2 := time.Now()
	defer func() {
		t3 := time.Now()
		bc.stats.add(func(s *PipelineStats) {
			s.WaitPrecheck += t1.Sub(t0)
			s.Headers += t2.Sub(t1)
			s.Execute += t3.Sub(t2)
		})
	}()
	j.exec = bc.stage.GetPrivate()
	j.rec = bc.stage.GetPrivate()
	// Two records per transaction (the transaction and its result), the
	// block's few and the transfer logs' (about one per sender).
	j.rec.Store.SizeHint(2*len(b.Transactions) + 8)
	results := make(chan *state.AppExecResult, 64)
	go func() { j.recDone <- bc.storeRecords(j, results) }()
	fail := func(err error) error {
		close(results)
		<-j.recDone
		j.recDone <- err
		_ = waitVerified()
		return err
	}
	lv := ledgerView{bc, b.Index - 1}
	j.aers = make([]*state.AppExecResult, 0, len(b.Transactions)+2)
	aer, v2, err := bc.natives.RunPersist(lv, j.exec, b, trigger.OnPersist, nil)
	if err != nil {
		return fail(fmt.Errorf("block %d: onPersist failed: %w", b.Index, err))
	}
	j.aers = append(j.aers, aer)
	results <- aer
	var machine *vm.VM = v2
	for _, tx := range b.Transactions {
		if aer, machine, err = bc.natives.RunTx(lv, j.exec, b, tx, machine); err != nil {
			return fail(fmt.Errorf("block %d: transaction %s: %w", b.Index, tx.Hash().StringLE(), err))
		}
		if aer.VMState != vmstate.Halt {
			bc.log.Debug("contract invocation failed", "tx", tx.Hash().StringLE(), "block", b.Index, "exception", aer.FaultException)
		}
		j.aers = append(j.aers, aer)
		results <- aer
	}
	if aer, _, err = bc.natives.RunPersist(lv, j.exec, b, trigger.PostPersist, machine); err != nil {
		return fail(fmt.Errorf("block %d: postPersist failed: %w", b.Index, err))
	}
	j.aers = append(j.aers, aer)
	results <- aer
	close(results)
	if err := waitVerified(); err != nil {
		<-j.recDone
		j.recDone <- err
		return err
	}
	j.changes = j.exec.Store.Changes(storage.STStorage.Bytes())
	if bc.cfg.SaveStorageBatch {
		// stage holds the previous block's state until this block merges.
		j.batch = storageBatch(b.Index, j.changes, bc.stage.Store)
	}
	return nil
}

// verifyBlockTxs checks the transactions of j's block in view v (the
// previous block's state) as neo-go's AddBlock does: pooled ones only for
// the block's fee accounting, the others fully; failures refuse the block
// with VerifyTransactions and are logged otherwise.
func (bc *Blockchain) verifyBlockTxs(j *job, v *view) error {
	t0 := time.Now()
	defer func() {
		d := time.Since(t0)
		bc.stats.add(func(s *PipelineStats) { s.Verify += d })
	}()
	b := j.blk
	j.txpool = mempool.New(len(b.Transactions), mempool.Options{Workers: 1})
	for i, tx := range b.Transactions {
		var err error
		if bc.pool.ContainsKey(tx.Hash()) {
			if err = j.txpool.Add(tx, v); err == nil {
				continue
			}
			err = poolErr(err)
		} else {
			var pre *txPre
			if j.txPre != nil {
				pre = j.txPre[i]
			}
			if err = bc.verifyTx(v, tx, pre, false); err == nil {
				err = poolErr(j.txpool.Add(tx, v))
			}
		}
		if err != nil {
			if bc.cfg.VerifyTransactions {
				return fmt.Errorf("%w: transaction %s of block %d: %w", ErrTxVerification, tx.Hash().StringLE(), b.Index, err)
			}
			bc.log.Warn("transaction failed to verify", "tx", tx.Hash().StringLE(), "block", b.Index, "err", err)
		}
	}
	return nil
}

// commit applies the block's storage changes to the trie, then moves stage
// (exactly this block: execution, records, trie nodes, root) into the
// committed layer, and runs the after-block work.
func (bc *Blockchain) commit(j *job, init bool) error {
	b := j.blk
	t0 := time.Now()
	if bc.cfg.StateRootInHeader && !init && b.Index > 0 {
		if err := bc.checkPrevStateRoot(&b.Header); err != nil {
			bc.stage.Discard()
			return fmt.Errorf("block %d: %w", b.Index, err)
		}
	}
	dst := make(map[string][]byte, 2*len(j.changes)+16)
	if _, err := bc.state.AddBlock(b.Index, j.changes, dst); err != nil {
		bc.stage.Discard()
		return fmt.Errorf("block %d: state root: %w", b.Index, err)
	}
	if err := bc.stage.Store.PutChangeSet(dst); err != nil {
		bc.state.Abort()
		bc.stage.Discard()
		return fmt.Errorf("block %d: %w", b.Index, err)
	}
	t1 := time.Now()
	bc.persist.throttle()
	t2 := time.Now()
	bc.commitMu.Lock()
	// A read failed: what this block executed may be wrong (readfault.go).
	err := bc.ReadErr()
	if err == nil {
		_, err = bc.stage.Persist()
	}
	if err == nil {
		bc.state.Committed()
		if j.batch != nil {
			bc.lastBatch.Store(j.batch)
		}
		bc.top.Store(b)
		bc.height.Store(b.Index)
	}
	bc.commitMu.Unlock()
	if err != nil {
		bc.state.Abort()
		bc.stage.Discard()
		return fmt.Errorf("block %d: %w", b.Index, err)
	}
	t3 := time.Now()
	defer func() {
		t4 := time.Now()
		bc.stats.add(func(s *PipelineStats) {
			s.Trie += t1.Sub(t0)
			s.Throttle += t2.Sub(t1)
			s.Commit += t3.Sub(t2)
			s.After += t4.Sub(t3)
		})
	}()
	if init {
		return nil
	}
	if bc.pool.Count() > 0 {
		bc.pool.RemoveStale(func(t *transaction.Transaction) bool { return bc.isTxStillRelevant(t, j.txpool, false) }, bc)
	}
	if bc.cfg.RemoveUntraceableBlocks && b.Index%bc.cfg.GarbageCollectionPeriod == 0 {
		bc.collectGarbage(b.Index)
	}
	bc.events.publish(b, j.aers)
	return nil
}
