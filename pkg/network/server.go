package network

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/bqueue"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/extpool"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// ErrStarted is returned by a second Start.
var ErrStarted = errors.New("network: server already started")

// Server is the local node on the P2P network: it listens and dials,
// keeps between MinPeers and MaxPeers handshaked peers, answers their
// requests, relays transactions, blocks and extensible payloads, and
// syncs the ledger (headers first, then blocks through the block queue).
type Server struct {
	cfg     ServerConfig
	ledger  Ledger
	mempool Mempool
	log     *slog.Logger
	id      uint32

	rngMu sync.Mutex
	rng   *rand.Rand

	disc  *discovery
	bq    *bqueue.Queue
	ext   *extpool.Pool
	sync  *syncer
	stx   *stateExchange // state sync (SetStateSync), nil without
	req   *requests
	txIn  *txInflight
	relay chan *block.Block
	txAnn chan hash.Uint256
	// resend restarts the consensus payload resend timer (true) or stops
	// it (false).
	resend chan bool

	mu        sync.RWMutex
	peers     map[*Peer]struct{}
	listeners []net.Listener
	ports     []uint16 // announced port per listener

	svcMu       sync.RWMutex
	extHandlers map[string]ExtensibleHandler
	notaryPool  NotaryRequestPool
	txHook      func(*transaction.Transaction)
	txHookList  map[hash.Uint256]struct{}

	lastGetAddr time.Time // used by runLoop only

	synced   atomic.Bool
	syncedCh chan struct{}
	started  atomic.Bool
	stopped  atomic.Bool
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// NewServer returns a server over the given ledger and memory pool. It
// does not touch the network until Start.
func NewServer(cfg ServerConfig, ledger Ledger, mp Mempool) (*Server, error) {
	if ledger == nil || mp == nil {
		return nil, errors.New("network: ledger and mempool are required")
	}
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:         cfg,
		ledger:      ledger,
		mempool:     mp,
		log:         cfg.Logger,
		rng:         cfg.Rand,
		peers:       make(map[*Peer]struct{}),
		extHandlers: make(map[string]ExtensibleHandler),
		syncedCh:    make(chan struct{}),
		relay:       make(chan *block.Block, 16),
		txAnn:       make(chan hash.Uint256, 256),
		resend:      make(chan bool, 1),
	}
	s.id = s.rng.Uint32()
	s.disc = newDiscovery(cfg.Seeds, cfg.MaxDialAttempts, cfg.RetryBackoff, cfg.MaxBackoff)
	s.ext = extpool.New(ledger, cfg.ExtensiblePoolSize)
	s.bq = bqueue.New(ledger, cfg.BlockQueueSize, s.blockAdded, s.log)
	s.sync = newSyncer(s)
	s.req = newRequests()
	s.txIn = newTxInflight(mp)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s, nil
}

func seed() [32]byte {
	var b [32]byte
	_, _ = crand.Read(b[:])
	return b
}

// ID returns the node id (the version nonce).
func (s *Server) ID() uint32 { return s.id }

func (s *Server) now() time.Time { return s.cfg.Now() }

func (s *Server) randN(n int) int {
	s.rngMu.Lock()
	defer s.rngMu.Unlock()
	return s.rng.IntN(n)
}

func (s *Server) shuffle(n int, swap func(i, j int)) {
	s.rngMu.Lock()
	defer s.rngMu.Unlock()
	s.rng.Shuffle(n, swap)
}

func (s *Server) shuffleStrings(a []string) {
	s.shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
}

