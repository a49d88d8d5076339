package oracle

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/services/lifecycle"
	"github.com/n3node/n3node/pkg/wallet"
)

// Ledger is what the service needs of the chain; *core.Blockchain has it
// all. Its queries read the committed state.
type Ledger interface {
	BlockHeight() uint32
	Config() *config.Blockchain
	GetDesignatedByRole(role noderoles.Role, index uint32) ([]*keys.PublicKey, uint32, error)
	GetOracleRequests() (map[uint64]*state.OracleRequest, error)
	GetOracleRequest(id uint64) (*state.OracleRequest, error)
	NextOracleRequestID() uint64
	OracleResponseScript() []byte
	FeePerByte() int64
	GetBaseExecFee() int64
	GetMaxVerificationGAS() int64
	GetMaxValidUntilBlockIncrement() uint32
	GetTransaction(h hash.Uint256) (*transaction.Transaction, uint32, error)
	VerifyWitness(h hash.Uint160, c interop.Container, w *transaction.Witness, gas int64) (int64, error)
	SubscribeForBlocks(ch chan<- *block.Block)
	UnsubscribeFromBlocks(ch chan<- *block.Block)
}

// HTTPClient does the oracle's HTTP requests (*http.Client).
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// Broadcaster sends this node's response signatures to the other Oracle
// nodes. SendResponse must not block for long.
type Broadcaster interface {
	SendResponse(priv *keys.PrivateKey, resp *transaction.OracleResponse, txSig []byte)
	Run()
	Shutdown()
}

