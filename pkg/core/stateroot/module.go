package stateroot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Record keys under storage.DataMPTAux.
const (
	prefixLocal     = 0x02
	prefixValidated = 0x03
)

// Errors of the module.
var (
	// ErrNotFound: no state root is recorded for the height.
	ErrNotFound = storage.ErrKeyNotFound
	// ErrCorrupt: a stored record does not decode.
	ErrCorrupt = errors.New("stateroot: corrupt record")
	// ErrHeight: AddBlock was given a height that does not follow the
	// module's.
	ErrHeight = errors.New("stateroot: unexpected height")
)

// RootKey returns the store key of the state root of height index.
func RootKey(index uint32) []byte {
	k := make([]byte, 5)
	k[0] = byte(storage.DataMPTAux)
	binary.BigEndian.PutUint32(k[1:], index)
	return k
}

var (
	localKey     = []byte{byte(storage.DataMPTAux), prefixLocal}
	validatedKey = []byte{byte(storage.DataMPTAux), prefixValidated}
)

// ModeFor returns the trie mode of the ledger settings (neo-go
// stateroot.NewModule).
func ModeFor(l config.Ledger) mpt.Mode {
	var m mpt.Mode
	if l.KeepOnlyLatestState {
		m |= mpt.ModeLatest
	}
	if l.RemoveUntraceableBlocks {
		m |= mpt.ModeGC
	}
	return m
}

// Module is the local state-root module (see the package documentation).
// AddBlock, Abort and Committed must be called by one goroutine at a time;
// the other methods are safe for concurrent use.
type Module struct {
	mode  mpt.Mode
	store storage.Store

	mu      sync.Mutex // guards trie and pending
	trie    *mpt.Trie
	pending *Root // added, not yet committed

	height    atomic.Uint32
	root      atomic.Pointer[hash.Uint256]
	validated atomic.Uint32
}

// NewModule returns a module whose trie lives in store (the ledger's
// long-lived layer, where the caller writes AddBlock's change sets).
func NewModule(mode mpt.Mode, store storage.Store) *Module {
	m := &Module{mode: mode, store: store}
	m.root.Store(&hash.Uint256{})
	return m
}

// Mode returns the trie mode.
func (m *Module) Mode() mpt.Mode { return m.mode }

// Init opens the trie at the root recorded for height, or an empty trie for
// a new chain (nothing recorded and height 0).
func (m *Module) Init(height uint32) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, err := m.store.Get(validatedKey); err == nil && len(v) == 4 {
		m.validated.Store(binary.LittleEndian.Uint32(v))
	}
	r, err := GetStateRoot(m.store, height)
	if err != nil {
		if height == 0 && errors.Is(err, ErrNotFound) {
			m.trie = mpt.NewTrie(hash.Uint256{}, m.mode, m.store)
			m.height.Store(0)
			m.root.Store(&hash.Uint256{})
			return nil
		}
		return fmt.Errorf("state root of height %d: %w", height, err)
	}
	m.trie = mpt.NewTrie(r.RootHash, m.mode, m.store)
	m.height.Store(r.Index)
	root := r.RootHash
	m.root.Store(&root)
	m.pending = nil
	return nil
}

// AddBlock applies the contract-storage changes of the block at index
// (keys with the 0x70 prefix byte, nil value = deleted) to the trie and adds
// the node writes, the root record and the local height to dst. The caller
// must write dst to the module's store before the next AddBlock, then call
// Committed; or call Abort if it drops the block.
func (m *Module) AddBlock(index uint32, changes map[string][]byte, dst map[string][]byte) (*Root, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending != nil {
		return nil, fmt.Errorf("%w: block %d added while %d is pending", ErrHeight, index, m.pending.Index)
	}
	if h := m.height.Load(); index != h+1 && !(index == 0 && h == 0 && m.root.Load().IsZero()) {
		return nil, fmt.Errorf("%w: %d after %d", ErrHeight, index, h)
	}
	b, err := mpt.MapToBatch(changes, 1)
	if err != nil {
		return nil, err
	}
	if err := m.trie.PutBatch(b); err != nil {
		m.reopen()
		return nil, fmt.Errorf("apply storage changes of block %d: %w", index, err)
	}
	r := &Root{Index: index, RootHash: m.trie.StateRoot()}
	if err := m.trie.FlushTo(index, dst); err != nil {
		m.reopen()
		return nil, fmt.Errorf("flush trie of block %d: %w", index, err)
	}
	dst[string(RootKey(index))] = r.Bytes()
	dst[string(localKey)] = binary.LittleEndian.AppendUint32(nil, index)
	m.pending = r
	return r, nil
}

