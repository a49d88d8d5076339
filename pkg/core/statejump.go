package core

// State sync hooks (pkg/core/statesync): the store state sync writes its
// data to, storing blocks without executing them, and the state jump.

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// StateJumpBatch is the number of keys a state jump deletes or moves per
// write (each write is durable before the next; a crash in between loses
// nothing). Tests lower it.
var StateJumpBatch = 50000

// Records of state sync and the state jump (neo-go's keys).
var (
	jumpStageKey   = []byte{byte(storage.SYSStateChangeStage)}
	syncPointKey   = []byte{byte(storage.SYSStateSyncPoint)}
	syncHeightKey  = []byte{byte(storage.SYSStateSyncCurrentBlockHeight)}
	errBadJumpData = errors.New("state jump: bad record")
)

// Stages of a state jump, recorded under SYSStateChangeStage.
const (
	jumpStarted       byte = 1 // the point and its root are recorded
	jumpStorageFreed  byte = 2 // the old contract storage is deleted
	jumpStorageMoved  byte = 3 // the synced storage is in place
	maxJumpStageValue      = jumpStorageMoved
)

// StateSyncStore returns the store state sync works in: reads see the
// committed layer (with what state sync wrote), writes must only touch MPT
// nodes (DataMPT), contract storage received for the sync point
// (STTempStorage) and the sync records (SYSStateSyncPoint,
// SYSStateSyncCurrentBlockHeight); they land in the committed layer
// between block commits. SeekGC is not supported; Close does nothing.
func (bc *Blockchain) StateSyncStore() storage.Store { return syncStore{bc} }

type syncStore struct{ bc *Blockchain }

func (s syncStore) Get(k []byte) ([]byte, error) { return s.bc.dao.Store.Get(k) }

func (s syncStore) Seek(rng storage.SeekRange, f func(k, v []byte) bool) {
	s.bc.dao.Store.Seek(rng, f)
}

func (s syncStore) SeekGC(storage.SeekRange, func(k, v []byte) bool) error {
	return fmt.Errorf("state sync store: SeekGC: %w", errors.ErrUnsupported)
}

func (s syncStore) Close() error { return nil }

func (s syncStore) PutChangeSet(puts map[string][]byte) error {
	if s.bc.closed.Load() {
		return ErrClosed
	}
	for k := range puts {
		if len(k) == 0 {
			return storage.ErrEmptyKey
		}
		switch storage.KeyPrefix(k[0]) {
		case storage.DataMPT, storage.STTempStorage, storage.SYSStateSyncPoint, storage.SYSStateSyncCurrentBlockHeight:
		default:
			return fmt.Errorf("state sync store: key prefix %#x is not writable", k[0])
		}
	}
	s.bc.persist.throttle()
	s.bc.commitMu.Lock()
	defer s.bc.commitMu.Unlock()
	return s.bc.dao.Store.PutChangeSet(puts)
}

// AddSyncBlock stores block b, whose header the chain knows, without
// executing it (state sync fetches the blocks before its sync point this
// way: no execution results, transactions with VM state NONE), and records
// b.Index as state sync's block height. It does not change BlockHeight.
func (bc *Blockchain) AddSyncBlock(b *block.Block) error {
	if bc.closed.Load() {
		return ErrClosed
	}
	if b.Index <= bc.BlockHeight() {
		return fmt.Errorf("%w: block %d", ErrAlreadyExists, b.Index)
	}
	if h := bc.headers.hash(b.Index); h != b.Hash() {
		return fmt.Errorf("%w: block %d: header %s, block %s", ErrBlockHashMismatch, b.Index, h.StringLE(), b.Hash().StringLE())
	}
	if b.ComputeMerkleRoot() != b.MerkleRoot {
		return fmt.Errorf("%w: block %d", ErrMerkleRoot, b.Index)
	}
	d := bc.dao.GetPrivate()
	if err := d.StoreAsBlock(b); err != nil {
		return err
	}
	for _, tx := range b.Transactions {
		if err := d.StoreAsTransaction(tx, b.Index, vmstate.None); err != nil {
			return err
		}
	}
	d.Store.Put(syncHeightKey, binary.LittleEndian.AppendUint32(nil, b.Index))
	bc.persist.throttle()
	bc.commitMu.Lock()
	defer bc.commitMu.Unlock()
	_, err := d.Persist()
	return err
}

