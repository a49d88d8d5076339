package network

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/bqueue"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// StateSync is the state sync module (pkg/core/statesync.Module) as the
// server uses it for neo-go's P2PStateExchangeExtensions: it serves MPT
// nodes (getmptdata/mptdata) and, on a node that bootstraps from a sync
// point, says what to fetch and takes what arrives. Methods must be safe
// for concurrent use.
type StateSync interface {
	// Init starts the sync for the peers' chain height; IsInitialized
	// reports whether it was called (or is not needed).
	Init(remoteHeight uint32) error
	IsInitialized() bool
	// IsActive reports whether the module still gathers data: the server
	// then fetches what the Need* methods ask for instead of syncing the
	// chain the regular way.
	IsActive() bool
	NeedHeaders() bool
	NeedMPTData() bool
	NeedBlocks() bool
	// Update moves the sync on (called on every sync step).
	Update() error
	// SyncPoint is the height P whose state is fetched.
	SyncPoint() uint32
	// BlockHeight and AddBlock take the blocks up to P, in order.
	BlockHeight() uint32
	AddBlock(b *block.Block) error
	// MissingMPTNodes and AddMPTNodes fetch the trie of P.
	MissingMPTNodes(max int) []hash.Uint256
	AddMPTNodes(nodes [][]byte) error
	// ServeMPTNodes answers a getmptdata request from the local trie.
	ServeMPTNodes(hashes []hash.Uint256) [][]byte
}

// stateExchange is the server's state sync machinery (nil without
// SetStateSync).
type stateExchange struct {
	ss StateSync
	q  *bqueue.Queue // blocks up to the sync point, fed to ss

	mu       sync.Mutex
	inflight map[hash.Uint256]time.Time // requested MPT nodes
}

// SetStateSync enables neo-go's P2PStateExchangeExtensions: the server
// answers getmptdata from ss and, while ss is active, syncs through it.
// It must be called before Start. Without it getmptdata and mptdata are
// refused, as neo-go does without the extension.
func (s *Server) SetStateSync(ss StateSync) {
	if s.started.Load() {
		panic("network: SetStateSync after Start")
	}
	x := &stateExchange{ss: ss, inflight: make(map[hash.Uint256]time.Time)}
	x.q = bqueue.New(stateSyncBlocks{ss}, s.cfg.BlockQueueSize, func(*block.Block) { s.sync.kick() }, s.log)
	s.stx = x
}

// stateSyncBlocks is the block queue's view of the module.
type stateSyncBlocks struct{ ss StateSync }

func (b stateSyncBlocks) BlockHeight() uint32             { return b.ss.BlockHeight() }
func (b stateSyncBlocks) AddBlock(blk *block.Block) error { return b.ss.AddBlock(blk) }

// startStateSync and stopStateSync run with Start and Shutdown.
func (s *Server) startStateSync() {
	if s.stx != nil {
		s.wg.Go(s.stx.q.Run)
	}
}

func (s *Server) stopStateSync() {
	if s.stx != nil {
		s.stx.q.Discard()
	}
}

// stateSyncActive reports whether the node syncs through the state sync
// module.
func (s *Server) stateSyncActive() bool { return s.stx != nil && s.stx.ss.IsActive() }

// blockSink returns where the block sync should put blocks, the height
// they are wanted after and the height they are wanted up to, given the
// ledger's block and header heights. While state sync runs, blocks are
// wanted only in its block stage, and only up to the sync point.
func (s *Server) blockSink(bh, hh uint32) (*bqueue.Queue, uint32, uint32) {
	if !s.stateSyncActive() {
		return s.bq, bh, hh
	}
	ss := s.stx.ss
	if !ss.NeedBlocks() {
		return s.stx.q, bh, bh // nothing wanted
	}
	return s.stx.q, ss.BlockHeight(), min(hh, ss.SyncPoint())
}

