package network

import (
	"context"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

const (
	// requestTTL is how long a requested item is considered on its way:
	// announcements of it by other peers are ignored meanwhile (C# keeps
	// pending hashes for a minute).
	requestTTL = 30 * time.Second
	// maxRequests bounds the request tracker.
	maxRequests = 100_000
	// maxPeerRequests bounds the items requested from one peer and not
	// yet received, refused or expired. While a peer is at the bound its
	// inventories are dropped before any hash is looked up, so a peer
	// that announces unknown items and never delivers them costs at most
	// this many mempool and chain lookups per requestTTL, and cannot fill
	// the tracker that every other peer's announcements go through. An
	// honest peer answers getdata within a round trip; the bound is two
	// seconds of relay at 10,000 transactions a second. Neither C# nor
	// neo-go bounds the requests per peer (C# TaskManager's
	// MaxConcurrentTasks = 3 counts the peers asked for one hash).
	maxPeerRequests = 20_000
	// txBatchSize is the most transaction hashes announced at once
	// (neo-go broadcastTxLoop).
	txBatchSize = 42
	// txInQueue is the queue of received transactions waiting for
	// verification.
	txInQueue = 64
)

// packet encodes a message at most twice: compressed for peers that take
// it, plain for the others. Not safe for concurrent use.
type packet struct {
	s         *Server
	cmd       message.Command
	pl        message.Payload
	comp, raw []byte
	err       error
}

func (k *packet) forPeer(p *Peer) ([]byte, error) {
	if p.takesCompressed() && !k.s.cfg.DisableCompression {
		if k.comp == nil && k.err == nil {
			k.comp, k.err = message.Encode(k.cmd, k.pl, true)
		}
		return k.comp, k.err
	}
	if k.raw == nil && k.err == nil {
		k.raw, k.err = message.Encode(k.cmd, k.pl, false)
	}
	return k.raw, k.err
}

// relayTarget is how many of n peers a relayed announcement goes to: two
// thirds of them (rounded up) at BroadcastFactor 0, all at 100, linear in
// between. neo-go 0.120.0 instead waits for max(1, 2.5 ln(network size))
// peers plus the BroadcastFactor share while offering the message to all;
// older neo-go sent to two thirds, which is what we keep: fewer duplicate
// announcements, and every relaying node forwards in turn.
func relayTarget(n, factor int) int {
	base := (2*n + 2) / 3
	return base + (n-base)*factor/100
}

// broadcastWait bounds how long a broadcast waits for busy peers' queues.
func (s *Server) broadcastWait() time.Duration {
	return min(max(s.cfg.TimePerBlock/2, 100*time.Millisecond), 5*time.Second)
}

// sendHook runs around a broadcast send: before is called before the
// packet is queued (a reply can arrive at once), undo if it could not be.
type sendHook struct {
	before, undo func(*Peer)
}

// broadcast relays a message to a random relayTarget share of the
// handshaked full-node peers that pass ok.
func (s *Server) broadcast(cmd message.Command, pl message.Payload, hp bool, ok func(*Peer) bool) int {
	peers := s.handshakedPeers(func(p *Peer) bool { return p.IsFullNode() && (ok == nil || ok(p)) })
	return s.sendTo(peers, &packet{s: s, cmd: cmd, pl: pl}, hp, relayTarget(len(peers), s.cfg.BroadcastFactor), nil)
}

// broadcastAll sends a message to every handshaked peer. before (if not
// nil) runs for each peer just before its packet is queued.
func (s *Server) broadcastAll(cmd message.Command, pl message.Payload, hp bool, before func(*Peer)) int {
	peers := s.handshakedPeers(nil)
	var hook *sendHook
	if before != nil {
		hook = &sendHook{before: before}
		switch cmd {
		case message.CmdPing:
			hook.undo = func(p *Peer) { p.pingUnsent() }
		case message.CmdGetAddr:
			hook.undo = func(p *Peer) { p.getAddrSent.Add(-1) }
		}
	}
	return s.sendTo(peers, &packet{s: s, cmd: cmd, pl: pl}, hp, len(peers), hook)
}

// sendTo queues the packet for up to target of peers, in random order:
// first to those with room in their queue, then, waiting up to
// broadcastWait, to the busy ones.
func (s *Server) sendTo(peers []*Peer, k *packet, hp bool, target int, hook *sendHook) int {
	if len(peers) == 0 || target <= 0 {
		return 0
	}
	s.shuffle(len(peers), func(i, j int) { peers[i], peers[j] = peers[j], peers[i] })
	q := func(p *Peer) chan []byte {
		if hp {
			return p.hpQ
		}
		return p.bcastQ
	}
	sent := 0
	var busy []*Peer
	try := func(p *Peer, put func(chan []byte, []byte) bool) {
		b, err := k.forPeer(p)
		if err != nil {
			s.log.Error("cannot encode message", "cmd", k.cmd, "err", err)
			return
		}
		if hook != nil {
			hook.before(p)
		}
		if put(q(p), b) {
			sent++
			return
		}
		if hook != nil && hook.undo != nil {
			hook.undo(p)
		}
		busy = append(busy, p)
	}
	for _, p := range peers {
		if sent >= target || k.err != nil {
			break
		}
		try(p, p.tryEnqueue)
	}
	if sent >= target || len(busy) == 0 || k.err != nil {
		return sent
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.broadcastWait())
	defer cancel()
	waiting := busy
	busy = nil
	for _, p := range waiting {
		if sent >= target || ctx.Err() != nil {
			break
		}
		try(p, func(c chan []byte, b []byte) bool { return p.enqueueCtx(ctx, c, b) })
	}
	return sent
}

// requests tracks items asked for with getdata, so that an item several
// peers announce is requested once, and counts them per peer.
type requests struct {
	mu      sync.Mutex
	m       map[hash.Uint256]request
	perPeer map[*Peer]int
}

type request struct {
	peer *Peer
	at   time.Time
}

func newRequests() *requests {
	return &requests{m: make(map[hash.Uint256]request), perPeer: make(map[*Peer]int)}
}

// claim returns the hashes of hs that should be requested from p now:
// those exists reports unknown and that are not already on their way, at
// most what p's maxPeerRequests allowance leaves. It records them as
// requested from p. A peer at its allowance gets nil without a lookup.
func (r *requests) claim(p *Peer, hs []hash.Uint256, now time.Time, exists func(hash.Uint256) bool) []hash.Uint256 {
	r.mu.Lock()
	full := r.perPeer[p] >= maxPeerRequests
	r.mu.Unlock()
	if full {
		return nil
	}
	var out []hash.Uint256
	for _, h := range hs {
		if exists(h) {
			continue
		}
		r.mu.Lock()
		if r.perPeer[p] >= maxPeerRequests {
			r.mu.Unlock()
			break
		}
		e, pending := r.m[h]
		if pending && now.Sub(e.at) < requestTTL && !e.peer.isGone() {
			r.mu.Unlock()
			continue
		}
		if !pending && len(r.m) >= maxRequests {
			r.mu.Unlock()
			continue
		}
		if pending {
			r.forget(e.peer)
		}
		r.m[h] = request{peer: p, at: now}
		r.perPeer[p]++
		r.mu.Unlock()
		out = append(out, h)
	}
	return out
}

// forget lowers p's count of pending requests; r.mu is held.
func (r *requests) forget(p *Peer) {
	if n := r.perPeer[p] - 1; n > 0 {
		r.perPeer[p] = n
	} else {
		delete(r.perPeer, p)
	}
}

// pending returns the number of requests outstanding with p.
func (r *requests) pending(p *Peer) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.perPeer[p]
}

