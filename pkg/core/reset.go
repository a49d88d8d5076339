package core

// State reset (neo-go's `db reset --height`): rolling a stopped chain back
// to an earlier block.

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transferlog"
)

// Stages of a state reset, recorded under SYSStateChangeStage like those
// of a state jump but with resetStageBit set (neo-go's stateResetBit).
// The target height is recorded under SYSStateSyncPoint.
const (
	resetStageBit byte = 0x80
	// resetStarted: the contract storage of the target height is under
	// STTempStorage; blocks, headers, state roots and transfer records
	// above it are being removed.
	resetStarted = resetStageBit | 1
	// resetLedgerDone: the ledger ends at the target height; the current
	// contract storage is being deleted.
	resetLedgerDone = resetStageBit | 2
	// resetStorageFreed: the old storage is gone; the target's is being
	// moved into place.
	resetStorageFreed = resetStageBit | 3
)

// ResetProgress reports a state reset's progress: step names the part at
// work ("storage", "blocks", "headers", "swap"), done counts its items so
// far and total is their number (-1 when unknown).
type ResetProgress func(step string, done, total int)

// Reset rolls the chain back to height h: blocks, transactions, execution
// results and headers above h are deleted, the contract storage becomes
// the state after block h (read from the trie at h's state root), state
// roots above h are deleted (the validated height becomes that of the
// newest validated root at most h), transfer records of later blocks are
// removed and the native caches are rebuilt. Every step is durable before
// the next; a reset a crash interrupted is finished when the chain is
// opened again. The chain must not be in use otherwise (it is meant for
// `n3node db reset` on a stopped node's database); progress may be nil.
//
// As neo-go, Reset refuses KeepOnlyLatestState databases (no old state).
// Unlike neo-go it also refuses RemoveUntraceableBlocks ones: their trie
// nodes carry reference counts and death heights of the later blocks,
// which would make garbage collection remove live nodes after the reset.
func (bc *Blockchain) Reset(h uint32, progress ResetProgress) error {
	if bc.closed.Load() {
		return ErrClosed
	}
	if progress == nil {
		progress = func(string, int, int) {}
	}
	bc.addMu.Lock()
	defer bc.addMu.Unlock()
	height, hdrHeight := bc.BlockHeight(), bc.HeaderHeight()
	switch {
	case h > height:
		return fmt.Errorf("current block height is %d, can't reset state to height %d", height, h)
	case h == height && hdrHeight == height:
		bc.log.Info("chain is at the proper state", "height", h)
		return nil
	case bc.cfg.KeepOnlyLatestState:
		return fmt.Errorf("KeepOnlyLatestState is enabled, state for height %d is outdated and removed from the storage", h)
	case bc.cfg.RemoveUntraceableBlocks:
		return errors.New("RemoveUntraceableBlocks is enabled: the trie's reference counts cannot be rolled back (rebuild the database with db restore instead)")
	}
	root, err := bc.GetStateRoot(h)
	if err != nil {
		return fmt.Errorf("state root of height %d: %w", h, err)
	}
	bc.log.Info("initializing state reset", "target height", h, "height", height, "headerHeight", hdrHeight)
	bc.commitMu.Lock()
	defer bc.commitMu.Unlock()
	if err := bc.flushAll(); err != nil {
		return err
	}
	// Leftovers of an interrupted state sync or an earlier failed start.
	if err := bc.jumpBatches(storage.STTempStorage, func(k, _ []byte, cs map[string][]byte) { cs[string(k)] = nil }); err != nil {
		return fmt.Errorf("state reset: clearing temporary storage: %w", err)
	}
	ts := bc.state.TrieStore(bc.dao.Store, root.RootHash)
	n := 0
	cs := make(map[string][]byte)
	var werr error
	ts.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes()}, func(k, v []byte) bool {
		nk := append([]byte{byte(storage.STTempStorage)}, k[1:]...)
		cs[string(nk)] = append([]byte{}, v...)
		n++
		if len(cs) >= StateJumpBatch {
			if werr = bc.writeDurable(cs); werr != nil {
				return false
			}
			cs = make(map[string][]byte)
			progress("storage", n, -1)
		}
		return true
	})
	if werr == nil {
		werr = ts.Err()
	}
	if werr != nil {
		return fmt.Errorf("state reset: copying the storage of height %d: %w", h, werr)
	}
	progress("storage", n, n)
	cs[string(jumpStageKey)] = []byte{resetStarted}
	cs[string(syncPointKey)] = binary.LittleEndian.AppendUint32(nil, h)
	if err := bc.writeDurable(cs); err != nil {
		return err
	}
	bc.log.Info("contract storage of the target height collected", "items", n)
	if err := bc.runReset(resetStarted, progress); err != nil {
		return err
	}
	if err := bc.reloadState(); err != nil {
		return err
	}
	bc.lastBatch.Store(nil) // the storage batch of a block that is gone
	top, _, err := bc.dao.GetTrimmedBlock(bc.top.Load().Hash())
	if err != nil {
		return err
	}
	if err := bc.headers.init(bc.dao, top); err != nil {
		return err
	}
	bc.log.Info("reset finished", "height", bc.BlockHeight(), "stateRoot", bc.state.CurrentLocalStateRoot().StringLE())
	return nil
}

