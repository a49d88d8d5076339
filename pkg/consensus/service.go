package consensus

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/nspcc-dev/dbft"
)

// Queue sizes of the Service's event loop (neo-go's).
const (
	messageQueueSize     = 100
	transactionQueueSize = 100
)

// Config is what a Service runs with.
type Config struct {
	Ledger      Ledger
	Mempool     Mempool
	Broadcaster Broadcaster
	// Keys are the node's consensus keys. In every round the one among
	// the validators signs; with none there, the node only watches.
	Keys []*keys.PrivateKey
	// Clock is the time source; nil means the system clock.
	Clock Clock
	// Logger receives the Service's and dbft's logs; nil means
	// slog.Default().
	Logger *slog.Logger
	// Nonce, if set, gives the nonce of this node's proposals instead of
	// dbft's (crypto/rand), for reproducible simulations.
	Nonce func() uint64
}

// Service errors.
var (
	ErrConfig            = errors.New("consensus: invalid configuration")
	ErrStateRootInHeader = errors.New("consensus: StateRootInHeader needs a Ledger with local state roots (StateRootLedger)")
	ErrInvalidPayload    = errors.New("consensus: malformed payload")
	ErrOutdated          = errors.New("consensus: payload for a persisted height")
	ErrNotValidator      = errors.New("consensus: payload not signed by the validator it names")
)

// Reasons a proposal is refused before dbft sees it (dbft then asks for a
// view change).
var (
	errPrevHash        = errors.New("PrepareRequest: wrong previous block hash")
	errVersion         = errors.New("PrepareRequest: wrong block version")
	errTooManyTxs      = errors.New("PrepareRequest: more transactions than MaxTransactionsPerBlock")
	errFutureTimestamp = errors.New("PrepareRequest: timestamp too far in the future")
	errStateRoot       = errors.New("PrepareRequest: state root mismatch")
)

// futureBlocks is how many block intervals a proposed timestamp may be
// ahead of the local clock (C# OnPrepareRequestReceived: 8 *
// TimePerBlock).
const futureBlocks = 8

const (
	stateNew int32 = iota
	stateRunning
	stateStopped
)

// Service runs dBFT 2.0 for one node. See the package documentation.
type Service struct {
	ledger Ledger
	roots  StateRootLedger // nil unless StateRootInHeader
	pool   Mempool
	net    Broadcaster
	keys   []*keys.PrivateKey
	clock  Clock
	nonce  func() uint64
	log    *slog.Logger
	proto  config.Blockchain
	magic  uint32

	dbft  *dbft.DBFT[Hash]
	timer *roundTimer

	// Owned by the event loop.
	lastTimestamp uint64 // of the last block seen, in ms
	lastProposal  []Hash // of the current height, for proposals in later views
	// starting hides the node's keys from dbft while Start runs (see
	// begin); ownRequest is this node's own PrepareRequest when it came
	// back to it (in a recovery message) after a restart.
	starting   bool
	ownRequest dbft.ConsensusPayload[Hash]
	rejected   []Hash // transactions the last proposal was refused for
	// unadded is the agreed block the ledger refused (e.g. while its
	// database refuses writes); it is offered again every unaddedRetry
	// (retry) until the ledger takes it or moves past its height.
	unadded    *block.Block
	retry      ClockTimer
	validators []*keys.PublicKey
	poolEvents chan struct{}

	messages     chan *message.Payload
	transactions chan *transaction.Transaction
	blockMu      sync.Mutex
	block        *block.Header // latest block notified, not yet handled
	blockSignal  chan struct{}

	state    atomic.Int32
	quit     chan struct{}
	finished chan struct{}

	replies replyLimit                  // recovery replies per validator (replylimit.go)
	restart listening                   // payloads held after a restart (restart.go)
	retaken dbft.ConsensusPayload[Hash] // own request taken again (restart.go)

	// recovered counts payloads taken from recovery messages.
	recovered atomic.Int64
}