// Config is what New needs.
type Config struct {
	// Chain is the ledger.
	Chain Ledger
	// Main is ApplicationConfiguration.Oracle; zero durations and counts
	// take neo-go's defaults.
	Main config.OracleConfiguration
	// Keys are the keys this node may sign with (nil: unlock
	// Main.UnlockWallet). The service signs with the first designated
	// Oracle node whose key it has.
	Keys []*keys.PrivateKey
	// HTTPClient replaces the default client (https, private addresses
	// refused unless Main.AllowPrivateHost, at most 2 redirections).
	HTTPClient HTTPClient
	// Broadcaster replaces the default submitoracleresponse RPC client of
	// Main.Nodes.
	Broadcaster Broadcaster
	// OnTransaction gets every completed response transaction: pool and
	// relay it. Nil drops them.
	OnTransaction func(*transaction.Transaction) error
	// Logger (nil: slog.Default()).
	Logger *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Defaults (neo-go pkg/services/oracle).
const (
	DefaultRequestTimeout        = 5 * time.Second
	DefaultMaxTaskTimeout        = time.Hour
	DefaultRefreshInterval       = 3 * time.Minute
	DefaultMaxConcurrentRequests = 10
	DefaultResponseTimeout       = 4 * time.Second
	// MaxRedirections is how many redirections a request may follow
	// (neo-go maxRedirections, C# OracleHttpsProtocol).
	MaxRedirections = 2
)

// Errors.
var (
	// ErrNoKeys: no key to sign with (the wallet opened no account).
	ErrNoKeys = errors.New("oracle: no wallet account could be unlocked")
	// ErrRestrictedRedirect: a request went to a private address or was
	// redirected where it may not go; it is answered with Forbidden.
	ErrRestrictedRedirect = errors.New("oracle request redirection error")
)

// Service is the Oracle service of one node.
type Service struct {
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	network uint32
	client  HTTPClient
	bcast   Broadcaster
	onTx    func(*transaction.Transaction) error
	keys    []*keys.PrivateKey

	// accMu guards the node set and the signing key.
	accMu      sync.RWMutex
	nodes      []*keys.PublicKey
	signScript []byte           // BFT multisig of nodes
	priv       *keys.PrivateKey // ours among nodes, nil if none

	// respMu guards responses, removed and the request bookkeeping.
	respMu    sync.Mutex
	responses map[uint64]*incompleteTx
	removed   map[uint64]bool
	nextID    uint64 // requests below it were queued

	queueMu sync.Mutex
	queue   []request
	wake    chan struct{}

	run    lifecycle.Once
	stop   chan struct{}
	blocks chan *block.Block
	wg     sync.WaitGroup
}

type request struct {
	id  uint64
	req *state.OracleRequest // nil: the request was processed before and timed out
}

// New makes a service; it does not start it.
func New(cfg Config) (*Service, error) {
	if cfg.Chain == nil {
		return nil, errors.New("oracle: no chain")
	}
	m := &cfg.Main
	if m.RequestTimeout == 0 {
		m.RequestTimeout = DefaultRequestTimeout
	}
	if m.NeoFS.Timeout == 0 {
		m.NeoFS.Timeout = DefaultRequestTimeout
	}
	if m.MaxConcurrentRequests <= 0 {
		m.MaxConcurrentRequests = DefaultMaxConcurrentRequests
	}
	if m.MaxTaskTimeout == 0 {
		m.MaxTaskTimeout = DefaultMaxTaskTimeout
	}
	if m.RefreshInterval == 0 {
		m.RefreshInterval = DefaultRefreshInterval
	}
	if m.ResponseTimeout == 0 {
		m.ResponseTimeout = DefaultResponseTimeout
	}
	s := &Service{
		cfg:       cfg,
		log:       cfg.Logger,
		now:       cfg.Now,
		network:   uint32(cfg.Chain.Config().Magic),
		client:    cfg.HTTPClient,
		bcast:     cfg.Broadcaster,
		onTx:      cfg.OnTransaction,
		keys:      cfg.Keys,
		responses: make(map[uint64]*incompleteTx),
		removed:   make(map[uint64]bool),
		wake:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		blocks:    make(chan *block.Block, 16),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.log = s.log.With("module", "oracle")
	if s.now == nil {
		s.now = time.Now
	}
	if s.keys == nil {
		ks, err := wallet.ReadKeys(m.UnlockWallet)
		if err != nil && !errors.Is(err, wallet.ErrNoKeys) {
			return nil, fmt.Errorf("oracle wallet: %w", err)
		}
		s.keys = ks
	}
	if len(s.keys) == 0 {
		return nil, ErrNoKeys
	}
	if s.client == nil {
		s.client = NewHTTPClient(*m)
	}
	if s.bcast == nil {
		s.bcast = NewRPCBroadcaster(*m, s.log)
	}
	if s.onTx == nil {
		s.onTx = func(*transaction.Transaction) error { return nil }
	}
	return s, nil
}

// Name returns the service name.
func (s *Service) Name() string { return "oracle" }

// Start loads the Oracle nodes and the pending requests and starts the
// workers, the block subscription and the refresh ticker. It runs once;
// later calls do nothing.
func (s *Service) Start() { s.run.Start(s.start) }

func (s *Service) start() {
	s.log.Info("starting oracle service")
	s.cfg.Chain.SubscribeForBlocks(s.blocks)
	s.loadState()
	for range s.cfg.Main.MaxConcurrentRequests {
		s.wg.Go(s.worker)
	}
	s.wg.Go(s.bcast.Run)
	s.wg.Go(s.loop)
}

// Shutdown stops the service and waits for its goroutines. A stopped
// service cannot be started again.
func (s *Service) Shutdown() { s.run.Stop(s.stopRunning) }

// stopRunning stops the goroutines and subscriptions Start began.
func (s *Service) stopRunning() {
	s.log.Info("stopping oracle service")
	// Unsubscribe while the loop still reads: the chain may be delivering
	// a block to a full channel, and unsubscribing waits for that.
	s.cfg.Chain.UnsubscribeFromBlocks(s.blocks)
	close(s.stop)
	s.bcast.Shutdown()
	s.wg.Wait()
}

// IsAuthorized reports whether this node holds the key of a designated
// Oracle node.
func (s *Service) IsAuthorized() bool { return s.signer() != nil }

// loadState reads the designated nodes and queues every pending request
// (neo-go Blockchain.SetOracle).
func (s *Service) loadState() {
	chain := s.cfg.Chain
	s.updateNodes()
	next := chain.NextOracleRequestID()
	reqs, err := chain.GetOracleRequests()
	if err != nil {
		s.log.Error("can't read pending oracle requests", "err", err)
	}
	s.respMu.Lock()
	s.nextID = next
	s.respMu.Unlock()
	batch := make([]request, 0, len(reqs))
	for id, r := range reqs {
		batch = append(batch, request{id: id, req: r})
	}
	s.enqueue(batch...)
}

func (s *Service) loop() {
	tick := time.NewTicker(s.cfg.Main.RefreshInterval)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.Refresh()
		case b := <-s.blocks:
			s.OnBlock(b)
		}
	}
}