// Start listens on the configured addresses and starts the server's
// goroutines. It fails if a listener cannot be opened.
func (s *Server) Start() error {
	if !s.started.CompareAndSwap(false, true) {
		return ErrStarted
	}
	for _, a := range s.cfg.Addresses {
		l, err := s.cfg.Listen("tcp", a.Address)
		if err != nil {
			s.closeListeners()
			s.started.Store(false)
			return fmt.Errorf("network: listen on %s: %w", a.Address, err)
		}
		port := a.AnnouncedPort
		if port == 0 {
			port = listenerPort(l)
		}
		s.mu.Lock()
		s.listeners = append(s.listeners, l)
		s.ports = append(s.ports, port)
		s.mu.Unlock()
	}
	s.log.Info("network server started", "id", s.id, "blockHeight", s.ledger.BlockHeight(),
		"headerHeight", s.ledger.HeaderHeight(), "listen", s.ListenAddrs())
	s.mu.RLock()
	for _, l := range s.listeners {
		s.wg.Go(func() { s.acceptLoop(l) })
	}
	s.mu.RUnlock()
	s.wg.Go(s.bq.Run)
	s.startStateSync()
	s.wg.Go(s.runLoop)
	s.wg.Go(s.pingLoop)
	s.wg.Go(s.sync.loop)
	s.wg.Go(s.relayLoop)
	s.wg.Go(s.txAnnounceLoop)
	s.wg.Go(s.consensusResendLoop)
	for range txWorkers() {
		s.wg.Go(s.txWorker)
	}
	s.trySynced()
	return nil
}

func listenerPort(l net.Listener) uint16 {
	if ta, ok := l.Addr().(*net.TCPAddr); ok {
		return uint16(ta.Port)
	}
	_, p, err := net.SplitHostPort(l.Addr().String())
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(p)
	return uint16(n)
}

// ListenAddrs returns the addresses the server listens on.
func (s *Server) ListenAddrs() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, len(s.listeners))
	for i, l := range s.listeners {
		out[i] = l.Addr().String()
	}
	return out
}

func (s *Server) closeListeners() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.listeners {
		_ = l.Close()
	}
}

// Shutdown disconnects every peer, stops listening and waits for all the
// server's goroutines. It is safe to call more than once; a stopped server
// cannot be started again.
func (s *Server) Shutdown() {
	if !s.started.Load() || !s.stopped.CompareAndSwap(false, true) {
		return
	}
	s.log.Info("network server shutting down", "peers", s.PeerCount())
	s.cancel()
	s.closeListeners()
	for _, p := range s.Peers() {
		p.Disconnect(ErrServerShutdown)
	}
	s.bq.Discard()
	s.stopStateSync()
	s.wg.Wait()
}

func (s *Server) isStopping() bool { return s.ctx.Err() != nil }

// acceptLoop takes inbound connections.
func (s *Server) acceptLoop(l net.Listener) {
	for {
		conn, err := l.Accept()
		if err != nil {
			if s.isStopping() || errors.Is(err, net.ErrClosed) {
				return
			}
			s.log.Warn("accept failed", "err", err)
			select {
			case <-time.After(100 * time.Millisecond):
			case <-s.ctx.Done():
				return
			}
			continue
		}
		if s.PeerCount() >= s.cfg.MaxPeers {
			s.log.Debug("refusing inbound connection: too many peers", "remote", conn.RemoteAddr())
			_ = conn.Close()
			continue
		}
		s.addConn(conn, "")
	}
}

// ConnectTo dials addr now (outside the discoverer's schedule); the result
// is recorded in the address book like any other dial.
func (s *Server) ConnectTo(addr string) {
	s.disc.backfill(addr)
	s.disc.mu.Lock()
	st := s.disc.get(addr)
	ok := st.status == addrPool
	if ok {
		st.status = addrConnecting
		s.disc.connectingN++
	}
	s.disc.mu.Unlock()
	if ok {
		s.wg.Go(func() { s.dial(addr, false) })
	}
}

// connectMore asks the discoverer for up to n addresses and dials them.
func (s *Server) connectMore(n int) {
	n -= s.disc.connecting()
	if free := s.cfg.MaxPeers - s.PeerCount() - s.disc.connecting(); n > free {
		n = free
	}
	if n <= 0 {
		return
	}
	for _, a := range s.disc.candidates(n, s.now(), s.shuffleStrings) {
		s.wg.Go(func() { s.dial(a, true) })
	}
}

