package network

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/extpool"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// handleTimed is handleMessage, timed for ServerConfig.OnMessage.
func (s *Server) handleTimed(p *Peer, m *message.Message) error {
	on := s.cfg.OnMessage
	if on == nil {
		return s.handleMessage(p, m)
	}
	start := time.Now()
	err := s.handleMessage(p, m)
	on(m.Command, time.Since(start))
	return err
}

// handleMessage processes one message from p; an error drops p.
func (s *Server) handleMessage(p *Peer, m *message.Message) error {
	if !p.Handshaked() {
		return s.handleHandshake(p, m)
	}
	switch m.Command {
	case message.CmdVersion, message.CmdVerack:
		return fmt.Errorf("%w: %s after the handshake", ErrHandshake, m.Command)
	case message.CmdPing:
		return s.onPing(p, m.Payload.(*payload.Ping))
	case message.CmdPong:
		return s.onPong(p, m.Payload.(*payload.Ping))
	case message.CmdGetAddr:
		return s.onGetAddr(p)
	case message.CmdAddr:
		return s.onAddr(p, m.Payload.(*payload.AddressList))
	case message.CmdInv:
		return s.onInv(p, m.Payload.(*payload.Inventory))
	case message.CmdGetData:
		return s.onGetData(p, m.Payload.(*payload.Inventory))
	case message.CmdNotFound:
		for _, h := range m.Payload.(*payload.Inventory).Hashes {
			s.req.done(h)
		}
		return nil
	case message.CmdGetBlocks:
		return s.onGetBlocks(p, m.Payload.(*payload.GetBlocks))
	case message.CmdGetBlockByIndex:
		return s.onGetBlockByIndex(p, m.Payload.(*payload.GetBlockByIndex))
	case message.CmdGetHeaders:
		return s.onGetHeaders(p, m.Payload.(*payload.GetBlockByIndex))
	case message.CmdHeaders:
		s.onHeaders(p, m.Payload.(*payload.Headers))
		return nil
	case message.CmdBlock:
		return s.onBlock(p, m.Payload.(*block.Block))
	case message.CmdTransaction:
		return s.onTx(m.Payload.(*transaction.Transaction))
	case message.CmdExtensible:
		return s.onExtensible(m.Payload.(*payload.Extensible))
	case message.CmdMempool:
		return s.onMempool(p)
	case message.CmdP2PNotaryRequest:
		if !s.cfg.P2PSigExtensions {
			return fmt.Errorf("%w: %s without P2PSigExtensions", ErrUnsupported, m.Command)
		}
		return s.onNotaryRequest(m.Payload.(*payload.P2PNotaryRequest))
	case message.CmdGetMPTData, message.CmdMPTData:
		return s.onStateExchange(p, m)
	default:
		// filterload, filteradd, filterclear (SPV is not served),
		// merkleblock, reject, alert: ignored, as C# ignores most of them.
		return nil
	}
}

// handleHandshake enforces C#'s order: version first, then verack.
func (s *Server) handleHandshake(p *Peer, m *message.Message) error {
	st := p.state()
	switch {
	case m.Command == message.CmdVersion && st&versionReceived == 0:
		return s.onVersion(p, m.Payload.(*payload.Version))
	case m.Command == message.CmdVerack && st&versionReceived != 0 && st&verackReceived == 0:
		if p.mark(verackReceived) {
			s.onHandshaked(p)
		}
		return nil
	}
	return fmt.Errorf("%w: %s during the handshake", ErrHandshake, m.Command)
}

// onVersion checks a peer's version and answers with verack.
func (s *Server) onVersion(p *Peer, v *payload.Version) error {
	if err := p.onVersion(v); err != nil {
		return err
	}
	if v.Magic != s.cfg.Magic {
		return fmt.Errorf("%w: magic %d", ErrInvalidNetwork, v.Magic)
	}
	if v.Nonce == s.id {
		return ErrIdenticalID
	}
	if err := s.checkDuplicate(p, v.Nonce); err != nil {
		return err
	}
	b, err := message.Encode(message.CmdVerack, nil, false)
	if err != nil {
		return err
	}
	if err := p.enqueue(p.hpQ, b); err != nil {
		return err
	}
	if p.mark(verackSent) {
		s.onHandshaked(p)
	}
	return nil
}

