package core

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// DBVersion names the database format this package writes.
const DBVersion = "n3node-1"

// Defaults of Options.
const (
	DefaultPersistInterval = time.Second
	// DefaultLookahead is how many blocks a pipelined import prepares
	// (decodes and checks statelessly) ahead of execution.
	DefaultLookahead = 16
)

// Options tune a Blockchain; the zero value is a node's defaults.
type Options struct {
	// Logger receives the chain's log lines (nil: slog.Default()).
	Logger *slog.Logger
	// PersistInterval is how often the in-memory layer is written to disk
	// (default 1s).
	PersistInterval time.Duration
	// MaxPendingKeys caps the number of changed keys held in memory above
	// the disk store: block processing waits while more are pending. 0
	// leaves only the adaptive limit (4 times the keys the disk took per
	// PersistInterval, as neo-go does).
	MaxPendingKeys int
	// Verifiers is the number of goroutines that check blocks and
	// transactions ahead of execution (0: GOMAXPROCS).
	Verifiers int
	// Lookahead is how many blocks AddBlocks prepares ahead (0:
	// DefaultLookahead).
	Lookahead int
}

// Blockchain is the ledger: it verifies and executes blocks, keeps the
// chain state and its indexes in a storage.Store and answers queries about
// them. All exported methods are safe for concurrent use.
type Blockchain struct {
	cfg     *config.Blockchain
	natives *native.Contracts
	log     *slog.Logger
	opts    Options

	store storage.Store
	fault readFault // the first failed read (readfault.go)
	// dao is the committed layer: whole blocks only; readers use it.
	dao *dao.Simple
	// stage is the pipeline's layer over dao: the block being committed
	// (and the next block's execution reads through it).
	stage *dao.Simple

	state   *stateroot.Module
	headers headerChain
	pool    *mempool.Pool

	// addMu serializes block producers (AddBlock, AddBlocks).
	addMu sync.Mutex
	// commitMu is held for writing while a block's changes land in dao;
	// verification against the committed state holds it for reading.
	commitMu sync.RWMutex
	height   atomic.Uint32
	top      atomic.Pointer[block.Block]
	// lastBatch is the latest block's storage changes (SaveStorageBatch).
	lastBatch atomic.Pointer[chaindump.StorageBatch]

	persist    *persister
	events     *dispatcher
	poolFeed   poolFeed
	stats      pipelineStats
	extensible senders
	closed     atomic.Bool

	gcMu   sync.Mutex
	gcLast uint32 // blocks below were removed (RemoveUntraceableBlocks)
}

// chainParams are the settings a database is bound to, beside
// dao.Version.
type chainParams struct {
	_                 struct{} `cbor:",toarray"`
	Magic             uint32
	StateRootInHeader bool
	P2PSigExtensions  bool
	Genesis           hash.Uint256
}

var chainParamsKey = []byte{byte(storage.SYSVersion), 1}

const chainParamsV1 = 1

// New opens the chain stored in store for the configuration cfg: an empty
// store is initialized with the genesis block built from cfg; a stored
// chain is checked against cfg (format version, ledger settings, magic,
// genesis) and its native caches are rebuilt. The Blockchain owns store
// from then on: Close closes it (New closes it on error too).
func New(cfg config.Blockchain, store storage.Store, opts Options) (*Blockchain, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.PersistInterval <= 0 {
		opts.PersistInterval = DefaultPersistInterval
	}
	if opts.Verifiers <= 0 {
		opts.Verifiers = runtime.GOMAXPROCS(0)
	}
	if opts.Lookahead <= 0 {
		opts.Lookahead = DefaultLookahead
	}
	if cfg.RemoveUntraceableBlocks && cfg.GarbageCollectionPeriod == 0 {
		cfg.GarbageCollectionPeriod = config.DefaultGCPeriod
	}
	c := cfg
	bc := &Blockchain{
		cfg:   &c,
		log:   opts.Logger,
		opts:  opts,
		store: store,
		fault: readFault{ch: make(chan struct{})},
	}
	bc.dao = dao.NewSimple(readGuard{store, bc})
	bc.dao.StateRootInHeader = c.StateRootInHeader
	bc.natives = native.NewContracts(bc.cfg)
	bc.stage = bc.dao.GetWrapped()
	bc.state = stateroot.NewModule(stateroot.ModeFor(c.Ledger), bc.stage.Store)
	bc.pool = mempool.New(c.MemPoolSize, mempool.Options{})
	bc.events = newDispatcher()
	bc.persist = newPersister(bc)
	err := bc.init()
	if err == nil {
		err = bc.ReadErr()
	}
	if err != nil {
		bc.events.stop()
		_ = store.Close()
		return nil, err
	}
	bc.persist.start()
	return bc, nil
}