// New returns a Service; Start runs it.
func New(cfg Config) (*Service, error) {
	if cfg.Ledger == nil || cfg.Mempool == nil || cfg.Broadcaster == nil {
		return nil, fmt.Errorf("%w: Ledger, Mempool and Broadcaster are required", ErrConfig)
	}
	proto := cfg.Ledger.GetConfig()
	roots, ok := cfg.Ledger.(StateRootLedger)
	if proto.StateRootInHeader && !ok {
		return nil, ErrStateRootInHeader
	}
	s := &Service{
		ledger:       cfg.Ledger,
		roots:        roots,
		pool:         cfg.Mempool,
		net:          cfg.Broadcaster,
		keys:         cfg.Keys,
		clock:        cfg.Clock,
		nonce:        cfg.Nonce,
		log:          cfg.Logger,
		proto:        proto,
		magic:        uint32(proto.Magic),
		messages:     make(chan *message.Payload, messageQueueSize),
		transactions: make(chan *transaction.Transaction, transactionQueueSize),
		blockSignal:  make(chan struct{}, 1),
		quit:         make(chan struct{}),
		finished:     make(chan struct{}),
	}
	if s.clock == nil {
		s.clock = systemClock{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.log = s.log.With("service", "consensus")
	vs, err := s.ledger.GetNextBlockValidators()
	if err != nil || len(vs) == 0 {
		return nil, fmt.Errorf("%w: no validators: %v", ErrConfig, err)
	}
	s.validators = vs
	s.timer = newRoundTimer(s.clock)

	opts := []func(*dbft.Config[Hash]){
		dbft.WithLogger[Hash](newZapLogger(s.log.Handler())),
		dbft.WithTimer[Hash](s.timer),
		dbft.WithTimePerBlock[Hash](s.timePerBlock),
		dbft.WithGetKeyPair[Hash](s.getKeyPair),
		dbft.WithRequestTx[Hash](s.requestTx),
		dbft.WithStopTxFlow[Hash](s.net.StopTxFlow),
		dbft.WithGetTx[Hash](s.getTx),
		dbft.WithGetVerified[Hash](s.getVerified),
		dbft.WithBroadcast[Hash](s.broadcast),
		dbft.WithProcessBlock[Hash](s.processBlock),
		dbft.WithVerifyBlock[Hash](s.verifyBlock),
		dbft.WithWatchOnly[Hash](func() bool { return false }),
		dbft.WithNewBlockFromContext[Hash](s.newBlockFromContext),
		dbft.WithCurrentHeight[Hash](s.ledger.BlockHeight),
		dbft.WithCurrentBlockHash[Hash](s.ledger.CurrentBlockHash),
		dbft.WithGetValidators[Hash](s.getValidators),
		dbft.WithNewConsensusPayload[Hash](s.newPayload),
		dbft.WithNewPrepareRequest[Hash](s.newPrepareRequest),
		dbft.WithNewPrepareResponse[Hash](func(h Hash) dbft.PrepareResponse[Hash] {
			return prepareResponse{&message.PrepareResponse{PreparationHash: h}}
		}),
		dbft.WithNewChangeView[Hash](s.newChangeView),
		dbft.WithNewCommit[Hash](func(sig []byte) dbft.Commit {
			c := new(message.Commit)
			copy(c.Signature[:], sig)
			return commit{c}
		}),
		dbft.WithNewRecoveryRequest[Hash](func(ts uint64) dbft.RecoveryRequest {
			return recoveryRequest{&message.RecoveryRequest{Timestamp: ts / nsInMs}}
		}),
		dbft.WithNewRecoveryMessage[Hash](func() dbft.RecoveryMessage[Hash] {
			return &recoveryMessage{m: new(message.RecoveryMessage), s: s}
		}),
		dbft.WithVerifyPrepareRequest[Hash](s.verifyRequest),
	}
	if proto.MaxTimePerBlock > 0 {
		opts = append(opts,
			dbft.WithMaxTimePerBlock[Hash](func() time.Duration { return s.proto.MaxTimePerBlock }),
			dbft.WithSubscribeForTxs[Hash](s.subscribeForTxs))
	}
	s.dbft, err = dbft.New[Hash](opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return s, nil
}

// Name returns the service name.
func (s *Service) Name() string { return "consensus" }

// Start begins consensus at the height after the chain's current block
// and runs the event loop. Call it once the node has peers; later calls
// do nothing.
func (s *Service) Start() {
	if !s.state.CompareAndSwap(stateNew, stateRunning) {
		return
	}
	s.log.Info("starting consensus service")
	s.begin()
	go s.loop()
}

// Shutdown stops the event loop and waits for it. A stopped Service
// cannot be started again.
func (s *Service) Shutdown() {
	if s.state.CompareAndSwap(stateRunning, stateStopped) {
		s.log.Info("stopping consensus service")
		close(s.quit)
		<-s.finished
		return
	}
	s.state.CompareAndSwap(stateNew, stateStopped)
}

// OnPayload takes an extensible payload of category "dBFT" from the
// network. It decodes the message and checks that the validator it names
// (among the validators of the next block) sent and signed it; only then
// does it queue it for dbft, blocking while the queue is full. The error
// says why a payload was dropped; none of them is a reason to punish the
// peer (payloads for a persisted height are routine). The Service keeps
// e.Data: do not modify it afterwards.
func (s *Service) OnPayload(e *message.Extensible) error {
	p, err := s.validate(e)
	if err != nil {
		s.log.Debug("dropping consensus payload", "hash", e.Hash(), "err", err)
		return err
	}
	if s.state.Load() != stateRunning {
		return nil
	}
	select {
	case s.messages <- p:
	case <-s.quit:
	}
	return nil
}

// OnTransaction passes a transaction that arrived after a RequestTx.
func (s *Service) OnTransaction(tx *transaction.Transaction) {
	if s.state.Load() != stateRunning {
		return
	}
	select {
	case s.transactions <- tx:
	case <-s.quit:
	}
}

// OnNewBlock tells the Service that the chain persisted a block (its own
// or one from the network); the Service moves to the next height. It
// never blocks: only the highest block notified and not yet handled is
// kept. Notifications before Start are kept too.
func (s *Service) OnNewBlock(h *block.Header) {
	s.blockMu.Lock()
	if s.block == nil || h.Index > s.block.Index {
		s.block = h
	}
	s.blockMu.Unlock()
	select {
	case s.blockSignal <- struct{}{}:
	default:
	}
}

func (s *Service) takeBlock() *block.Header {
	s.blockMu.Lock()
	defer s.blockMu.Unlock()
	h := s.block
	s.block = nil
	return h
}

// validate decodes e and checks its sender and signature.
func (s *Service) validate(e *message.Extensible) (*message.Payload, error) {
	p, err := message.FromExtensibleFormat(e, s.proto.StateRootInHeader)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	m := p.Message
	if m.BlockIndex <= s.ledger.BlockHeight() {
		return nil, ErrOutdated
	}
	vs, err := s.ledger.GetNextBlockValidators()
	if err != nil {
		return nil, fmt.Errorf("consensus: validators: %w", err)
	}
	if int(m.ValidatorIndex) >= len(vs) {
		return nil, fmt.Errorf("%w: index %d of %d", ErrNotValidator, m.ValidatorIndex, len(vs))
	}
	if err := p.VerifyWitness(s.magic, vs[m.ValidatorIndex]); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotValidator, err)
	}
	return p, nil
}

// loop is the event loop: dbft runs on this goroutine only.
func (s *Service) loop() {
	defer close(s.finished)
	defer s.timer.stop()
	defer func() {
		if s.retry != nil {
			s.retry.Stop()
		}
	}()
	for {
		select {
		case <-s.quit:
			return
		case <-s.timer.C():
			s.handleTimer()
		case <-s.retryC():
			s.retryUnadded()
		case p := <-s.messages:
			s.handlePayload(p)
		case tx := <-s.transactions:
			s.onTransaction(tx)
		case <-s.blockSignal:
		case <-s.poolEvents:
			s.poolEvents = nil
			s.dbft.OnNewTransaction()
		}
		// A new block outranks everything else (neo-go does the same).
		if h := s.takeBlock(); h != nil {
			s.handleBlock(h)
		}
	}
}

// begin starts dbft at the next height.
func (s *Service) begin() {
	if h, err := s.ledger.GetHeader(s.ledger.CurrentBlockHash()); err == nil {
		s.lastTimestamp = h.Timestamp
	} else {
		s.log.Error("no current header", "err", err)
	}
	// dbft's Start makes a primary propose at once. A primary that
	// restarts during its own round would then propose a second block in
	// the view where backups may already have committed to its first one,
	// and the round could never end (docs/reliability.md, finding 3). So,
	// like C# (OnStart), a node starts with a RecoveryRequest, and a
	// primary waits for its timer (a full block time) before proposing:
	// if its earlier proposal comes back in a recovery message, it takes
	// that one (see broadcast). dbft's Start runs with the keys hidden (it
	// initialises its message cache there); Reset then starts the round
	// with them. The first block of a chain is agreed as before (Start
	// alone, the primary proposes at once): there dbft gives every node a
	// zero timer (it has no time of a previous block), so a waiting
	// primary would cause a view change.
	ts := s.lastTimestamp * nsInMs
	quiet := s.ledger.BlockHeight() > 0
	s.starting = quiet
	s.dbft.Start(ts)
	s.starting = false
	if quiet {
		s.dbft.Reset(ts)
		if !s.dbft.Context.WatchOnly() {
			c := &s.dbft.Context
			req := c.Config.NewRecoveryRequest(uint64(s.clock.Now().UnixNano()))
			s.broadcast(c.Config.NewConsensusPayload(c, dbft.RecoveryRequestType, req))
			s.listen()
		}
	}
	if h := s.takeBlock(); h != nil {
		s.handleBlock(h)
	}
}

func (s *Service) handleTimer() {
	h, v := s.timer.Height(), s.timer.View()
	s.onListeningTimeout() // may move dbft on: then the timeout is an old one
	s.dbft.OnTimeout(h, v)
}

func (s *Service) handlePayload(p *message.Payload) {
	if s.hold(p) || !s.allowReply(p.Message) {
		return
	}
	s.dbft.OnReceive(s.wrap(p))
}

// handleBlock moves to the height after h unless dbft is past it already
// (our own block comes back this way).
func (s *Service) handleBlock(h *block.Header) {
	if h.Index < s.dbft.BlockIndex {
		return
	}
	s.restart = listening{} // what it held is for a finished height
	s.postBlock(h.Timestamp)
	s.dbft.Reset(h.Timestamp * nsInMs)
}

// unaddedRetry is how often an agreed block the ledger refused is offered
// again.
const unaddedRetry = 500 * time.Millisecond

// keepUnadded remembers an agreed block the ledger refused, to retry it.
func (s *Service) keepUnadded(b *block.Block) {
	s.unadded = b
	if s.retry == nil {
		s.retry = s.clock.NewTimer(unaddedRetry)
	}
}

// retryC is the retry timer's channel (nil, never ready, without one).
func (s *Service) retryC() <-chan time.Time {
	if s.retry == nil {
		return nil
	}
	return s.retry.C()
}

// retryUnadded offers the refused agreed block to the ledger again.
func (s *Service) retryUnadded() {
	s.retry = nil
	b := s.unadded
	if b == nil || s.ledger.BlockHeight() >= b.Index {
		s.unadded = nil
		return
	}
	if err := s.ledger.AddBlock(b); err != nil {
		s.retry = s.clock.NewTimer(unaddedRetry)
		return
	}
	s.log.Info("added the agreed block on retry", "index", b.Index)
	s.unadded = nil
}

func (s *Service) postBlock(ts uint64) {
	s.lastTimestamp = max(s.lastTimestamp, ts)
	s.lastProposal = nil
	s.ownRequest = nil
	s.resetReplies()
}

func (s *Service) wrap(p *message.Payload) *payload { return &payload{p: p, s: s} }

// verifyRecovered checks a payload rebuilt from a recovery message.
func (s *Service) verifyRecovered(p *message.Payload, validators []dbft.PublicKey) bool {
	i := int(p.Message.ValidatorIndex)
	if i >= len(validators) {
		return false
	}
	if err := p.VerifyWitness(s.magic, validators[i].(*keys.PublicKey)); err != nil {
		s.log.Debug("invalid payload in recovery message", "type", p.Message.Type(), "validator", i, "err", err)
		return false
	}
	s.recovered.Add(1)
	return true
}
