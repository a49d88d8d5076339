package network

import (
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
// block can be checked against a header before it is queued. Block
// heights are split into aligned chunks of chunkSize; each chunk is
// requested from one peer that has it, at most maxChunksPerPeer per peer,
// and again from another peer if the first one disappears or does not
// answer within the sync timeout. Only the heights the block queue can
// hold are requested.
//
// One goroutine (loop) owns the state; events anywhere call kick.
type syncer struct {
	s      *Server
	kickCh chan struct{}

	hdrPeer *Peer
	hdrAt   time.Time
	hdrFrom uint32
	chunks  map[uint32]chunkReq // by first height of the aligned chunk
}

type chunkReq struct {
	peer *Peer
	at   time.Time
}

func newSyncer(s *Server) *syncer {
	return &syncer{s: s, kickCh: make(chan struct{}, 1), chunks: make(map[uint32]chunkReq)}
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
func (y *syncer) timeout() time.Duration {
	return max(y.s.cfg.TimePerBlock, 5*time.Second)
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
	if y.hdrPeer != nil && (y.hdrPeer.isGone() || now.Sub(y.hdrAt) > y.timeout() || hh >= y.hdrFrom) {
		y.hdrPeer = nil
	}
	if y.hdrPeer == nil {
		ahead := filterPeers(peers, func(p *Peer) bool { return p.LastBlockIndex() > hh })
		if len(ahead) > 0 {
			p := ahead[s.randN(len(ahead))]
			req := &payload.GetBlockByIndex{IndexStart: hh + 1, Count: -1}
			if err := p.send(message.CmdGetHeaders, req, false); err == nil {
				y.hdrPeer, y.hdrAt, y.hdrFrom = p, now, hh+1
			}
		}
	}

	// Blocks: chunks between the chain and min(header height, queue end).
	last, free := s.bq.LastQueued()
	top := min(hh, bh+uint32(s.bq.Cap()))
	for start, c := range y.chunks {
		if start+chunkSize-1 <= bh || c.peer.isGone() || now.Sub(c.at) > y.timeout() {
			delete(y.chunks, start)
		}
	}
	if free == 0 || top <= bh {
		return
	}
	load := make(map[*Peer]int)
	for _, c := range y.chunks {
		load[c.peer]++
	}
	first := (bh + 1) / chunkSize * chunkSize
	for start := first; start <= top && start >= first; start += chunkSize {
		if _, ok := y.chunks[start]; ok {
			continue
		}
		from := max(start, last+1) // last >= bh: skip what is queued
		to := min(start+chunkSize-1, top)
		if from > to {
			continue
		}
		p := y.pick(peers, load, to)
		if p == nil {
			p = y.pick(peers, load, from) // a peer with part of the chunk
		}
		if p == nil {
			break
		}
		req := &payload.GetBlockByIndex{IndexStart: from, Count: int16(to - from + 1)}
		if err := p.send(message.CmdGetBlockByIndex, req, false); err != nil {
			continue
		}
		y.chunks[start] = chunkReq{peer: p, at: now}
		load[p]++
	}
}

// pick returns the least loaded peer (random among equals) that has
// height h and room for another chunk.
func (y *syncer) pick(peers []*Peer, load map[*Peer]int, h uint32) *Peer {
	var best []*Peer
	bestLoad := maxChunksPerPeer
	for _, p := range peers {
		l := load[p]
		if p.LastBlockIndex() < h || l >= maxChunksPerPeer {
			continue
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
	if err := s.ledger.AddHeaders(hs.Hdrs...); err != nil {
		s.log.Debug("headers refused", "remote", p.RemoteAddr(), "first", hs.Hdrs[0].Index, "err", err)
	}
	s.sync.kick()
}

// onBlock processes a block message: blocks at or below a known header
// must match it; others go to the queue for the ledger to verify.
func (s *Server) onBlock(p *Peer, b *block.Block) error {
	s.req.done(b.Hash())
	p.updateHeight(b.Index)
	if b.Index <= s.ledger.BlockHeight() {
		return nil
	}
	if b.Index <= s.ledger.HeaderHeight() {
		if want := s.ledger.GetHeaderHash(b.Index); !want.IsZero() && want != b.Hash() {
			return ErrBlockMismatch
		}
	}
	s.bq.Put(b)
	return nil
}