func (bc *Blockchain) init() error {
	ver, err := bc.dao.GetVersion()
	if errors.Is(err, storage.ErrKeyNotFound) {
		return bc.initGenesis()
	}
	if err != nil {
		return fmt.Errorf("%w: version record: %w", ErrVersionMismatch, err)
	}
	if ver.Value != DBVersion {
		return fmt.Errorf("%w: database format %q, expected %q", ErrVersionMismatch, ver.Value, DBVersion)
	}
	if ver.KeepOnlyLatestState != bc.cfg.KeepOnlyLatestState {
		return fmt.Errorf("%w: KeepOnlyLatestState is %v in the database, %v in the configuration",
			ErrVersionMismatch, ver.KeepOnlyLatestState, bc.cfg.KeepOnlyLatestState)
	}
	if ver.RemoveUntraceableBlocks != bc.cfg.RemoveUntraceableBlocks {
		return fmt.Errorf("%w: RemoveUntraceableBlocks is %v in the database, %v in the configuration",
			ErrVersionMismatch, ver.RemoveUntraceableBlocks, bc.cfg.RemoveUntraceableBlocks)
	}
	g, err := CreateGenesisBlock(&bc.cfg.ProtocolConfiguration)
	if err != nil {
		return err
	}
	var params chainParams
	pv, err := bc.dao.Store.Get(chainParamsKey)
	if err == nil {
		err = state.DecodeRecord(pv, chainParamsV1, &params)
	}
	if err != nil {
		return fmt.Errorf("%w: chain parameters record: %w", ErrVersionMismatch, err)
	}
	if want := bc.params(g); params != want {
		if params.Magic != want.Magic || params.Genesis != want.Genesis {
			return fmt.Errorf("%w: database magic %d, genesis %s; configuration magic %d, genesis %s",
				ErrGenesisMismatch, params.Magic, params.Genesis.StringLE(), want.Magic, want.Genesis.StringLE())
		}
		return fmt.Errorf("%w: StateRootInHeader/P2PSigExtensions %v/%v in the database, %v/%v in the configuration",
			ErrVersionMismatch, params.StateRootInHeader, params.P2PSigExtensions, want.StateRootInHeader, want.P2PSigExtensions)
	}
	if err := bc.resumeStateJump(); err != nil {
		return fmt.Errorf("state jump: %w", err)
	}
	curHash, height, err := bc.dao.GetCurrentBlock()
	if err != nil {
		return fmt.Errorf("%w: current block: %w", dao.ErrCorrupt, err)
	}
	hdrHash, _, err := bc.dao.GetCurrentHeader()
	if err != nil {
		return fmt.Errorf("%w: current header: %w", dao.ErrCorrupt, err)
	}
	topHdr, _, err := bc.dao.GetTrimmedBlock(hdrHash)
	if err != nil {
		return fmt.Errorf("%w: header %s: %w", dao.ErrCorrupt, hdrHash.StringLE(), err)
	}
	if err := bc.headers.init(bc.dao, topHdr); err != nil {
		return fmt.Errorf("%w: header hashes: %w", dao.ErrCorrupt, err)
	}
	if err := bc.headers.setTrusted(bc.cfg.TrustedHeader, height); err != nil {
		return err
	}
	topBlock, err := bc.dao.GetBlock(curHash)
	if err != nil {
		return fmt.Errorf("%w: block %d: %w", dao.ErrCorrupt, height, err)
	}
	bc.top.Store(topBlock)
	bc.height.Store(height)
	if err := bc.state.Init(height); err != nil {
		return fmt.Errorf("%w: %w", dao.ErrCorrupt, err)
	}
	if err := bc.natives.InitializeCache(bc.dao, height); err != nil {
		return err
	}
	if err := bc.checkNatives(height); err != nil {
		return err
	}
	bc.gcLast = bc.firstStoredBlock(height)
	bc.log.Info("chain opened", "height", height, "headerHeight", topHdr.Index, "stateRoot", bc.state.CurrentLocalStateRoot().StringLE())
	return nil
}

