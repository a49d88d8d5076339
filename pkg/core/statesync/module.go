package statesync

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
)

// Ledger is what the module needs of the Blockchain (pkg/core). Methods
// must be safe for concurrent use.
type Ledger interface {
	BlockHeight() uint32
	HeaderHeight() uint32
	// GetHeaderHash returns the hash of the known header at index (zero
	// if none).
	GetHeaderHash(index uint32) hash.Uint256
	// StateSyncStore is the store the sync data goes to: reads see the
	// committed chain; writes may only touch MPT nodes, STTempStorage and
	// the state sync records.
	StateSyncStore() storage.Store
	// AddSyncBlock stores a block whose header is known, without executing
	// it, and records it as the state sync's block height.
	AddSyncBlock(b *block.Block) error
	// JumpToState makes the collected state of height p (root) the chain's
	// current state: see core.Blockchain.JumpToState.
	JumpToState(p uint32, root *coreroot.Root) error
}

// RootSource returns the trusted state root of sync point p (see the
// package documentation). An error means "not available yet": the module
// asks again later.
type RootSource func(p uint32) (*coreroot.Root, error)

// Config configures a Module.
type Config struct {
	// Sync makes the node gather the state of a sync point when it starts
	// far behind its peers (neo-go does it only with
	// P2PStateExchangeExtensions and RemoveUntraceableBlocks). Without it
	// the module only serves MPT nodes to others.
	Sync bool
	// Interval is StateSyncInterval: sync points are its multiples.
	Interval uint32
	// MaxTraceableBlocks is the protocol's value, used unless the state of
	// the sync point holds Policy's (from HF_Echidna).
	MaxTraceableBlocks uint32
	// Mode is the chain's trie mode (stateroot.ModeFor): the stored node
	// format of the trie the module serves.
	Mode mpt.Mode
	// Root gives the trusted root of a sync point (required with Sync).
	Root RootSource
	// Logger receives the module's log (nil: slog.Default()).
	Logger *slog.Logger
}

// Errors.
var (
	// ErrNotRequested: data for a stage that is not running.
	ErrNotRequested = errors.New("statesync: data was not requested")
	// ErrOutdated: the database holds an unfinished sync of an older point
	// (neo-go refuses to start too; drop the database).
	ErrOutdated = errors.New("statesync: unfinished state sync of an outdated point; drop the database")
	// ErrStarted: the chain went past genesis in the regular way but is
	// too far behind to continue so.
	ErrStarted = errors.New("statesync: chain too far behind and not at genesis; drop the database")
	// ErrBadBlock: a block that does not match its header.
	ErrBadBlock = errors.New("statesync: block does not match the header chain")
	// ErrNoHeaders: the header chain lacks the first traceable block of
	// the sync point (it starts from a TrustedHeader above it).
	ErrNoHeaders = errors.New("statesync: no header for the first traceable block; set TrustedHeader at or below it")
)

type stage uint8

// Stages (neo-go's, as bits).
const (
	inactive    stage = 1 << iota // nothing to do (only serving)
	none                          // Init not called yet
	initialized                   // headers up to P+1 wanted
	headersSynced
	mptSynced
	blocksSynced
)

// Module gathers the data of a state sync point and jumps the chain to it
// (see the package documentation). All methods are safe for concurrent
// use.
type Module struct {
	cfg Config
	bc  Ledger
	log *slog.Logger

	mu         sync.Mutex
	stage      stage
	point      uint32
	root       *coreroot.Root
	billet     *mpt.Billet
	blockStart uint32 // blocks (blockStart, point] are stored
	height     uint32 // latest block stored
}

// New returns a module over bc.
func New(cfg Config, bc Ledger) *Module {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	m := &Module{cfg: cfg, bc: bc, log: cfg.Logger.With("module", "statesync"), stage: inactive}
	if cfg.Sync && cfg.Interval > 0 && cfg.Root != nil {
		m.stage = none
	}
	return m
}

// Store keys of the sync records (neo-go's: SYSStateSyncPoint and
// SYSStateSyncCurrentBlockHeight, u32 LE values).
var (
	pointKey  = []byte{byte(storage.SYSStateSyncPoint)}
	heightKey = []byte{byte(storage.SYSStateSyncCurrentBlockHeight)}
)

func getU32(st storage.Store, k []byte) (uint32, bool) {
	v, err := st.Get(k)
	if err != nil || len(v) != 4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(v), true
}