// checkDuplicate resolves two connections to the same node (same nonce):
// both ends keep the connection dialed by the node with the lower id, so
// simultaneous dials do not drop both connections.
func (s *Server) checkDuplicate(p *Peer, nonce uint32) error {
	keepNew := (!p.Inbound()) == (s.id < nonce)
	for _, q := range s.Peers() {
		if q == p {
			continue
		}
		v := q.Version()
		if v == nil || v.Nonce != nonce {
			continue
		}
		if !keepNew {
			return ErrAlreadyConnected
		}
		q.Disconnect(ErrAlreadyConnected)
	}
	return nil
}

// onHandshaked runs once the handshake completes.
func (s *Server) onHandshaked(p *Peer) {
	v := p.Version()
	s.log.Info("peer handshaked", "remote", p.RemoteAddr(), "userAgent", v.UserAgent,
		"height", p.LastBlockIndex(), "id", v.Nonce)
	s.disc.handshaked(p.PeerAddr(), v.Capabilities, s.now())
	s.trySynced()
	s.sync.kick()
	if s.disc.poolCount()+s.HandshakedPeersCount() < s.cfg.AttemptConnPeers {
		p.getAddrSent.Add(1)
		if err := p.send(message.CmdGetAddr, nil, true); err != nil {
			return
		}
	}
	// Tell a peer that is not ahead of us about the consensus payloads in
	// flight, so that a restarted validator catches up at once.
	if s.synced.Load() && p.LastBlockIndex() <= s.ledger.BlockHeight() {
		hs := s.ext.Category(payload.ConsensusCategory)
		for start := 0; start < len(hs); start += payload.MaxHashesCount {
			inv := &payload.Inventory{Type: payload.ExtensibleType, Hashes: hs[start:min(start+payload.MaxHashesCount, len(hs))]}
			if err := p.send(message.CmdInv, inv, true); err != nil {
				return
			}
		}
	}
}

func (s *Server) onPing(p *Peer, ping *payload.Ping) error {
	if p.updateHeight(ping.LastBlockIndex) {
		s.sync.kick()
	}
	// C# answers with the ping's nonce, neo-go with its own id; neither
	// checks it. We echo the nonce.
	pong := &payload.Ping{LastBlockIndex: s.ledger.BlockHeight(), Timestamp: uint32(s.now().Unix()), Nonce: ping.Nonce}
	return p.send(message.CmdPong, pong, true)
}

func (s *Server) onPong(p *Peer, pong *payload.Ping) error {
	if !p.pongReceived(s.now()) {
		return ErrUnexpectedPong
	}
	if p.updateHeight(pong.LastBlockIndex) {
		s.sync.kick()
	}
	s.trySynced()
	return nil
}

// onGetAddr answers with the good addresses we know (none: no answer, as
// C# does; an empty addr payload is invalid).
func (s *Server) onGetAddr(p *Peer) error {
	good := s.disc.goodPeers(payload.MaxAddrCount)
	if len(good) == 0 {
		return nil
	}
	ts := uint32(s.now().Unix())
	l := &payload.AddressList{}
	for _, g := range good {
		ap, err := netip.ParseAddrPort(g.addr)
		if err != nil {
			continue // a host name, not an IP: not expressible in addr
		}
		l.Addrs = append(l.Addrs, payload.NewAddressAndTime(ap.Addr(), ts, g.caps))
	}
	if len(l.Addrs) == 0 {
		return nil
	}
	return p.send(message.CmdAddr, l, false)
}

// onAddr takes addresses, but only in answer to our getaddr.
func (s *Server) onAddr(p *Peer, l *payload.AddressList) error {
	if p.getAddrSent.Add(-1) < 0 {
		p.getAddrSent.Add(1)
		return ErrUnexpectedAddr
	}
	addrs := make([]string, 0, len(l.Addrs))
	for i := range l.Addrs {
		if a, ok := l.Addrs[i].TCPAddress(); ok {
			addrs = append(addrs, a)
		}
	}
	s.disc.backfill(addrs...)
	return nil
}