func (bc *Blockchain) params(g *block.Block) chainParams {
	return chainParams{
		Magic:             uint32(bc.cfg.Magic),
		StateRootInHeader: bc.cfg.StateRootInHeader,
		P2PSigExtensions:  bc.cfg.P2PSigExtensions,
		Genesis:           g.Hash(),
	}
}

// firstStoredBlock returns the lowest block index whose header hash is
// still stored (after untraceable blocks were removed).
func (bc *Blockchain) firstStoredBlock(height uint32) uint32 {
	var first uint32
	bc.dao.Store.Seek(storage.SeekRange{Prefix: storage.IXHeaderHashList.Bytes()}, func(k, _ []byte) bool {
		if len(k) == 5 {
			first = uint32(k[1])<<24 | uint32(k[2])<<16 | uint32(k[3])<<8 | uint32(k[4])
		}
		return false
	})
	return min(first, height)
}

// initGenesis initializes an empty store: version records, then the
// genesis block through the ordinary pipeline, written to disk at once.
func (bc *Blockchain) initGenesis() error {
	g, err := CreateGenesisBlock(&bc.cfg.ProtocolConfiguration)
	if err != nil {
		return err
	}
	if t := bc.cfg.TrustedHeader.Index; t > 0 && bc.cfg.P2PStateExchangeExtensions {
		// The state sync point and its traceable blocks must be above it
		// (neo-go's condition and text).
		if low := max(uint32(2*bc.cfg.StateSyncInterval), bc.cfg.MaxTraceableBlocks); t <= low {
			return fmt.Errorf("trusted header is too low to start state synchronization: need at least %d, got %d", low, t)
		}
	}
	if err := bc.dao.PutVersion(dao.Version{
		Value:                   DBVersion,
		KeepOnlyLatestState:     bc.cfg.KeepOnlyLatestState,
		RemoveUntraceableBlocks: bc.cfg.RemoveUntraceableBlocks,
	}); err != nil {
		return err
	}
	pv, err := state.EncodeRecord(chainParamsV1, ptr(bc.params(g)))
	if err != nil {
		return err
	}
	bc.dao.Store.Put(chainParamsKey, pv)
	bc.headers.d = bc.dao
	if err := bc.state.Init(0); err != nil {
		return err
	}
	bc.log.Info("initializing a new chain", "genesis", g.Hash().StringLE(), "magic", uint32(bc.cfg.Magic))
	ch := make(chan *block.Block, 1)
	ch <- g
	close(ch)
	if err := bc.run(nil, ch, false, true); err != nil {
		return fmt.Errorf("genesis block: %w", err)
	}
	if err := bc.headers.setTrusted(bc.cfg.TrustedHeader, 0); err != nil {
		return err
	}
	return bc.flushAll()
}

func ptr[T any](v T) *T { return &v }