// done forgets a request (the item arrived or was refused).
func (r *requests) done(h hash.Uint256) {
	r.mu.Lock()
	if e, ok := r.m[h]; ok {
		delete(r.m, h)
		r.forget(e.peer)
	}
	r.mu.Unlock()
}

// peerGone forgets the requests made to p, so others may be asked.
func (r *requests) peerGone(p *Peer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for h, e := range r.m {
		if e.peer == p {
			delete(r.m, h)
		}
	}
	delete(r.perPeer, p)
}

// expire forgets requests older than requestTTL.
func (r *requests) expire(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for h, e := range r.m {
		if now.Sub(e.at) >= requestTTL {
			delete(r.m, h)
			r.forget(e.peer)
		}
	}
}

// txInflight deduplicates received transactions: each is verified once
// even if several peers send it at the same time.
type txInflight struct {
	mu sync.Mutex
	m  map[hash.Uint256]struct{}
	mp Mempool
	ch chan *transaction.Transaction
}

func newTxInflight(mp Mempool) *txInflight {
	return &txInflight{m: make(map[hash.Uint256]struct{}), mp: mp, ch: make(chan *transaction.Transaction, txInQueue)}
}

// add queues tx for verification unless it is already queued, being
// verified, or in the pool. It waits while the queue is full.
func (t *txInflight) add(ctx context.Context, tx *transaction.Transaction) bool {
	h := tx.Hash()
	t.mu.Lock()
	if _, ok := t.m[h]; ok || t.mp.ContainsKey(h) {
		t.mu.Unlock()
		return false
	}
	t.m[h] = struct{}{}
	t.mu.Unlock()
	select {
	case t.ch <- tx:
		return true
	case <-ctx.Done():
		t.remove(h)
		return false
	}
}