// JumpToState makes the state of height p, collected by state sync, the
// chain's current state: the contract storage received under
// STTempStorage replaces the current one, the trie is opened at root (whose
// nodes must all be stored), block p becomes the current block (it and
// the header of p+1 must be stored) and the in-memory state is rebuilt.
// The jump is recorded in stages, each durable before the next, and
// resumes where it stopped when the chain is opened again after a crash.
// It also drops what belongs to the old state: transfer logs and, if p is
// beyond MaxTraceableBlocks, the genesis block. The validated state root
// height becomes p if root has a witness. Nothing else may use the chain
// during the jump.
func (bc *Blockchain) JumpToState(p uint32, root *stateroot.Root) error {
	if bc.closed.Load() {
		return ErrClosed
	}
	bc.addMu.Lock()
	defer bc.addMu.Unlock()
	if root == nil || root.Index != p {
		return fmt.Errorf("state jump: root for height %d", p)
	}
	if p <= bc.BlockHeight() {
		return fmt.Errorf("%w: state jump to %d at height %d", ErrAlreadyExists, p, bc.BlockHeight())
	}
	if p >= bc.HeaderHeight() {
		return fmt.Errorf("%w: state jump to %d needs header %d (header height %d)", ErrNotFound, p, p+1, bc.HeaderHeight())
	}
	if _, err := bc.dao.GetBlock(bc.headers.hash(p)); err != nil {
		return fmt.Errorf("state jump: block %d: %w", p, err)
	}
	if !root.RootHash.IsZero() {
		if _, err := bc.dao.Store.Get(mpt.NodeKey(root.RootHash)); err != nil {
			return fmt.Errorf("state jump: root node %s: %w", root.RootHash.StringLE(), err)
		}
	}
	bc.log.Info("state jump started", "point", p, "root", root.RootHash.StringLE())
	bc.commitMu.Lock()
	err := bc.dao.Store.PutChangeSet(map[string][]byte{
		string(jumpStageKey):         {jumpStarted},
		string(syncPointKey):         binary.LittleEndian.AppendUint32(nil, p),
		string(stateroot.RootKey(p)): root.Bytes(),
	})
	if err == nil {
		_, err = bc.dao.PersistSync()
	}
	if err == nil {
		err = bc.runStateJump(jumpStarted)
	}
	if err == nil {
		err = bc.reloadState()
	}
	bc.commitMu.Unlock()
	if err != nil {
		return err
	}
	bc.log.Info("state jump done", "height", bc.BlockHeight(), "root", bc.state.CurrentLocalStateRoot().StringLE())
	return nil
}

// resumeStateJump finishes a state jump a crash interrupted (called while
// the chain is opened, before anything reads the current block).
func (bc *Blockchain) resumeStateJump() error {
	v, err := bc.dao.Store.Get(jumpStageKey)
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(v) == 1 && v[0] >= resetStarted && v[0] <= resetStorageFreed {
		bc.log.Info("resuming an interrupted state reset", "stage", v[0]&^resetStageBit)
		return bc.runReset(v[0], nil)
	}
	if len(v) != 1 || v[0] == 0 || v[0] > maxJumpStageValue {
		return fmt.Errorf("%w: stage %x", errBadJumpData, v)
	}
	bc.log.Info("resuming an interrupted state jump", "stage", v[0])
	return bc.runStateJump(v[0])
}

// runStateJump runs the stages of a state jump from stage on.
func (bc *Blockchain) runStateJump(stage byte) error {
	setStage := func(s byte) error {
		bc.dao.Store.Put(jumpStageKey, []byte{s})
		_, err := bc.dao.PersistSync()
		return err
	}
	if stage == jumpStarted {
		if err := bc.jumpBatches(storage.STStorage, func(k, _ []byte, cs map[string][]byte) {
			cs[string(k)] = nil
		}); err != nil {
			return fmt.Errorf("state jump: removing the old storage: %w", err)
		}
		if err := setStage(jumpStorageFreed); err != nil {
			return err
		}
		stage = jumpStorageFreed
	}
	if stage == jumpStorageFreed {
		if err := bc.jumpBatches(storage.STTempStorage, func(k, v []byte, cs map[string][]byte) {
			nk := append([]byte{byte(storage.STStorage)}, k[1:]...)
			cs[string(nk)] = append([]byte{}, v...)
			cs[string(k)] = nil
		}); err != nil {
			return fmt.Errorf("state jump: moving the synced storage: %w", err)
		}
		if err := setStage(jumpStorageMoved); err != nil {
			return err
		}
	}
	return bc.finishStateJump()
}