// flushAll writes everything in memory to the store.
func (bc *Blockchain) flushAll() error {
	for bc.dao.Store.Len() > 0 {
		if _, err := bc.dao.PersistSync(); err != nil {
			return err
		}
	}
	return nil
}

// Close waits for block processing in progress, writes everything to the
// store and closes it. The Blockchain is unusable afterwards.
func (bc *Blockchain) Close() error {
	bc.addMu.Lock()
	defer bc.addMu.Unlock()
	if bc.closed.Swap(true) {
		return nil
	}
	bc.persist.stop()
	bc.poolFeed.set(bc.pool, bc.events, false)
	bc.events.stop()
	storage.UseReserve(bc.store) // what a full disk held back fits in the reserve
	err := bc.flushAll()
	return errors.Join(err, bc.store.Close())
}

// Config returns the chain configuration (defaults filled in). The caller
// must not modify it.
func (bc *Blockchain) Config() *config.Blockchain { return bc.cfg }

// Natives returns the native contracts.
func (bc *Blockchain) Natives() *native.Contracts { return bc.natives }

// DAO returns the committed layer (whole blocks up to BlockHeight) for
// reading. Callers must not write to it.
func (bc *Blockchain) DAO() *dao.Simple { return bc.dao }

// Mempool returns the node's transaction pool.
func (bc *Blockchain) Mempool() *mempool.Pool { return bc.pool }

// StateModule returns the local state-root module.
func (bc *Blockchain) StateModule() *stateroot.Module { return bc.state }

// BlockHeight returns the index of the latest committed block.
func (bc *Blockchain) BlockHeight() uint32 { return bc.height.Load() }

// HeaderHeight returns the index of the latest known header (at least
// BlockHeight).
func (bc *Blockchain) HeaderHeight() uint32 { return bc.headers.height() }

// CurrentBlockHash returns the hash of the latest committed block.
func (bc *Blockchain) CurrentBlockHash() hash.Uint256 { return bc.top.Load().Hash() }

// CurrentHeaderHash returns the hash of the latest known header.
func (bc *Blockchain) CurrentHeaderHash() hash.Uint256 { return bc.headers.topHeader().Hash() }

// GetHeaderHash returns the hash of the header at index, or the zero hash.
func (bc *Blockchain) GetHeaderHash(index uint32) hash.Uint256 { return bc.headers.hash(index) }

// GetBlock returns a committed block by hash.
func (bc *Blockchain) GetBlock(h hash.Uint256) (*block.Block, error) {
	if tb := bc.top.Load(); tb != nil && tb.Hash() == h {
		return tb, nil
	}
	b, err := bc.dao.GetBlock(h)
	if err != nil {
		return nil, notFound(err)
	}
	if b.Index > bc.BlockHeight() || (!b.MerkleRoot.IsZero() && len(b.Transactions) == 0) {
		return nil, fmt.Errorf("%w: only the header of block %s is known", ErrNotFound, h.StringLE())
	}
	return b, nil
}

// GetBlockByIndex returns the committed block at index.
func (bc *Blockchain) GetBlockByIndex(index uint32) (*block.Block, error) {
	if index > bc.BlockHeight() {
		return nil, fmt.Errorf("%w: block %d", ErrNotFound, index)
	}
	return bc.GetBlock(bc.GetHeaderHash(index))
}

// GetHeader returns a known header by hash (its block may not be
// committed yet).
func (bc *Blockchain) GetHeader(h hash.Uint256) (*block.Header, error) {
	if tb := bc.top.Load(); tb != nil && tb.Hash() == h {
		return &tb.Header, nil
	}
	hdr, _, err := bc.dao.GetTrimmedBlock(h)
	if err != nil {
		return nil, notFound(err)
	}
	return hdr, nil
}