// reopen discards the in-memory trie and reopens it at the last committed
// root (after a failed change).
func (m *Module) reopen() {
	m.trie = mpt.NewTrie(*m.root.Load(), m.mode, m.store)
	m.pending = nil
}

// Abort drops the pending block: the trie goes back to the last committed
// root. The caller must not have written the change set.
func (m *Module) Abort() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reopen()
}

// Committed publishes the pending root once its change set is in the
// store, and compacts the in-memory trie.
func (m *Module) Committed() {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.pending
	if r == nil {
		return
	}
	m.pending = nil
	m.trie.Collapse(mpt.DefaultCollapseDepth)
	root := r.RootHash
	m.root.Store(&root)
	m.height.Store(r.Index)
}

// CurrentLocalHeight returns the height of the latest committed root.
func (m *Module) CurrentLocalHeight() uint32 { return m.height.Load() }

// CurrentLocalStateRoot returns the latest committed root hash.
func (m *Module) CurrentLocalStateRoot() hash.Uint256 { return *m.root.Load() }

// CurrentValidatedHeight returns the height of the latest root validated
// by the state validators (0 without a StateService).
func (m *Module) CurrentValidatedHeight() uint32 { return m.validated.Load() }

// GetStateRoot returns the state root recorded in store for height.
func GetStateRoot(store storage.Store, height uint32) (*Root, error) {
	v, err := store.Get(RootKey(height))
	if err != nil {
		return nil, err
	}
	return RootFromBytes(v)
}

// readMode is the mode for read-only tries: reads do not depend on it, and
// the GC flag must not be set for a trie that never flushes.
func (m *Module) readMode() mpt.Mode { return m.mode &^ mpt.ModeGCFlag }

// GetState returns the value of key (contract id LE + storage key) in the
// trie with the given root, as stored in store.
func (m *Module) GetState(store storage.Store, root hash.Uint256, key []byte) ([]byte, error) {
	return mpt.NewTrie(root, m.readMode(), store).Get(key)
}

// FindStates returns up to max items whose keys start with prefix, after
// prefix+start (see mpt.Trie.Find), from the trie with the given root.
func (m *Module) FindStates(store storage.Store, root hash.Uint256, prefix, start []byte, max int) ([]mpt.KeyValue, error) {
	return mpt.NewTrie(root, m.readMode(), store).Find(prefix, start, max)
}

// GetProof returns the proof of key in the trie with the given root.
func (m *Module) GetProof(store storage.Store, root hash.Uint256, key []byte) ([][]byte, error) {
	return mpt.NewTrie(root, m.readMode(), store).GetProof(key)
}

// TrieStore returns a read-only storage.Store view of the contract storage
// (0x70-prefixed keys) at root, for historic invocations.
func (m *Module) TrieStore(store storage.Store, root hash.Uint256) *mpt.TrieStore {
	return mpt.NewTrieStore(root, m.readMode(), store, []byte{byte(storage.STStorage)})
}

// GetLatestStateHeight returns the highest height at or below the local
// height whose root is root (neo-go Module.GetLatestStateHeight).
func (m *Module) GetLatestStateHeight(store storage.Store, root hash.Uint256) (uint32, error) {
	var (
		h     uint32
		found bool
		key   = RootKey(m.height.Load())
	)
	store.Seek(storage.SeekRange{Prefix: key[:1], Start: key[1:], Backwards: true}, func(k, v []byte) bool {
		if len(k) == 5 && len(v) >= 1+4+hash.Uint256Size && hash.Uint256(v[5:5+hash.Uint256Size]) == root {
			h = binary.BigEndian.Uint32(k[1:])
			found = true
			return false
		}
		return true
	})
	if !found {
		return 0, ErrNotFound
	}
	return h, nil
}

// CollectGarbage removes the trie nodes that died at or below height
// (ModeGC only; a no-op otherwise) and returns how many.
func (m *Module) CollectGarbage(store storage.Store, height uint32) (int, error) {
	if !m.mode.GC() {
		return 0, nil
	}
	return mpt.CollectGarbage(store, height)
}
