package notary

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/services/lifecycle"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/wallet"
)

// Ledger is what the notary service needs of the chain (*core.Blockchain
// has it all).
type Ledger interface {
	BlockHeight() uint32
	Config() *config.Blockchain
	GetDesignatedByRole(role noderoles.Role, index uint32) ([]*keys.PublicKey, uint32, error)
	SubscribeForBlocks(ch chan<- *block.Block)
	UnsubscribeFromBlocks(ch chan<- *block.Block)
}

// Config is what New needs.
type Config struct {
	// Chain is the ledger.
	Chain Ledger
	// Pool is the node's notary request pool.
	Pool *RequestPool
	// Main is ApplicationConfiguration.P2PNotary.
	Main config.P2PNotary
	// Keys are the keys this node may sign with (nil: unlock
	// Main.UnlockWallet).
	Keys []*keys.PrivateKey
	// OnTransaction gets every completed main or fallback transaction:
	// pool and relay it. It is called from one goroutine, never under a
	// lock of the service.
	OnTransaction func(*transaction.Transaction) error
	// Logger (nil: slog.Default()).
	Logger *slog.Logger
}

// txQueue is how many completed transactions may wait for OnTransaction
// (neo-go defaultTxChannelCapacity); beyond it finalization fails and is
// retried at the next block.
const txQueue = 100

// ErrNoKeys: no key to sign with.
var ErrNoKeys = errors.New("notary: no wallet account could be unlocked")

// Service is the notary service of a node designated P2PNotary.
type Service struct {
	cfg     Config
	log     *slog.Logger
	network uint32
	keys    []*keys.PrivateKey
	onTx    func(*transaction.Transaction) error

	accMu sync.RWMutex
	priv  *keys.PrivateKey

	// reqMu guards the map; each request has its own lock.
	reqMu    sync.RWMutex
	requests map[hash.Uint256]*request

	newTxs chan txWithMain
	events chan mempoolevent.Event
	blocks chan *block.Block

	run  lifecycle.Once
	stop chan struct{}
	wg   sync.WaitGroup
}

// request is the collection state of one main transaction.
type request struct {
	mu sync.Mutex
	// sent: the completed main transaction was handed to OnTransaction.
	sent bool
	main *transaction.Transaction
	// minNVB is the smallest NotValidBefore of the fallbacks: the main
	// transaction is not sent from that height on.
	minNVB    uint32
	fallbacks []*transaction.Transaction
	witnesses []witnessInfo
}

type txWithMain struct {
	tx       *transaction.Transaction
	mainHash hash.Uint256
}

// mainCompleted reports whether every witness of the main transaction is
// collected (caller holds r.mu).
func (r *request) mainCompleted() bool {
	if r.witnesses == nil {
		return false
	}
	for _, w := range r.witnesses {
		if w.left != 0 {
			return false
		}
	}
	return true
}