// dial connects to addr with the dial timeout, after a random pause of
// up to half a second with jitter (so that many nodes starting together
// do not dial each other in lockstep).
func (s *Server) dial(addr string, jitter bool) {
	if jitter {
		pause := time.Duration(s.randN(int(500 * time.Millisecond)))
		select {
		case <-time.After(pause):
		case <-s.ctx.Done():
			s.disc.dialFailed(addr, s.now())
			return
		}
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.DialTimeout)
	conn, err := s.cfg.Dial(ctx, "tcp", addr)
	cancel()
	if err != nil {
		s.log.Debug("dial failed", "addr", addr, "err", err)
		s.disc.dialFailed(addr, s.now())
		return
	}
	if s.isStopping() {
		_ = conn.Close()
		s.disc.dialFailed(addr, s.now())
		return
	}
	s.disc.dialed(addr)
	s.addConn(conn, addr)
}

// addConn starts serving a new connection: it registers the peer, sends
// our version and starts the peer's goroutines.
func (s *Server) addConn(conn net.Conn, dialAddr string) {
	p := newPeer(s, conn, dialAddr)
	s.mu.Lock()
	if s.isStopping() {
		s.mu.Unlock()
		_ = conn.Close()
		if dialAddr != "" {
			s.disc.disconnected(dialAddr, dropNormal, false, s.now())
		}
		return
	}
	s.peers[p] = struct{}{}
	s.mu.Unlock()
	s.log.Debug("peer connected", "remote", conn.RemoteAddr(), "inbound", dialAddr == "")
	// Queue our version before anything can read the peer's: the verack
	// we send in answer must follow it on the wire.
	if err := s.sendVersion(p); err != nil {
		p.Disconnect(err)
	}
	s.wg.Go(p.writeLoop)
	s.wg.Go(p.readLoop)
	s.wg.Go(p.handleLoop)
}

// sendVersion queues our version message.
func (s *Server) sendVersion(p *Peer) error {
	b, err := message.Encode(message.CmdVersion, s.versionPayload(p), false)
	if err != nil {
		return err
	}
	p.mark(versionSent)
	return p.enqueue(p.hpQ, b)
}

func (s *Server) versionPayload(p *Peer) *payload.Version {
	var caps capability.Capabilities
	if port := s.portFor(p.conn.LocalAddr()); port != 0 {
		caps = append(caps, capability.NewTCPServer(port))
	}
	if s.cfg.Relay {
		caps = append(caps, capability.NewFullNode(s.ledger.BlockHeight()))
	}
	if s.cfg.Archival {
		caps = append(caps, capability.Capability{Type: capability.ArchivalNode})
	}
	if s.cfg.DisableCompression {
		caps = append(caps, capability.Capability{Type: capability.DisableCompression})
	}
	return &payload.Version{
		Magic:        s.cfg.Magic,
		Version:      payload.ProtocolVersion,
		Timestamp:    uint32(s.now().Unix()),
		Nonce:        s.id,
		UserAgent:    s.cfg.UserAgent,
		Capabilities: caps,
	}
}

// portFor returns the port to announce on a connection whose local
// address is local: the listener on that IP, else the first one.
func (s *Server) portFor(local net.Addr) uint16 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.ports) == 0 {
		return 0
	}
	host, _, _ := net.SplitHostPort(local.String())
	for i, l := range s.listeners {
		lh, _, _ := net.SplitHostPort(l.Addr().String())
		if lh == host {
			return s.ports[i]
		}
	}
	return s.ports[0]
}

