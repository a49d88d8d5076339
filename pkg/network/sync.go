package network

import (
	"github.com/n3node/n3node/pkg/network/capability"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

const (
	// chunkSize is the blocks asked for in one getblockbyindex (C# and
	// neo-go answer at most InvPayload.MaxHashesCount).
	chunkSize = payload.MaxHashesCount
	// maxChunksPerPeer is how many block requests one peer may have
	// outstanding.
	maxChunksPerPeer = 2
)

// syncer decides which headers and blocks to request from whom. Headers
// come first: blocks are requested only up to the header height, so every
// block can be checked against a header before it is queued. Missing
// heights are requested in ranges of up to chunkSize blocks, each from one
// peer that has them, at most maxChunksPerPeer ranges per peer, and again
// from another peer if the first one disappears or does not answer within
// the sync timeout. Only the heights the block queue can hold are
// requested.
//
// One goroutine (loop) owns the state; events anywhere call kick.
type syncer struct {
	s      *Server
	kickCh chan struct{}

	hdrPeer *Peer
	hdrAt   time.Time
	hdrFrom uint32
	ranges  []blockRange // outstanding getblockbyindex requests, by from
}

// blockRange is an outstanding request for blocks from..to.
type blockRange struct {
	from, to uint32
	peer     *Peer
	at       time.Time
}

func newSyncer(s *Server) *syncer {
	return &syncer{s: s, kickCh: make(chan struct{}, 1)}
}

// kick asks the loop to look for work.
func (y *syncer) kick() {
	select {
	case y.kickCh <- struct{}{}:
	default:
	}
}

// timeout is how long a request may go unanswered before it is asked of
// another peer.
func (y *syncer) timeout() time.Duration { return y.s.cfg.SyncTimeout }

// maxStalls is how many requests in a row a peer may leave unanswered
// before it is dropped.
const maxStalls = 3

// stalled counts an unanswered request against p.
func (y *syncer) stalled(p *Peer) {
	if p.stalls.Add(1) >= maxStalls {
		p.Disconnect(ErrStalled)
	}
}

func (y *syncer) loop() {
	tick := time.NewTicker(y.s.cfg.ProtoTickInterval)
	defer tick.Stop()
	for {
		select {
		case <-y.s.ctx.Done():
			return
		case <-y.kickCh:
		case <-tick.C:
		}
		y.step(y.s.now())
	}
}

// step sends the requests that are due at time now.
func (y *syncer) step(now time.Time) {
	s := y.s
	peers := s.handshakedPeers(nil)
	if len(peers) == 0 {
		return
	}
	bh, hh := s.ledger.BlockHeight(), s.ledger.HeaderHeight()

	// Headers: one request at a time, to a random peer that is ahead.
	if y.hdrPeer != nil {
		switch {
		case hh >= y.hdrFrom || y.hdrPeer.isGone():
			y.hdrPeer = nil
		case now.Sub(y.hdrAt) > y.timeout():
			y.stalled(y.hdrPeer)
			y.hdrPeer = nil
		}
	}
	if y.hdrPeer == nil {
		ahead := filterPeers(peers, func(p *Peer) bool { return p.LastBlockIndex() > hh })
		if healthy := filterPeers(ahead, func(p *Peer) bool { return p.stalls.Load() == 0 }); len(healthy) > 0 {
			ahead = healthy
		}
		if len(ahead) > 0 {
			p := ahead[s.randN(len(ahead))]
			req := &payload.GetBlockByIndex{IndexStart: hh + 1, Count: -1}
			if err := p.send(message.CmdGetHeaders, req, false); err == nil {
				y.hdrPeer, y.hdrAt, y.hdrFrom = p, now, hh+1
			}
		}
	}

	// State sync: its start, its stage, MPT node requests; it decides
	// which blocks are wanted and where they go.
	y.stateSyncStep(now, peers)
	bq, bh, hh := s.blockSink(bh, hh)

	// Blocks: the heights between what is queued and min(header height,
	// queue end) that no live request covers, in ranges of chunkSize.
	last, free := bq.LastQueued()
	top := min(hh, bh+uint32(bq.Cap()))
	kept := y.ranges[:0]
	load := make(map[*Peer]int)
	for _, r := range y.ranges {
		if r.to <= bh || r.to <= last || r.peer.isGone() {
			continue
		}
		if now.Sub(r.at) > y.timeout() {
			y.stalled(r.peer)
			continue
		}
		kept = append(kept, r)
		load[r.peer]++
	}
	y.ranges = kept
	if free == 0 || top <= bh {
		return
	}
	if s.cfg.ArchivalNodesSync {
		peers = filterPeers(peers, func(p *Peer) bool { return s.servesOldBlocks(p, bh, bq.Cap()) })
	}
	cursor := max(last, bh) + 1
	for cursor <= top {
		end := min(cursor+chunkSize-1, top)
		covered := false
		for _, r := range y.ranges {
			if r.from <= cursor && cursor <= r.to {
				cursor, covered = r.to+1, true
				break
			}
			if r.from > cursor && r.from <= end {
				end = r.from - 1
			}
		}
		if covered {
			continue
		}
		p := y.pick(peers, load, end)
		if p == nil {
			if p = y.pick(peers, load, cursor); p == nil { // a peer with part of the range
				break
			}
			end = min(end, p.LastBlockIndex())
		}
		req := &payload.GetBlockByIndex{IndexStart: cursor, Count: int16(end - cursor + 1)}
		if err := p.send(message.CmdGetBlockByIndex, req, false); err != nil {
			break
		}
		y.ranges = append(y.ranges, blockRange{from: cursor, to: end, peer: p, at: now})
		load[p]++
		cursor = end + 1
	}
}

// pick returns the least loaded peer (random among equals) that has
// height h and room for another range; a peer that left a request
// unanswered counts as fully loaded while others are available.
func (y *syncer) pick(peers []*Peer, load map[*Peer]int, h uint32) *Peer {
	var best []*Peer
	bestLoad := maxChunksPerPeer + 1
	for _, p := range peers {
		l := load[p]
		if p.LastBlockIndex() < h || l >= maxChunksPerPeer || p.isGone() {
			continue
		}
		if p.stalls.Load() > 0 {
			l = maxChunksPerPeer
		}
		switch {
		case l < bestLoad:
			best, bestLoad = []*Peer{p}, l
		case l == bestLoad:
			best = append(best, p)
		}
	}
	if len(best) == 0 {
		return nil
	}
	return best[y.s.randN(len(best))]
}

// servesOldBlocks reports whether p may be asked for the blocks above
// height with ArchivalNodesSync: it is archival, or the blocks are within
// its traceable window (a light peer keeps the last MaxTraceableBlocks).
// neo-go computes peerHeight-MaxTraceableBlocks in uint32 and so also
// skips light peers lower than MaxTraceableBlocks; n3node asks them, as
// they still have every block.
func (s *Server) servesOldBlocks(p *Peer, height uint32, queue int) bool {
	if v := p.Version(); v != nil && v.Capabilities.Has(capability.ArchivalNode) {
		return true
	}
	mtb := s.cfg.MaxTraceableBlocks
	if l, ok := s.ledger.(interface{ GetMaxTraceableBlocks() uint32 }); ok {
		mtb = l.GetMaxTraceableBlocks()
	}
	ph := p.LastBlockIndex()
	return ph <= mtb || uint64(ph-mtb) <= uint64(height)+uint64(queue)
}

func filterPeers(peers []*Peer, ok func(*Peer) bool) []*Peer {
	var out []*Peer
	for _, p := range peers {
		if ok(p) {
			out = append(out, p)
		}
	}
	return out
}

// onHeaders processes a headers message.
func (s *Server) onHeaders(p *Peer, hs *payload.Headers) {
	if len(hs.Hdrs) == 0 {
		return
	}
	p.updateHeight(hs.Hdrs[len(hs.Hdrs)-1].Index)
	hh := s.ledger.HeaderHeight()
	if hs.Hdrs[len(hs.Hdrs)-1].Index <= hh {
		return // nothing new (a late or duplicate answer)
	}
	p.stalls.Store(0)
	if err := s.ledger.AddHeaders(hs.Hdrs...); err != nil {
		s.log.Debug("headers refused", "remote", p.RemoteAddr(), "first", hs.Hdrs[0].Index, "err", err)
	}
	s.sync.kick()
}

// onBlock processes a block message: blocks at or below a known header
// must match it; others go to the queue for the ledger to verify.
func (s *Server) onBlock(p *Peer, b *block.Block) error {
	s.req.done(b.Hash())
	p.stalls.Store(0)
	p.updateHeight(b.Index)
	if b.Index <= s.ledger.BlockHeight() {
		return nil
	}
	checked := false
	if b.Index <= s.ledger.HeaderHeight() {
		want := s.ledger.GetHeaderHash(b.Index)
		if !want.IsZero() && want != b.Hash() {
			return ErrBlockMismatch
		}
		checked = !want.IsZero()
	}
	s.queueBlock(b, checked)
	return nil
}