// New makes a notary service; it does not start it.
func New(cfg Config) (*Service, error) {
	if cfg.Chain == nil || cfg.Pool == nil {
		return nil, errors.New("notary: no chain or request pool")
	}
	s := &Service{
		cfg:      cfg,
		log:      cfg.Logger,
		network:  uint32(cfg.Chain.Config().Magic),
		keys:     cfg.Keys,
		onTx:     cfg.OnTransaction,
		requests: make(map[hash.Uint256]*request),
		newTxs:   make(chan txWithMain, txQueue),
		events:   make(chan mempoolevent.Event, 64),
		blocks:   make(chan *block.Block, 16),
		stop:     make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.log = s.log.With("module", "notary")
	if s.keys == nil {
		ks, err := wallet.ReadKeys(cfg.Main.UnlockWallet)
		if err != nil && !errors.Is(err, wallet.ErrNoKeys) {
			return nil, fmt.Errorf("notary wallet: %w", err)
		}
		s.keys = ks
	}
	if len(s.keys) == 0 {
		return nil, ErrNoKeys
	}
	if s.onTx == nil {
		s.onTx = func(*transaction.Transaction) error { return nil }
	}
	return s, nil
}

// Name returns the service name.
func (s *Service) Name() string { return "notary" }

// Start reads the notary nodes, subscribes to blocks and to the request
// pool and starts the service. It runs once.
func (s *Service) Start() { s.run.Start(s.start) }

func (s *Service) start() {
	s.log.Info("starting notary service")
	s.updateNodes()
	s.cfg.Chain.SubscribeForBlocks(s.blocks)
	s.cfg.Pool.Pool().SubscribeForTransactions(s.events)
	s.wg.Go(s.txLoop)
	s.wg.Go(s.mainLoop)
}

// Shutdown stops the service. A stopped service cannot be started again.
func (s *Service) Shutdown() { s.run.Stop(s.stopRunning) }

// stopRunning stops the goroutines and subscriptions Start began.
func (s *Service) stopRunning() {
	s.log.Info("stopping notary service")
	// Unsubscribe while the loops still read: the chain may be
	// delivering a block to a full channel, and unsubscribing waits for
	// that.
	s.cfg.Chain.UnsubscribeFromBlocks(s.blocks)
	s.cfg.Pool.Pool().UnsubscribeFromTransactions(s.events)
	close(s.stop)
	s.wg.Wait()
}

// IsAuthorized reports whether this node holds the key of a designated
// notary node.
func (s *Service) IsAuthorized() bool { return s.signer() != nil }

func (s *Service) mainLoop() {
	for {
		select {
		case <-s.stop:
			return
		case ev := <-s.events:
			r, ok := ev.Data.(*payload.P2PNotaryRequest)
			if !ok {
				continue
			}
			switch ev.Type {
			case mempoolevent.TransactionAdded:
				s.OnNewRequest(r)
			case mempoolevent.TransactionRemoved:
				s.OnRequestRemoval(r)
			}
		case <-s.blocks:
			s.updateNodes()
			s.PostPersist()
		}
	}
}

// updateNodes reads the latest P2PNotary designation.
func (s *Service) updateNodes() {
	nodes, _, err := s.cfg.Chain.GetDesignatedByRole(noderoles.P2PNotary, math.MaxUint32)
	if err != nil {
		s.log.Error("can't read the notary nodes", "err", err)
		return
	}
	s.UpdateNotaryNodes(nodes)
}

// UpdateNotaryNodes sets the designated notary nodes: the signing key is
// kept while it stays designated, otherwise the first designated key we
// have is taken; with none, pending requests are dropped (neo-go).
func (s *Service) UpdateNotaryNodes(nodes []*keys.PublicKey) {
	s.accMu.Lock()
	defer s.accMu.Unlock()
	if s.priv != nil && slices.ContainsFunc(nodes, s.priv.PublicKey().Equal) {
		return
	}
	_, priv := wallet.DesignatedKey(s.keys, nodes)
	s.priv = priv
	if priv == nil {
		s.reqMu.Lock()
		s.requests = make(map[hash.Uint256]*request)
		s.reqMu.Unlock()
		return
	}
	s.log.Info("notary key is designated", "key", priv.PublicKey().StringCompressed())
}

func (s *Service) signer() *keys.PrivateKey {
	s.accMu.RLock()
	defer s.accMu.RUnlock()
	return s.priv
}

func notValidBefore(tx *transaction.Transaction) uint32 {
	return tx.GetAttributes(transaction.NotValidBeforeT)[0].Value.(*transaction.NotValidBefore).Height
}

// OnNewRequest takes a request the pool accepted (neo-go OnNewRequest):
// the main transaction's witness parts it carries are verified and
// collected; once all are in (and before the fallbacks' NotValidBefore)
// the main transaction gets the Notary witness and is sent.
func (s *Service) OnNewRequest(pld *payload.P2PNotaryRequest) {
	priv := s.signer()
	if priv == nil {
		return
	}
	main, fb := pld.MainTransaction, pld.FallbackTransaction
	nvb := notValidBefore(fb)
	nKeys := main.GetAttributes(transaction.NotaryAssistedT)[0].Value.(*transaction.NotaryAssisted).NKeys
	info, verr := verifyIncompleteWitnesses(main, nKeys)
	if verr != nil {
		s.log.Info("verification of main notary transaction failed; fallback transaction will be completed",
			"main", main.Hash().StringLE(), "fallback", fb.Hash().StringLE(), "err", verr)
	}
	mainHash := main.Hash()
	s.reqMu.Lock()
	r, exists := s.requests[mainHash]
	if exists {
		r.mu.Lock()
		defer r.mu.Unlock()
		if slices.ContainsFunc(r.fallbacks, func(t *transaction.Transaction) bool { return t.Hash() == fb.Hash() }) {
			s.reqMu.Unlock()
			return // already processed
		}
		r.minNVB = min(r.minNVB, nvb)
	} else {
		// A copy: the pooled main transaction must stay as it is.
		r = &request{main: main.Copy(), minNVB: nvb}
		r.mu.Lock()
		defer r.mu.Unlock()
		s.requests[mainHash] = r
	}
	s.reqMu.Unlock()
	if r.witnesses == nil && verr == nil {
		r.witnesses = info
	}
	r.fallbacks = append(r.fallbacks, fb.Copy())
	if exists && r.mainCompleted() || verr != nil {
		return
	}
	signData := r.main.SignData(s.network)
	for i, w := range main.Witnesses {
		wi := &r.witnesses[i]
		if (len(w.InvocationScript) == 0 && wi.typ != Contract) || wi.left == 0 {
			continue
		}
		switch wi.typ {
		case Contract:
			continue
		case Signature:
			if wi.pubs[0].VerifyMessage(w.InvocationScript[2:], signData[:]) {
				r.main.Witnesses[i] = w
				wi.left--
			}
		case MultiSignature:
			if wi.sigs == nil {
				wi.sigs = make(map[*keys.PublicKey][]byte)
			}
			for _, pub := range wi.pubs {
				if wi.sigs[pub] != nil {
					continue
				}
				if pub.VerifyMessage(w.InvocationScript[2:], signData[:]) {
					wi.sigs[pub] = w.InvocationScript
					wi.left--
					if wi.left == 0 {
						var inv []byte
						for _, p := range wi.pubs {
							inv = append(inv, wi.sigs[p]...)
						}
						r.main.Witnesses[i].InvocationScript = inv
					}
					break
				}
			}
		case AppCall:
			// Not verifiable here: anyone may spoil the main transaction
			// this way, and the fallback then goes on chain.
			if wi.args == nil {
				wi.args = make([][]byte, 0, wi.left)
			}
			wi.args = append(wi.args, w.InvocationScript)
			n, err := CountPushes(w.InvocationScript)
			if err != nil || n > int(wi.left) {
				continue
			}
			wi.left -= uint8(n)
			if wi.left == 0 {
				var inv []byte
				for _, a := range wi.args {
					inv = append(inv, a...)
				}
				r.main.Witnesses[i].InvocationScript = inv
			}
		}
	}
	if r.mainCompleted() && r.minNVB > s.cfg.Chain.BlockHeight() {
		if err := s.finalize(priv, r.main, mainHash); err != nil {
			s.log.Error("failed to finalize main transaction, waiting for the next block to retry",
				"hash", r.main.Hash().StringLE(), "err", err)
		}
	}
}

// OnRequestRemoval forgets a fallback the pool dropped (applied, expired
// or replaced).
func (s *Service) OnRequestRemoval(pld *payload.P2PNotaryRequest) {
	if s.signer() == nil {
		return
	}
	s.reqMu.RLock()
	r, ok := s.requests[pld.MainTransaction.Hash()]
	s.reqMu.RUnlock()
	if !ok {
		return
	}
	fh := pld.FallbackTransaction.Hash()
	r.mu.Lock()
	r.fallbacks = slices.DeleteFunc(r.fallbacks, func(t *transaction.Transaction) bool { return t.Hash() == fh })
	r.mu.Unlock()
}

// PostPersist runs after each block (neo-go PostPersist): requests
// without fallbacks are forgotten, completed main transactions not sent
// yet are sent while still before NotValidBefore, and fallbacks whose
// NotValidBefore has come are completed and sent.
func (s *Service) PostPersist() {
	priv := s.signer()
	if priv == nil {
		return
	}
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	height := s.cfg.Chain.BlockHeight()
	for h, r := range s.requests {
		r.mu.Lock()
		if len(r.fallbacks) == 0 {
			delete(s.requests, h)
			r.mu.Unlock()
			continue
		}
		if !r.sent && r.mainCompleted() && r.minNVB > height {
			if err := s.finalize(priv, r.main, h); err != nil {
				s.log.Error("failed to finalize main transaction after a block, waiting for the next one",
					"hash", r.main.Hash().StringLE(), "err", err)
			}
			r.mu.Unlock()
			continue
		}
		if r.minNVB <= height {
			for _, fb := range r.fallbacks {
				if notValidBefore(fb) <= height {
					if err := s.finalize(priv, fb, h); err != nil {
						s.log.Error("failed to finalize fallback transaction, waiting for the next block",
							"hash", fb.Hash().StringLE(), "err", err)
					}
				}
			}
		}
		r.mu.Unlock()
	}
}

// finalize queues a copy of tx with the Notary contract's witness: this
// node's signature (PUSHDATA1 64 sig, no verification script).
func (s *Service) finalize(priv *keys.PrivateKey, tx *transaction.Transaction, mainHash hash.Uint256) error {
	sd := tx.SignData(s.network)
	w := transaction.Witness{
		InvocationScript:   append([]byte{byte(opcode.PUSHDATA1), keys.SignatureLen}, priv.Sign(sd[:])...),
		VerificationScript: []byte{},
	}
	cp := tx.Copy()
	for i := range cp.Signers {
		if cp.Signers[i].Account == nativenames.NotaryHash {
			cp.Witnesses[i] = w
			break
		}
	}
	cp.Hash() // fill the caches: the copy is shared read-only from here
	cp.Size()
	select {
	case s.newTxs <- txWithMain{tx: cp, mainHash: mainHash}:
		return nil
	default:
		return errors.New("transaction queue is full")
	}
}

// txLoop hands completed transactions to OnTransaction (neo-go
// newTxCallbackLoop): a main transaction once and only before
// NotValidBefore, a fallback while it is pending.
func (s *Service) txLoop() {
	for {
		select {
		case <-s.stop:
			return
		case t := <-s.newTxs:
			isMain := t.tx.Hash() == t.mainHash
			s.reqMu.RLock()
			r, ok := s.requests[t.mainHash]
			s.reqMu.RUnlock()
			if !ok {
				continue
			}
			r.mu.Lock()
			if isMain && (r.sent || r.minNVB <= s.cfg.Chain.BlockHeight()) {
				r.mu.Unlock()
				continue
			}
			if !isMain && !slices.ContainsFunc(r.fallbacks, func(fb *transaction.Transaction) bool { return fb.Hash() == t.tx.Hash() }) {
				r.mu.Unlock()
				continue
			}
			r.mu.Unlock()
			if err := s.onTx(t.tx); err != nil {
				s.log.Error("new transaction callback finished with error", "err", err, "main", isMain)
				continue
			}
			r.mu.Lock()
			if isMain {
				r.sent = true
			} else {
				h := t.tx.Hash()
				r.fallbacks = slices.DeleteFunc(r.fallbacks, func(fb *transaction.Transaction) bool { return fb.Hash() == h })
			}
			r.mu.Unlock()
		}
	}
}

// Pending returns the number of main transactions being collected.
func (s *Service) Pending() int {
	s.reqMu.RLock()
	defer s.reqMu.RUnlock()
	return len(s.requests)
}