// peerGone unregisters a disconnected peer (called once per peer).
func (s *Server) peerGone(p *Peer, reason error) {
	s.mu.Lock()
	_, ok := s.peers[p]
	delete(s.peers, p)
	n := len(s.peers)
	s.mu.Unlock()
	if !ok {
		return
	}
	handshaked := p.Handshaked()
	kind := dropKindOf(reason, handshaked)
	addr := p.PeerAddr()
	if !p.Inbound() || handshaked || kind == dropSelf || kind == dropBan {
		s.disc.disconnected(addr, kind, handshaked, s.now())
	}
	lvl := slog.LevelDebug
	if handshaked {
		lvl = slog.LevelInfo
	}
	s.log.Log(s.ctx, lvl, "peer disconnected", "remote", p.RemoteAddr(), "reason", reason, "peers", n)
	s.req.peerGone(p)
	s.sync.kick()
}

// dropKindOf classifies a disconnection reason for the address book.
func dropKindOf(reason error, handshaked bool) dropKind {
	switch {
	case errors.Is(reason, ErrIdenticalID):
		return dropSelf
	case errors.Is(reason, ErrAlreadyConnected):
		return dropDuplicate
	case errors.Is(reason, ErrInvalidNetwork), errors.Is(reason, ErrHandshake), isProtocolError(reason):
		return dropBan
	case errors.Is(reason, ErrServerShutdown), errors.Is(reason, ErrMaxPeers):
		return dropNormal
	case !handshaked:
		return dropBusy
	}
	return dropNormal
}

// isProtocolError reports whether err means the peer sent something
// invalid (as opposed to a transport failure or a timeout).
func isProtocolError(err error) bool {
	var de *message.DecodeError
	if errors.As(err, &de) {
		return true
	}
	// ErrBlockMismatch and ErrInvalidExtensible are left out: an honest
	// peer on a different view of the chain can cause them. So are an
	// unrequested pong or addr (a message duplicated on the way, or an
	// answer that crossed a disconnect) and a message this node's
	// configuration does not take (a notary request without
	// P2PSigExtensions): they end the connection, and the address is
	// dialed again later, as neo-go does, but not banned (make chaos found
	// n3node banning neo-go peers for duplicated addr and pong messages).
	for _, e := range []error{ErrInvalidInventory} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// Peers returns the connected peers (handshaked or not).
func (s *Server) Peers() []*Peer {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Peer, 0, len(s.peers))
	for p := range s.peers {
		out = append(out, p)
	}
	return out
}

// handshakedPeers returns the handshaked peers that pass ok (nil: all).
func (s *Server) handshakedPeers(ok func(*Peer) bool) []*Peer {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Peer, 0, len(s.peers))
	for p := range s.peers {
		if p.Handshaked() && (ok == nil || ok(p)) {
			out = append(out, p)
		}
	}
	return out
}

// PeerCount returns the number of connected peers.
func (s *Server) PeerCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.peers)
}

// HandshakedPeersCount returns the number of handshaked peers.
func (s *Server) HandshakedPeersCount() int { return len(s.handshakedPeers(nil)) }

// PeerInfo describes a connected peer (for RPC getpeers).
type PeerInfo struct {
	Address   string
	UserAgent string
	Height    uint32
}

// ConnectedPeers describes the handshaked peers.
func (s *Server) ConnectedPeers() []PeerInfo {
	var out []PeerInfo
	for _, p := range s.handshakedPeers(nil) {
		pi := PeerInfo{Address: p.RemoteAddr().String(), Height: p.LastBlockIndex()}
		if v := p.Version(); v != nil {
			pi.UserAgent = v.UserAgent
		}
		out = append(out, pi)
	}
	return out
}

// UnconnectedPeers and BadPeers list the address book (for RPC getpeers).
func (s *Server) UnconnectedPeers() []string { u, _ := s.disc.lists(); return u }

// BadPeers lists addresses that are gone or banned.
func (s *Server) BadPeers() []string { _, b := s.disc.lists(); return b }

// runLoop keeps the peer count up, asks for addresses and drops peers
// that time out.
func (s *Server) runLoop() {
	tick := time.NewTicker(s.cfg.ProtoTickInterval)
	defer tick.Stop()
	addrTick := time.NewTicker(max(s.cfg.TimePerBlock*10, time.Minute))
	defer addrTick.Stop()
	askAddr := true
	for round := 0; ; round++ {
		s.maintain(askAddr, round)
		askAddr = false
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		case <-addrTick.C:
			askAddr = true
		}
	}
}