// writeDurable writes the change set cs to the store at once.
func (bc *Blockchain) writeDurable(cs map[string][]byte) error {
	if err := bc.dao.Store.PutChangeSet(cs); err != nil {
		return err
	}
	_, err := bc.dao.PersistSync()
	return err
}

// runReset runs the stages of a state reset from stage on.
func (bc *Blockchain) runReset(stage byte, progress ResetProgress) error {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	pv, err := bc.dao.Store.Get(syncPointKey)
	if err != nil || len(pv) != 4 {
		return fmt.Errorf("%w: reset height: %v", errBadJumpData, err)
	}
	h := binary.LittleEndian.Uint32(pv)
	setStage := func(s byte) error {
		return bc.writeDurable(map[string][]byte{string(jumpStageKey): {s}})
	}
	if stage == resetStarted {
		if err := bc.resetLedger(h, progress); err != nil {
			return fmt.Errorf("state reset: %w", err)
		}
		if err := setStage(resetLedgerDone); err != nil {
			return err
		}
		stage = resetLedgerDone
	}
	if stage == resetLedgerDone {
		progress("swap", 0, 2)
		if err := bc.jumpBatches(storage.STStorage, func(k, _ []byte, cs map[string][]byte) {
			cs[string(k)] = nil
		}); err != nil {
			return fmt.Errorf("state reset: removing the current storage: %w", err)
		}
		if err := setStage(resetStorageFreed); err != nil {
			return err
		}
		stage = resetStorageFreed
	}
	if stage == resetStorageFreed {
		progress("swap", 1, 2)
		if err := bc.jumpBatches(storage.STTempStorage, func(k, v []byte, cs map[string][]byte) {
			cs[string(append([]byte{byte(storage.STStorage)}, k[1:]...))] = append([]byte{}, v...)
			cs[string(k)] = nil
		}); err != nil {
			return fmt.Errorf("state reset: moving the storage of height %d: %w", h, err)
		}
		progress("swap", 2, 2)
	}
	return bc.writeDurable(map[string][]byte{string(jumpStageKey): nil, string(syncPointKey): nil})
}

// resetLedger removes what lies above height h: blocks (with their
// transactions and execution results) and headers, state roots and
// transfer records; it moves the current block and header markers and the
// local and validated state heights to h. It can run again after a crash:
// what was removed stays removed.
func (bc *Blockchain) resetLedger(h uint32, progress ResetProgress) error {
	hb, err := bc.dao.GetHeaderHash(h)
	if err != nil {
		return fmt.Errorf("header %d: %w", h, err)
	}
	// Header hashes above h, read from the store (a resumed reset has no
	// in-memory header chain).
	var above []uint32
	bc.dao.Store.Seek(storage.SeekRange{Prefix: storage.IXHeaderHashList.Bytes(), Start: binary.BigEndian.AppendUint32(nil, h+1)}, func(k, _ []byte) bool {
		if len(k) == 5 {
			above = append(above, binary.BigEndian.Uint32(k[1:]))
		}
		return true
	})
	d := bc.dao.GetPrivate()
	for i, idx := range above {
		hh, err := d.GetHeaderHash(idx)
		if err != nil {
			return err
		}
		if _, err := d.DeleteBlock(hh); err != nil && !errors.Is(err, storage.ErrKeyNotFound) {
			return fmt.Errorf("block %d: %w", idx, err)
		}
		if d.Store.Len() >= StateJumpBatch {
			if _, err := d.Persist(); err != nil {
				return err
			}
			if _, err := bc.dao.PersistSync(); err != nil {
				return err
			}
			progress("blocks", i+1, len(above))
		}
	}
	progress("blocks", len(above), len(above))
	for _, idx := range above {
		d.DeleteHeaderHash(idx)
	}
	d.StoreAsCurrentBlock(hb, h)
	d.PutCurrentHeader(hb, h)
	// State roots above h; the validated height is that of the newest
	// validated root at most h.
	var (
		validated []byte
		stale     [][]byte
	)
	d.Store.Seek(storage.SeekRange{Prefix: storage.DataMPTAux.Bytes()}, func(k, v []byte) bool {
		if len(k) != 5 {
			return true
		}
		idx := binary.BigEndian.Uint32(k[1:])
		if idx > h {
			stale = append(stale, append([]byte{}, k...))
		} else if r, err := stateroot.RootFromBytes(v); err == nil && len(r.Witness) != 0 {
			validated = binary.LittleEndian.AppendUint32(nil, idx)
		}
		return true
	})
	for _, k := range stale {
		d.Store.Delete(k)
	}
	d.Store.Put(stateroot.LocalHeightKey(), binary.LittleEndian.AppendUint32(nil, h))
	if validated != nil {
		d.Store.Put(stateroot.ValidatedHeightKey(), validated)
	} else {
		d.Store.Delete(stateroot.ValidatedHeightKey())
	}
	cs := make(map[string][]byte)
	if err := transferlog.Truncate(d.Store, h, cs); err != nil {
		return fmt.Errorf("transfer records: %w", err)
	}
	for k, v := range cs {
		if v == nil {
			d.Store.Delete([]byte(k))
		} else {
			d.Store.Put([]byte(k), v)
		}
	}
	progress("headers", len(above), len(above))
	if _, err := d.Persist(); err != nil {
		return err
	}
	_, err = bc.dao.PersistSync()
	return err
}