// Init starts the sync for the chain height the peers report (the median
// of their heights, say): the latest sync point P at or below it. If the
// chain is close enough to P for the regular sync, or P is below twice
// the interval, the module becomes inactive. An unfinished sync recorded
// in the store is resumed if its point is still recent.
func (m *Module) Init(remoteHeight uint32) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stage != none {
		return errors.New("statesync: already initialized or inactive")
	}
	iv := m.cfg.Interval
	p := remoteHeight / iv * iv
	if p < 2*iv {
		m.stage = inactive
		return nil
	}
	bh := m.bc.BlockHeight()
	if bh > p-2*iv {
		m.stage = inactive
		return nil
	}
	st := m.bc.StateSyncStore()
	if old, ok := getU32(st, pointKey); ok {
		if old < p-iv {
			return fmt.Errorf("%w: point %d, peers at %d", ErrOutdated, old, remoteHeight)
		}
		p = old
	} else {
		if bh != 0 {
			return fmt.Errorf("%w: height %d, sync point %d", ErrStarted, bh, p)
		}
		// Fresh start at genesis: drop the genesis trie nodes (the billet
		// must find only its own nodes) and any stray temporary items.
		if err := clearPrefix(st, storage.DataMPT); err != nil {
			return err
		}
		if err := clearPrefix(st, storage.STTempStorage); err != nil {
			return err
		}
		if err := st.PutChangeSet(map[string][]byte{string(pointKey): binary.LittleEndian.AppendUint32(nil, p)}); err != nil {
			return err
		}
	}
	m.point = p
	m.stage = initialized
	m.log.Info("state sync started", "point", p, "remoteHeight", remoteHeight)
	return m.update()
}

// clearPrefix deletes every key with prefix p, in batches.
func clearPrefix(st storage.Store, p storage.KeyPrefix) error {
	for {
		del := make(map[string][]byte)
		st.Seek(storage.SeekRange{Prefix: p.Bytes()}, func(k, _ []byte) bool {
			del[string(k)] = nil
			return len(del) < clearBatch
		})
		if len(del) == 0 {
			return nil
		}
		if err := st.PutChangeSet(del); err != nil {
			return fmt.Errorf("statesync: clearing prefix %#x: %w", byte(p), err)
		}
	}
}

const clearBatch = 10000

// Update moves the sync on when the chain has what the current stage
// waited for (headers beyond the point, the trusted root); the network
// calls it periodically. It jumps when everything is collected.
func (m *Module) Update() error {
	return locked(m, m.update)
}

func (m *Module) update() error {
	if m.stage&(inactive|none) != 0 {
		return nil
	}
	if m.stage == initialized && m.bc.HeaderHeight() > m.point {
		m.stage = headersSynced
		m.log.Info("state sync: headers in sync", "headerHeight", m.bc.HeaderHeight())
	}
	if m.stage&headersSynced != 0 && m.billet == nil && m.stage&mptSynced == 0 {
		r, err := m.cfg.Root(m.point)
		if err != nil {
			m.log.Debug("state sync: no trusted root yet", "point", m.point, "err", err)
			return nil
		}
		if r.Index != m.point {
			return fmt.Errorf("statesync: trusted root of height %d for point %d", r.Index, m.point)
		}
		m.root = r
		b, err := mpt.NewBillet(r.RootHash, m.syncMode(), m.bc.StateSyncStore())
		if err != nil {
			return fmt.Errorf("statesync: MPT billet: %w", err)
		}
		m.billet = b
		m.log.Info("state sync: fetching the state", "point", m.point, "root", r.RootHash.StringLE(), "missing", b.MissingCount())
		if err := m.mptDone(); err != nil {
			return err
		}
	}
	return m.checkBlocks()
}

// syncMode is the mode restored nodes are stored in: the chain's, without
// the GC flag (restored nodes are alive; the ModeGC format of live nodes is
// ModeLatest's).
func (m *Module) syncMode() mpt.Mode { return m.cfg.Mode &^ mpt.ModeGCFlag }

// mptDone moves to the block stage once the billet is complete.
func (m *Module) mptDone() error {
	if !m.billet.IsComplete() {
		return nil
	}
	var start uint32
	if mtb := m.maxTraceableBlocks(); m.point > mtb {
		start = m.point - mtb
	}
	height := start
	if h, ok := getU32(m.bc.StateSyncStore(), heightKey); ok && h > height {
		height = h
	}
	if height < m.point && m.bc.GetHeaderHash(height+1).IsZero() {
		return fmt.Errorf("%w: block %d of point %d", ErrNoHeaders, height+1, m.point)
	}
	m.stage |= mptSynced
	m.billet = nil
	m.blockStart, m.height = start, height
	m.log.Info("state sync: state in sync", "point", m.point, "blocksFrom", m.blockStart+1)
	return nil
}

// checkBlocks notes the block stage's end and jumps when everything is
// there.
func (m *Module) checkBlocks() error {
	if m.stage&mptSynced != 0 && m.height >= m.point {
		m.stage |= blocksSynced
	}
	if m.stage != headersSynced|mptSynced|blocksSynced {
		return nil
	}
	m.log.Info("state sync: jumping to the sync point", "point", m.point)
	if err := m.bc.JumpToState(m.point, m.root); err != nil {
		return fmt.Errorf("statesync: state jump to %d: %w", m.point, err)
	}
	m.stage = inactive
	return nil
}