// onInv requests the announced items we do not have and have not asked
// for yet.
func (s *Server) onInv(p *Peer, inv *payload.Inventory) error {
	var exists func(hash.Uint256) bool
	hp := false
	switch inv.Type {
	case payload.TXType:
		exists = func(h hash.Uint256) bool {
			return s.mempool.ContainsKey(h) || s.txIn.contains(h) || s.ledger.HasTransaction(h)
		}
	case payload.BlockType:
		exists = s.ledger.HasBlock
	case payload.ExtensibleType:
		exists = func(h hash.Uint256) bool { return s.ext.Get(h) != nil }
		hp = true
	case payload.P2PNotaryRequestType:
		if !s.cfg.P2PSigExtensions {
			return fmt.Errorf("%w: %s", ErrInvalidInventory, inv.Type)
		}
		np := s.notaryRequests()
		if np == nil {
			return nil
		}
		exists = np.ContainsKey
	default:
		return fmt.Errorf("%w: %s", ErrInvalidInventory, inv.Type)
	}
	want := s.req.claim(p, inv.Hashes, s.now(), exists)
	if len(want) == 0 {
		return nil
	}
	return p.send(message.CmdGetData, &payload.Inventory{Type: inv.Type, Hashes: want}, hp)
}

// replyBatchSize is the size above which a batch of replies is queued
// as one packet. neo-go uses half the payload limit (16 MiB); with a reply
// queue of p2pQueueSize packets that lets one peer pin ~270 MiB, so we
// cut packets at 1 MiB: the bytes on the wire are the same.
const replyBatchSize = 1 << 20

// replyBatch collects reply messages into packets of about
// replyBatchSize bytes.
type replyBatch struct {
	p   *Peer
	hp  bool
	buf []byte
}

func (r *replyBatch) add(cmd message.Command, pl message.Payload) error {
	b, err := r.p.encode(cmd, pl)
	if err != nil {
		return err
	}
	r.buf = append(r.buf, b...)
	if len(r.buf) > replyBatchSize {
		return r.flush()
	}
	return nil
}

func (r *replyBatch) flush() error {
	if len(r.buf) == 0 {
		return nil
	}
	q := r.p.p2pQ
	if r.hp {
		q = r.p.hpQ
	}
	b := r.buf
	r.buf = nil
	return r.p.enqueue(q, b)
}

// onGetData sends the requested items we have and a notfound for the
// transactions and blocks we do not.
func (s *Server) onGetData(p *Peer, inv *payload.Inventory) error {
	r := &replyBatch{p: p, hp: inv.Type == payload.ExtensibleType}
	var notFound []hash.Uint256
	for _, h := range inv.Hashes {
		var err error
		switch inv.Type {
		case payload.TXType:
			if tx, ok := s.mempool.TryGetValue(h); ok {
				err = r.add(message.CmdTransaction, tx)
			} else {
				notFound = append(notFound, h)
			}
		case payload.BlockType:
			if b, e := s.ledger.GetBlock(h); e == nil {
				err = r.add(message.CmdBlock, b)
			} else {
				notFound = append(notFound, h)
			}
		case payload.ExtensibleType:
			if e := s.ext.Get(h); e != nil {
				err = r.add(message.CmdExtensible, e)
			}
		case payload.P2PNotaryRequestType:
			if !s.cfg.P2PSigExtensions {
				return fmt.Errorf("%w: %s", ErrInvalidInventory, inv.Type)
			}
			if np := s.notaryRequests(); np != nil {
				if nr, ok := np.Get(h); ok {
					err = r.add(message.CmdP2PNotaryRequest, nr)
					break
				}
			}
			notFound = append(notFound, h)
		}
		if err != nil {
			return err
		}
	}
	if len(notFound) > 0 {
		if err := r.add(message.CmdNotFound, &payload.Inventory{Type: inv.Type, Hashes: notFound}); err != nil {
			return err
		}
	}
	return r.flush()
}

// onGetBlocks answers with the hashes of up to 500 blocks after HashStart.
func (s *Server) onGetBlocks(p *Peer, gb *payload.GetBlocks) error {
	count := int(gb.Count)
	if count < 0 || count > payload.MaxHashesCount {
		count = payload.MaxHashesCount
	}
	start, err := s.ledger.GetHeader(gb.HashStart)
	if err != nil {
		return nil // C# ignores unknown starts
	}
	bh := s.ledger.BlockHeight()
	var hs []hash.Uint256
	for i := uint64(start.Index) + 1; i <= uint64(start.Index)+uint64(count) && i <= uint64(bh); i++ {
		h := s.ledger.GetHeaderHash(uint32(i))
		if h.IsZero() {
			break
		}
		hs = append(hs, h)
	}
	if len(hs) == 0 {
		return nil
	}
	return p.send(message.CmdInv, &payload.Inventory{Type: payload.BlockType, Hashes: hs}, false)
}