// jumpBatches applies f to every key with prefix p, StateJumpBatch keys
// per durable write, until no key with the prefix is left (f must remove
// the key it is given).
func (bc *Blockchain) jumpBatches(p storage.KeyPrefix, f func(k, v []byte, cs map[string][]byte)) error {
	for {
		cs := make(map[string][]byte)
		n := 0
		bc.dao.Store.Seek(storage.SeekRange{Prefix: p.Bytes()}, func(k, v []byte) bool {
			f(k, v, cs)
			n++
			return n < StateJumpBatch
		})
		if n == 0 {
			return nil
		}
		if err := bc.dao.Store.PutChangeSet(cs); err != nil {
			return err
		}
		if _, err := bc.dao.PersistSync(); err != nil {
			return err
		}
	}
}

// finishStateJump writes the chain records of the new state in one change
// set and clears the jump's.
func (bc *Blockchain) finishStateJump() error {
	pv, err := bc.dao.Store.Get(syncPointKey)
	if err != nil || len(pv) != 4 {
		return fmt.Errorf("%w: sync point: %v", errBadJumpData, err)
	}
	p := binary.LittleEndian.Uint32(pv)
	root, err := stateroot.GetStateRoot(bc.dao.Store, p)
	if err != nil {
		return fmt.Errorf("%w: root of %d: %w", errBadJumpData, p, err)
	}
	hp, err := bc.dao.GetHeaderHash(p)
	if err != nil {
		return fmt.Errorf("%w: header %d: %w", errBadJumpData, p, err)
	}
	// Transfer logs describe the old state.
	for _, pre := range []storage.KeyPrefix{storage.STNEP11Transfers, storage.STNEP17Transfers, storage.STTokenTransferInfo} {
		if err := bc.jumpBatches(pre, func(k, _ []byte, cs map[string][]byte) { cs[string(k)] = nil }); err != nil {
			return fmt.Errorf("state jump: removing transfer logs: %w", err)
		}
	}
	d := bc.dao.GetPrivate()
	mtb := bc.cfg.MaxTraceableBlocks
	if v := d.GetStorageItem(nativenames.PolicyID, []byte{policyMaxTraceableBlocksKey}); v != nil {
		if n, ok := bigint.Int64FromBytes(v); ok && n > 0 && n <= 1<<32-1 {
			mtb = uint32(n)
		}
	}
	if p > mtb {
		if g, err := bc.dao.GetHeaderHash(0); err == nil {
			if _, err := d.DeleteBlock(g); err != nil && !errors.Is(err, storage.ErrKeyNotFound) {
				return fmt.Errorf("state jump: removing the genesis block: %w", err)
			}
		}
	}
	d.StoreAsCurrentBlock(hp, p)
	h := binary.LittleEndian.AppendUint32(nil, p)
	d.Store.Put(stateroot.LocalHeightKey(), h)
	if len(root.Witness) != 0 {
		d.Store.Put(stateroot.ValidatedHeightKey(), h)
	}
	d.Store.Delete(syncHeightKey)
	d.Store.Delete(jumpStageKey)
	if _, err := d.Persist(); err != nil {
		return err
	}
	_, err = bc.dao.PersistSync()
	return err
}

// policyMaxTraceableBlocksKey is Policy's storage key of
// MaxTraceableBlocks (C# Prefix_MaxTraceableBlocks).
const policyMaxTraceableBlocksKey = 23

// reloadState rebuilds the in-memory state of a running chain from the
// store after a jump (what opening the chain does).
func (bc *Blockchain) reloadState() error {
	curHash, height, err := bc.dao.GetCurrentBlock()
	if err != nil {
		return err
	}
	top, err := bc.dao.GetBlock(curHash)
	if err != nil {
		return err
	}
	if err := bc.state.Init(height); err != nil {
		return err
	}
	if err := bc.natives.InitializeCache(bc.dao, height); err != nil {
		return err
	}
	bc.top.Store(top)
	bc.height.Store(height)
	bc.gcMu.Lock()
	bc.gcLast = bc.firstStoredBlock(height)
	bc.gcMu.Unlock()
	return nil
}