// OnBlock takes a committed block: it refreshes the Oracle nodes, forgets
// the requests the block answered and queues the requests made since the
// previous call. Start subscribes it to the chain; call it directly only
// for a service that is not started.
func (s *Service) OnBlock(b *block.Block) {
	chain := s.cfg.Chain
	s.updateNodes()
	var answered []uint64
	for _, tx := range b.Transactions {
		for _, a := range tx.GetAttributes(transaction.OracleResponseT) {
			answered = append(answered, a.Value.(*transaction.OracleResponse).ID)
		}
	}
	next := chain.NextOracleRequestID()
	s.respMu.Lock()
	for _, id := range answered {
		delete(s.responses, id)
	}
	// Response state created after the request was answered (a late
	// signature or fetch) goes too; neo-go keeps it until MaxTaskTimeout.
	for id := range s.responses {
		if id < next {
			if _, err := chain.GetOracleRequest(id); err != nil {
				delete(s.responses, id)
			}
		}
	}
	from := s.nextID
	if next > from {
		s.nextID = next
	}
	s.respMu.Unlock()
	var batch []request
	for id := from; id < next; id++ {
		r, err := chain.GetOracleRequest(id)
		if err != nil {
			continue // answered already (or not made: the id counts faulted requests too)
		}
		batch = append(batch, request{id: id, req: r})
	}
	s.enqueue(batch...)
}

// Refresh is the periodic check (every RefreshInterval): requests
// processed more than MaxTaskTimeout ago are dropped, those processed
// more than RefreshInterval ago and still pending are answered with their
// backup transaction (or their completed transaction is sent again).
func (s *Service) Refresh() {
	now := s.now()
	var again []request
	s.respMu.Lock()
	s.removed = make(map[uint64]bool)
	for id, t := range s.responses {
		t.mu.Lock()
		since := now.Sub(t.time)
		t.mu.Unlock()
		switch {
		case since > s.cfg.Main.MaxTaskTimeout:
			s.removed[id] = true
		case since > s.cfg.Main.RefreshInterval:
			again = append(again, request{id: id})
		}
	}
	for id := range s.removed {
		delete(s.responses, id)
	}
	s.respMu.Unlock()
	s.enqueue(again...)
}

// Processed reports whether this node built the response transactions
// of request id (and keeps them).
func (s *Service) Processed(id uint64) bool {
	t := s.getResponse(id, false)
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.main.tx != nil
}

// Pending returns the number of requests with response state.
func (s *Service) Pending() int {
	s.respMu.Lock()
	defer s.respMu.Unlock()
	return len(s.responses)
}

func (s *Service) enqueue(rs ...request) {
	if len(rs) == 0 {
		return
	}
	s.queueMu.Lock()
	s.queue = append(s.queue, rs...)
	s.queueMu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Service) dequeue() (request, bool) {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	if len(s.queue) == 0 {
		return request{}, false
	}
	r := s.queue[0]
	s.queue[0] = request{}
	s.queue = s.queue[1:]
	if len(s.queue) > 0 {
		select { // more work: wake another worker
		case s.wake <- struct{}{}:
		default:
		}
	}
	return r, true
}

func (s *Service) worker() {
	for {
		r, ok := s.dequeue()
		if !ok {
			select {
			case <-s.stop:
				return
			case <-s.wake:
			}
			continue
		}
		select {
		case <-s.stop:
			return
		default:
		}
		priv := s.signer()
		if priv == nil {
			continue
		}
		if err := s.process(priv, r); err != nil {
			s.log.Debug("can't process oracle request", "id", r.id, "err", err)
		}
	}
}

// ProcessRequests processes requests synchronously (tests, tools).
func (s *Service) ProcessRequests(reqs map[uint64]*state.OracleRequest) {
	priv := s.signer()
	if priv == nil {
		return
	}
	for id, r := range reqs {
		if err := s.process(priv, request{id: id, req: r}); err != nil {
			s.log.Debug("can't process oracle request", "id", id, "err", err)
		}
	}
}

func (s *Service) sendTx(tx *transaction.Transaction) {
	if err := s.onTx(tx); err != nil {
		s.log.Error("can't pool oracle tx", "hash", tx.Hash().StringLE(), "err", err)
	}
}