// maxTraceableBlocks returns Policy's MaxTraceableBlocks in the restored
// state (HF_Echidna on), else the protocol value (neo-go
// getLatestSavedBlock).
func (m *Module) maxTraceableBlocks() uint32 {
	k := []byte{byte(storage.STTempStorage), 0, 0, 0, 0, policyMaxTraceableBlocks}
	id := nativenames.PolicyID
	binary.LittleEndian.PutUint32(k[1:], uint32(id))
	if v, err := m.bc.StateSyncStore().Get(k); err == nil {
		if n, ok := bigint.Int64FromBytes(v); ok && n > 0 && n <= 1<<32-1 {
			return uint32(n)
		}
	}
	return m.cfg.MaxTraceableBlocks
}

// policyMaxTraceableBlocks is the Policy contract's storage key of
// MaxTraceableBlocks (C# PolicyContract Prefix_MaxTraceableBlocks).
const policyMaxTraceableBlocks = 23

// locked returns f's result computed under the module's lock.
func locked[T any](m *Module, f func() T) T {
	m.mu.Lock()
	defer m.mu.Unlock()
	return f()
}

// IsActive reports whether the module still gathers data (or waits for
// Init): while it does, the node must not sync blocks the regular way.
func (m *Module) IsActive() bool {
	return locked(m, func() bool { return m.stage != inactive })
}

// IsInitialized reports whether Init was called (or is not needed).
func (m *Module) IsInitialized() bool {
	return locked(m, func() bool { return m.stage != none })
}

// NeedHeaders reports whether headers up to the point + 1 are wanted.
func (m *Module) NeedHeaders() bool {
	return locked(m, func() bool { return m.stage == initialized })
}

// NeedMPTData reports whether MPT nodes are wanted.
func (m *Module) NeedMPTData() bool {
	return locked(m, func() bool { return m.stage&headersSynced != 0 && m.stage&mptSynced == 0 && m.billet != nil })
}

// NeedBlocks reports whether blocks up to the point are wanted.
func (m *Module) NeedBlocks() bool {
	return locked(m, func() bool { return m.stage&mptSynced != 0 && m.stage&blocksSynced == 0 })
}

// SyncPoint returns the sync point P (0 before Init).
func (m *Module) SyncPoint() uint32 {
	return locked(m, func() uint32 { return m.point })
}

// BlockHeight returns the height of the latest block stored by the
// module; the next wanted block is BlockHeight()+1. Before the block
// stage it is 0; it only grows.
func (m *Module) BlockHeight() uint32 {
	return locked(m, func() uint32 { return m.height })
}

// MissingMPTNodes returns up to max hashes of MPT nodes to request.
func (m *Module) MissingMPTNodes(max int) []hash.Uint256 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.billet == nil {
		return nil
	}
	return m.billet.Missing(max)
}

// AddMPTNodes restores the nodes it is given (an mptdata payload): nodes
// nobody asked for are ignored, as peers may send a node twice; a node that
// does not decode fails the call (the peer sent garbage). Leaves become
// contract storage items under STTempStorage, written with the nodes.
func (m *Module) AddMPTNodes(nodes [][]byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.billet == nil {
		return ErrNotRequested
	}
	dst := make(map[string][]byte)
	m.billet.OnLeaf = func(key, value []byte) {
		dst[string(append([]byte{byte(storage.STTempStorage)}, key...))] = value
	}
	var ferr error
	for _, b := range nodes {
		n, err := mpt.DecodeNode(b)
		if err != nil {
			ferr = fmt.Errorf("statesync: MPT node: %w", err)
			break
		}
		if n == nil {
			continue
		}
		if err := m.billet.RestoreNode(n); err != nil {
			ferr = err
			break
		}
	}
	m.billet.FlushTo(dst)
	if len(dst) > 0 {
		if err := m.bc.StateSyncStore().PutChangeSet(dst); err != nil {
			// The billet's view is now ahead of the store: start it again
			// from what is stored.
			m.billet = nil
			return fmt.Errorf("statesync: writing MPT nodes: %w", err)
		}
	}
	if ferr != nil {
		return ferr
	}
	if err := m.mptDone(); err != nil {
		return err
	}
	return m.checkBlocks()
}

// AddBlock stores the next block of the block stage (BlockHeight()+1); it
// must match the header chain. Blocks of other heights or outside the
// stage are refused.
func (m *Module) AddBlock(b *block.Block) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stage&mptSynced == 0 || m.stage&blocksSynced != 0 {
		return ErrNotRequested
	}
	if b.Index != m.height+1 {
		return fmt.Errorf("statesync: block %d, expected %d", b.Index, m.height+1)
	}
	if h := m.bc.GetHeaderHash(b.Index); h != b.Hash() {
		return fmt.Errorf("%w: block %d is %s, header %s", ErrBadBlock, b.Index, b.Hash().StringLE(), h.StringLE())
	}
	if b.ComputeMerkleRoot() != b.MerkleRoot {
		return fmt.Errorf("%w: block %d: merkle root", ErrBadBlock, b.Index)
	}
	if err := m.bc.AddSyncBlock(b); err != nil {
		return err
	}
	m.height = b.Index
	return m.checkBlocks()
}