// maintain runs one round of peer maintenance at the current time: drop
// peers that timed out; below MinPeers (or with no peer at all) dial up to
// AttemptConnPeers addresses; every MinPeers-th round, if the network
// looks bigger than our peer set, dial a few more (neo-go Server.run).
func (s *Server) maintain(askAddr bool, round int) {
	now := s.now()
	for _, p := range s.Peers() {
		if err := p.timedOut(now); err != nil {
			p.Disconnect(err)
		}
	}
	s.req.expire(now)
	peerN := s.HandshakedPeersCount()
	if peerN < s.cfg.MinPeers || peerN == 0 {
		s.connectMore(s.cfg.AttemptConnPeers)
	} else if s.cfg.MinPeers > 0 && round%s.cfg.MinPeers == 0 {
		size := s.disc.networkSize()
		if opt := min(fanOut(size)*2, size-1); opt > peerN && opt < s.cfg.MaxPeers {
			s.connectMore(min(s.cfg.AttemptConnPeers, opt-peerN))
		}
	}
	// Ask for addresses periodically, and more often while we know too few
	// (a newly handshaked peer is asked at once, see onHandshaked).
	short := s.disc.poolCount()+peerN < s.cfg.AttemptConnPeers
	if askAddr || short && now.Sub(s.lastGetAddr) >= getAddrInterval(s.cfg) {
		s.lastGetAddr = now
		s.broadcastAll(message.CmdGetAddr, nil, true, func(p *Peer) { p.getAddrSent.Add(1) })
	}
	s.trySynced()
}

// getAddrInterval is the least time between getaddr broadcasts made
// because the address book is short.
func getAddrInterval(c ServerConfig) time.Duration { return 10 * c.ProtoTickInterval }

// pingLoop pings every peer when the chain has not moved for a ping
// interval (neo-go runProto).
func (s *Server) pingLoop() {
	tick := time.NewTicker(s.cfg.PingInterval)
	defer tick.Stop()
	prev := s.ledger.BlockHeight()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		}
		h := s.ledger.BlockHeight()
		if h == prev {
			s.pingAll()
		}
		prev = h
	}
}

// pingAll sends a ping to every handshaked peer.
func (s *Server) pingAll() {
	ping := &payload.Ping{LastBlockIndex: s.ledger.BlockHeight(), Timestamp: uint32(s.now().Unix()), Nonce: s.id}
	now := s.now()
	s.broadcastAll(message.CmdPing, ping, true, func(p *Peer) { p.pingSent(now) })
}

// IsInSync reports whether the node considers itself synchronized: with
// MinPeers 0 always; otherwise with at least MinPeers handshaked peers of
// which more than two thirds are not higher than our chain (neo-go
// IsInSync). Once true it stays true.
func (s *Server) IsInSync() bool {
	if s.synced.Load() {
		return true
	}
	if s.stateSyncActive() {
		return false
	}
	if s.cfg.MinPeers == 0 {
		return true
	}
	our := s.ledger.BlockHeight()
	peers := s.handshakedPeers(nil)
	notHigher := 0
	for _, p := range peers {
		if p.LastBlockIndex() <= our {
			notHigher++
		}
	}
	return len(peers) >= s.cfg.MinPeers && 3*notHigher > 2*len(peers)
}

// Synced returns a channel closed when the node first reaches sync
// (services such as consensus start then).
func (s *Server) Synced() <-chan struct{} { return s.syncedCh }

func (s *Server) trySynced() {
	if s.synced.Load() || !s.IsInSync() {
		return
	}
	if s.synced.CompareAndSwap(false, true) {
		s.log.Info("node reached synchronized state", "height", s.ledger.BlockHeight())
		close(s.syncedCh)
	}
}