// queueBlock queues a block received from a peer; checked says that it
// matches the known header of its height.
func (s *Server) queueBlock(b *block.Block, checked bool) {
	q := s.bq
	if s.stateSyncActive() {
		if !s.stx.ss.NeedBlocks() || b.Index > s.stx.ss.SyncPoint() {
			return
		}
		q = s.stx.q
	}
	if checked {
		q.PutChecked(b)
	} else {
		q.Put(b)
	}
}

// mptRequestTTL is how long a requested MPT node is waited for before it
// is asked of another peer.
func (s *Server) mptRequestTTL() time.Duration { return 2 * s.cfg.SyncTimeout }

// stateSyncStep runs with every sync step: it starts the module once
// enough peers are known (at the median of their heights, as neo-go does),
// moves it on and requests missing MPT nodes (up to MaxMPTHashesCount per
// message, one message per peer that has the sync point, each node from
// one peer at a time).
func (y *syncer) stateSyncStep(now time.Time, peers []*Peer) {
	s := y.s
	if s.stx == nil {
		return
	}
	ss := s.stx.ss
	if !ss.IsInitialized() {
		if len(peers) < max(s.cfg.MinPeers, 1) {
			return
		}
		hs := make([]uint32, len(peers))
		for i, p := range peers {
			hs[i] = p.LastBlockIndex()
		}
		slices.Sort(hs)
		if err := ss.Init(hs[len(hs)/2]); err != nil {
			s.log.Error("state sync can't start", "err", err)
			return
		}
	}
	if !ss.IsActive() {
		return
	}
	if err := ss.Update(); err != nil {
		s.log.Error("state sync", "err", err)
	}
	if !ss.NeedMPTData() {
		return
	}
	point := ss.SyncPoint()
	have := filterPeers(peers, func(p *Peer) bool { return p.LastBlockIndex() >= point })
	if len(have) == 0 {
		return
	}
	s.shuffle(len(have), func(i, j int) { have[i], have[j] = have[j], have[i] })
	x := s.stx
	missing := ss.MissingMPTNodes(len(have) * payload.MaxMPTHashesCount * 4)
	x.mu.Lock()
	ttl := s.mptRequestTTL()
	for h, at := range x.inflight {
		if now.Sub(at) > ttl {
			delete(x.inflight, h)
		}
	}
	var batches [][]hash.Uint256
	var cur []hash.Uint256
	for _, h := range missing {
		if _, ok := x.inflight[h]; ok {
			continue
		}
		cur = append(cur, h)
		if len(cur) == payload.MaxMPTHashesCount {
			batches = append(batches, cur)
			cur = nil
			if len(batches) == len(have) {
				break
			}
		}
	}
	if len(cur) > 0 && len(batches) < len(have) {
		batches = append(batches, cur)
	}
	for i, b := range batches {
		if err := have[i].send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: b}, false); err != nil {
			continue
		}
		for _, h := range b {
			x.inflight[h] = now
		}
	}
	x.mu.Unlock()
}

// onStateExchange handles getmptdata and mptdata.
func (s *Server) onStateExchange(p *Peer, m *message.Message) error {
	if s.stx == nil {
		// neo-go refuses these without P2PStateExchangeExtensions.
		return fmt.Errorf("%w: %s without P2PStateExchangeExtensions", ErrUnsupported, m.Command)
	}
	switch pl := m.Payload.(type) {
	case *payload.MPTInventory:
		nodes := s.stx.ss.ServeMPTNodes(pl.Hashes)
		if len(nodes) == 0 {
			return nil
		}
		return p.send(message.CmdMPTData, &payload.MPTData{Nodes: nodes}, false)
	case *payload.MPTData:
		if !s.stx.ss.NeedMPTData() {
			return nil // late or unrequested: harmless
		}
		p.stalls.Store(0)
		if err := s.stx.ss.AddMPTNodes(pl.Nodes); err != nil {
			return fmt.Errorf("mptdata: %w", err)
		}
		s.stx.mu.Lock()
		for _, n := range pl.Nodes {
			delete(s.stx.inflight, hash.Hash256(n))
		}
		s.stx.mu.Unlock()
		s.sync.kick()
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnsupported, m.Command)
}