func (t *txInflight) remove(h hash.Uint256) {
	t.mu.Lock()
	delete(t.m, h)
	t.mu.Unlock()
}

// contains reports whether h is queued or being verified.
func (t *txInflight) contains(h hash.Uint256) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.m[h]
	return ok
}

// txWorker verifies and pools received transactions and announces the
// good ones.
func (s *Server) txWorker() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case tx := <-s.txIn.ch:
			h := tx.Hash()
			s.svcMu.RLock()
			hook := s.txHook
			_, wanted := s.txHookList[h]
			s.svcMu.RUnlock()
			if hook != nil && wanted {
				hook(tx)
			}
			if !s.ledger.HasTransaction(h) {
				if err := s.ledger.PoolTx(tx); err == nil {
					s.announceTx(h)
				} else {
					s.log.Debug("transaction refused", "hash", h.StringLE(), "err", err)
				}
			}
			s.txIn.remove(h)
		}
	}
}

// announceTx queues a pooled transaction's hash for announcement.
func (s *Server) announceTx(h hash.Uint256) {
	select {
	case s.txAnn <- h:
	case <-s.ctx.Done():
	}
}

// txAnnounceLoop batches transaction announcements: up to txBatchSize
// hashes or BroadcastTxsBatchDelay after the first, whichever comes first.
func (s *Server) txAnnounceLoop() {
	var batch []hash.Uint256
	var timer loopTimer
	flush := func() {
		if len(batch) > 0 {
			s.broadcast(message.CmdInv, &payload.Inventory{Type: payload.TXType, Hashes: batch}, false, nil)
			batch = nil
		}
		timer.stop()
	}
	for {
		select {
		case <-s.ctx.Done():
			timer.stop()
			return
		case <-timer.C:
			timer.fired()
			flush()
		case h := <-s.txAnn:
			batch = append(batch, h)
			if len(batch) == 1 {
				timer.arm(s.cfg.BroadcastTxsBatchDelay)
			}
			if len(batch) >= txBatchSize {
				flush()
			}
		}
	}
}

// advertiseExtensible announces a pooled extensible payload: consensus
// ones to every peer at high priority (they decide liveness), others with
// the usual fan-out.
func (s *Server) advertiseExtensible(e *payload.Extensible) {
	inv := &payload.Inventory{Type: payload.ExtensibleType, Hashes: []hash.Uint256{e.Hash()}}
	if e.Category == payload.ConsensusCategory {
		s.broadcastAll(message.CmdInv, inv, true, nil)
		return
	}
	s.broadcast(message.CmdInv, inv, false, nil)
}

// loopTimer is the optional one-shot timer of a select loop: C is nil, and
// so never ready, while the timer is not armed.
type loopTimer struct {
	t *time.Timer
	C <-chan time.Time
}

// arm starts the timer.
func (l *loopTimer) arm(d time.Duration) {
	l.t = time.NewTimer(d)
	l.C = l.t.C
}

// stop stops an armed timer and disarms it.
func (l *loopTimer) stop() {
	if l.t != nil {
		l.t.Stop()
		l.fired()
	}
}

// fired disarms the timer after its C was received from.
func (l *loopTimer) fired() { l.t, l.C = nil, nil }