// GetHeaderByIndex returns the known header at index.
func (bc *Blockchain) GetHeaderByIndex(index uint32) (*block.Header, error) {
	if index > bc.HeaderHeight() {
		return nil, fmt.Errorf("%w: header %d", ErrNotFound, index)
	}
	return bc.GetHeader(bc.GetHeaderHash(index))
}

// HasBlock reports whether the block is committed.
func (bc *Blockchain) HasBlock(h hash.Uint256) bool {
	hdr, err := bc.GetHeader(h)
	return err == nil && hdr.Index <= bc.BlockHeight() && bc.GetHeaderHash(hdr.Index) == h
}

func notFound(err error) error {
	if errors.Is(err, storage.ErrKeyNotFound) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	return err
}

// GetTransaction returns a transaction and the index of its block; a pooled
// transaction has index math.MaxUint32 (as neo-go).
func (bc *Blockchain) GetTransaction(h hash.Uint256) (*transaction.Transaction, uint32, error) {
	if tx, ok := bc.pool.TryGetValue(h); ok {
		return tx, ^uint32(0), nil
	}
	tx, index, _, err := bc.dao.GetTransaction(h)
	if err != nil {
		return nil, 0, notFound(err)
	}
	return tx, index, nil
}

// HasTransaction reports whether the transaction is pooled or on chain
// (so that it need not be requested or pooled again).
func (bc *Blockchain) HasTransaction(h hash.Uint256) bool {
	if bc.pool.ContainsKey(h) {
		return true
	}
	return errors.Is(bc.dao.HasTransaction(h, nil, 0, 0), dao.ErrAlreadyExists)
}

// GetAppExecResults returns the execution results of a block (OnPersist and
// PostPersist) or a transaction whose trigger is in trig.
func (bc *Blockchain) GetAppExecResults(h hash.Uint256, trig trigger.Type) ([]state.AppExecResult, error) {
	res, err := bc.dao.GetAppExecResults(h, trig)
	if err != nil {
		return nil, notFound(err)
	}
	return res, nil
}

// GetStateRoot returns the local state root of a committed height.
func (bc *Blockchain) GetStateRoot(height uint32) (*stateroot.Root, error) {
	if height > bc.BlockHeight() {
		return nil, fmt.Errorf("%w: state root of height %d", ErrNotFound, height)
	}
	r, err := stateroot.GetStateRoot(bc.dao.Store, height)
	if err != nil {
		return nil, notFound(err)
	}
	return r, nil
}

// GetUtilityTokenBalance returns the GAS balance of an account (0 if none
// or unreadable).
func (bc *Blockchain) GetUtilityTokenBalance(acc hash.Uint160) *big.Int {
	return gasBalance(bc.dao, acc)
}

// checkNatives compares the stored state of every native contract active
// at height with the one this node generates for the latest hardfork at
// that height (neo-go does the same): a mismatch means the database was
// made by a node with other native contracts.
func (bc *Blockchain) checkNatives(height uint32) error {
	latest := bc.cfg.Forks.Latest(height)
	for _, c := range bc.natives.List() {
		md := c.Metadata()
		stored, err := bc.natives.Management.GetContract(bc.dao, md.Hash)
		if !bc.natives.IsActive(c, height) {
			if err == nil {
				return fmt.Errorf("%w: native %s is stored but not active at height %d", ErrVersionMismatch, md.Name, height)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("%w: native %s is not stored but active at height %d", ErrVersionMismatch, md.Name, height)
		}
		gen := &state.Contract{ContractBase: md.HFSpecific(latest).ContractBase, UpdateCounter: stored.UpdateCounter}
		a, err := stackitem.SerializeConvertible(stored)
		if err != nil {
			return err
		}
		b, err := stackitem.SerializeConvertible(gen)
		if err != nil {
			return err
		}
		if !bytes.Equal(a, b) {
			return fmt.Errorf("%w: native %s differs from this node's for hardfork %s; resynchronize from the genesis", ErrVersionMismatch, md.Name, latest)
		}
	}
	return nil
}