// onGetBlockByIndex sends up to 500 blocks from IndexStart.
func (s *Server) onGetBlockByIndex(p *Peer, g *payload.GetBlockByIndex) error {
	count := int(g.Count)
	if count < 0 || count > payload.MaxHashesCount {
		count = payload.MaxHashesCount
	}
	r := &replyBatch{p: p}
	end := uint64(g.IndexStart) + uint64(count)
	for i := uint64(g.IndexStart); i < end && i <= uint64(s.ledger.BlockHeight()); i++ {
		h := s.ledger.GetHeaderHash(uint32(i))
		if h.IsZero() {
			break
		}
		b, err := s.ledger.GetBlock(h)
		if err != nil {
			break
		}
		if err := r.add(message.CmdBlock, b); err != nil {
			return err
		}
	}
	return r.flush()
}

// onGetHeaders sends up to 2000 headers from IndexStart.
func (s *Server) onGetHeaders(p *Peer, g *payload.GetBlockByIndex) error {
	hh := s.ledger.HeaderHeight()
	if g.IndexStart > hh {
		return nil
	}
	count := int(g.Count)
	if count < 0 || count > payload.MaxHeadersCount {
		count = payload.MaxHeadersCount
	}
	resp := &payload.Headers{}
	end := uint64(g.IndexStart) + uint64(count)
	for i := uint64(g.IndexStart); i < end && i <= uint64(hh); i++ {
		h := s.ledger.GetHeaderHash(uint32(i))
		if h.IsZero() {
			break
		}
		hdr, err := s.ledger.GetHeader(h)
		if err != nil {
			break
		}
		resp.Hdrs = append(resp.Hdrs, hdr)
	}
	if len(resp.Hdrs) == 0 {
		return nil
	}
	return p.send(message.CmdHeaders, resp, false)
}

// onTx queues a transaction for verification (once, whoever sends it).
// Like C#, transactions above MaxTransactionSize are ignored.
func (s *Server) onTx(tx *transaction.Transaction) error {
	h := tx.Hash()
	s.req.done(h)
	if tx.Size() > transaction.MaxTransactionSize {
		return nil
	}
	if s.ledger.HasTransaction(h) {
		return nil
	}
	s.txIn.add(s.ctx, tx)
	return nil
}

// onExtensible verifies, pools, handles and relays an extensible payload.
// Before sync they are ignored (their heights cannot be judged yet).
func (s *Server) onExtensible(e *payload.Extensible) error {
	s.req.done(e.Hash())
	if !s.synced.Load() {
		return nil
	}
	added, err := s.ext.Add(e)
	if err != nil {
		if errors.Is(err, extpool.ErrInvalidHeight) {
			return nil // a payload from a block ahead or behind: harmless
		}
		return fmt.Errorf("%w: %w", ErrInvalidExtensible, err)
	}
	if !added {
		return nil
	}
	if e.Category == payload.ConsensusCategory {
		s.resetResend(true)
	}
	s.svcMu.RLock()
	h := s.extHandlers[e.Category]
	s.svcMu.RUnlock()
	if h != nil {
		if err := h(e); err != nil {
			return fmt.Errorf("%w: %s handler: %w", ErrInvalidExtensible, e.Category, err)
		}
	}
	s.advertiseExtensible(e)
	return nil
}

// onNotaryRequest verifies, pools and relays a notary request (neo-go
// handleP2PNotaryRequestCmd). A request the pool refuses is dropped
// without blaming the peer (it may only be stale), as neo-go does.
func (s *Server) onNotaryRequest(r *payload.P2PNotaryRequest) error {
	h := r.FallbackTransaction.Hash()
	s.req.done(h)
	np := s.notaryRequests()
	if np == nil || np.ContainsKey(h) {
		return nil
	}
	if err := np.Relay(r); err != nil {
		s.log.Debug("notary request refused", "fallback", h.StringLE(), "main", r.MainTransaction.Hash().StringLE(), "err", err)
	}
	return nil
}

// onMempool announces our verified transactions.
func (s *Server) onMempool(p *Peer) error {
	txs := s.mempool.GetVerifiedTransactions()
	for start := 0; start < len(txs); start += payload.MaxHashesCount {
		chunk := txs[start:min(start+payload.MaxHashesCount, len(txs))]
		inv := &payload.Inventory{Type: payload.TXType, Hashes: make([]hash.Uint256, len(chunk))}
		for i, tx := range chunk {
			inv.Hashes[i] = tx.Hash()
		}
		if err := p.send(message.CmdInv, inv, false); err != nil {
			return err
		}
	}
	return nil
}