// AddExtensibleHandler registers the handler of an extensible payload
// category ("dBFT" for consensus, "StateService" for state roots),
// replacing any previous one. Payloads of categories without a handler
// are still pooled and relayed.
func (s *Server) AddExtensibleHandler(category string, h ExtensibleHandler) {
	s.svcMu.Lock()
	defer s.svcMu.Unlock()
	s.extHandlers[category] = h
}

// RemoveExtensibleHandler drops a category's handler.
func (s *Server) RemoveExtensibleHandler(category string) {
	s.svcMu.Lock()
	defer s.svcMu.Unlock()
	delete(s.extHandlers, category)
}

// BroadcastExtensible pools a locally made payload and announces it:
// consensus payloads to every peer at high priority, others with the
// usual fan-out.
func (s *Server) BroadcastExtensible(e *payload.Extensible) error {
	added, err := s.ext.Add(e)
	if err != nil {
		return fmt.Errorf("network: extensible payload: %w", err)
	}
	if added && e.Category == payload.ConsensusCategory {
		s.resetResend(true)
	}
	s.advertiseExtensible(e)
	return nil
}

// NotaryRequestPool is the notary request pool of a node with
// P2PSigExtensions (package services/notary's RequestPool): requests are
// keyed by their fallback transaction's hash.
type NotaryRequestPool interface {
	ContainsKey(h hash.Uint256) bool
	Get(h hash.Uint256) (*payload.P2PNotaryRequest, bool)
	// Relay verifies and pools a request and, if it is new, announces it
	// (the pool's announcer is BroadcastNotaryRequest).
	Relay(r *payload.P2PNotaryRequest) error
}

// SetNotaryRequestPool makes the server fetch, pool and serve notary
// requests (with P2PSigExtensions; nil stops it). Without a pool they
// are accepted and ignored.
func (s *Server) SetNotaryRequestPool(p NotaryRequestPool) {
	s.svcMu.Lock()
	defer s.svcMu.Unlock()
	s.notaryPool = p
}

func (s *Server) notaryRequests() NotaryRequestPool {
	s.svcMu.RLock()
	defer s.svcMu.RUnlock()
	return s.notaryPool
}

// BroadcastNotaryRequest announces a pooled notary request (its
// fallback's hash) to the peers (neo-go broadcastP2PNotaryRequestPayload).
func (s *Server) BroadcastNotaryRequest(r *payload.P2PNotaryRequest) {
	inv := &payload.Inventory{Type: payload.P2PNotaryRequestType, Hashes: []hash.Uint256{r.FallbackTransaction.Hash()}}
	s.broadcast(message.CmdInv, inv, false, nil)
}

// SetTxHook sets the function consensus uses to receive the transactions
// it asked for with RequestTx (nil removes it).
func (s *Server) SetTxHook(f func(*transaction.Transaction)) {
	s.svcMu.Lock()
	defer s.svcMu.Unlock()
	s.txHook = f
}

// RequestTx asks every peer, at high priority, for the given transactions;
// those that arrive are passed to the tx hook (before pooling) as well.
func (s *Server) RequestTx(hashes ...hash.Uint256) {
	if len(hashes) == 0 {
		return
	}
	list := make(map[hash.Uint256]struct{}, len(hashes))
	for _, h := range hashes {
		list[h] = struct{}{}
	}
	s.svcMu.Lock()
	s.txHookList = list
	s.svcMu.Unlock()
	for start := 0; start < len(hashes); start += payload.MaxHashesCount {
		chunk := hashes[start:min(start+payload.MaxHashesCount, len(hashes))]
		s.broadcastAll(message.CmdGetData, &payload.Inventory{Type: payload.TXType, Hashes: chunk}, true, nil)
	}
}

// StopTxFlow clears the RequestTx list.
func (s *Server) StopTxFlow() {
	s.svcMu.Lock()
	defer s.svcMu.Unlock()
	s.txHookList = nil
}

// RelayTx verifies and pools a transaction (from RPC, say) and announces
// it to peers.
func (s *Server) RelayTx(tx *transaction.Transaction) error {
	tx.Hash() // fill the caches before tx is shared between goroutines
	tx.Size()
	if err := s.ledger.PoolTx(tx); err != nil {
		return err
	}
	s.announceTx(tx.Hash())
	return nil
}

// AnnounceTx announces a transaction that is already in the pool again.
// The node wires it to the mempool's resend of stale transactions (neo-go:
// Pool.SetResendThreshold with max(5, 2*validators) blocks), so a
// transaction whose announcement was lost still spreads.
func (s *Server) AnnounceTx(tx *transaction.Transaction) {
	s.announceTx(tx.Hash())
}

// RelayBlock announces a block the ledger added outside the server (for
// example one made by consensus) to the peers that are behind it. Blocks
// the server itself feeds to the ledger are announced automatically.
func (s *Server) RelayBlock(b *block.Block) {
	b.Hash()
	select {
	case s.relay <- b:
	case <-s.ctx.Done():
	}
}

// blockAdded is the block queue's callback.
func (s *Server) blockAdded(b *block.Block) {
	s.sync.kick()
	if s.synced.Load() || s.IsInSync() {
		s.trySynced()
		s.RelayBlock(b)
	} else {
		s.removeStaleExtensibles(b.Index)
	}
}

// relayLoop announces new blocks.
func (s *Server) relayLoop() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case b := <-s.relay:
			inv := &payload.Inventory{Type: payload.BlockType, Hashes: []hash.Uint256{b.Hash()}}
			s.broadcast(message.CmdInv, inv, false, func(p *Peer) bool { return p.LastBlockIndex() < b.Index })
			s.removeStaleExtensibles(b.Index)
		}
	}
}

// BlockQueueLen returns the number of blocks waiting in the block queue.
func (s *Server) BlockQueueLen() int { return s.bq.Len() }

// BlockQueueCap returns the block queue capacity.
func (s *Server) BlockQueueCap() int { return s.bq.Cap() }

// txWorkers is the number of transaction verification goroutines (more
// does not help: the memory pool is the contention point).
func txWorkers() int { return min(runtime.GOMAXPROCS(0), 16) }

// removeStaleExtensibles prunes the extensible pool after block index and
// keeps the consensus resend timer running only while consensus payloads
// are left.
func (s *Server) removeStaleExtensibles(index uint32) {
	s.ext.RemoveStale(index)
	s.resetResend(len(s.ext.Category(payload.ConsensusCategory)) > 0)
}

// resetResend signals consensusResendLoop without blocking.
func (s *Server) resetResend(run bool) {
	select {
	case s.resend <- run:
	default:
		// A signal is pending; replace it with the newer one.
		select {
		case <-s.resend:
		default:
		}
		select {
		case s.resend <- run:
		default:
		}
	}
}

// consensusResendLoop announces the pooled consensus payloads again when
// no new one arrived for half a block time, then after doubling intervals
// (neo-go extpool resendDispatcher), so a validator that missed a message
// gets another chance before the view times out.
func (s *Server) consensusResendLoop() {
	threshold := max(s.cfg.TimePerBlock/2, 20*time.Millisecond)
	var timer loopTimer
	shift := 0
	for {
		select {
		case <-s.ctx.Done():
			timer.stop()
			return
		case run := <-s.resend:
			timer.stop()
			shift = 0
			if run {
				timer.arm(threshold)
			}
		case <-timer.C:
			hs := s.ext.Category(payload.ConsensusCategory)
			if len(hs) == 0 {
				timer.fired()
				continue
			}
			for start := 0; start < len(hs); start += payload.MaxHashesCount {
				inv := &payload.Inventory{Type: payload.ExtensibleType, Hashes: hs[start:min(start+payload.MaxHashesCount, len(hs))]}
				s.broadcastAll(message.CmdInv, inv, true, nil)
			}
			shift = min(shift+1, 16)
			timer.t.Reset(threshold << shift)
		}
	}
}
