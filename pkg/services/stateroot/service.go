package stateroot

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/wallet"
)

// FirstVoteResendDelay is when a validator first sends its vote again and
// the sender of the assembled root first moves to the next validator (C#
// VerificationService.DelayMilliseconds, neo-go firstVoteResendDelay).
const FirstVoteResendDelay = 3 * time.Second

// DefaultTickInterval is how often the shell checks the vote timers.
const DefaultTickInterval = 100 * time.Millisecond

// Ledger is what the service needs of the chain (pkg/core.Blockchain
// through ChainLedger). Methods must be safe for concurrent use.
type Ledger interface {
	// BlockHeight is the index of the latest committed block.
	BlockHeight() uint32
	// HeaderHeight is the index of the latest known header.
	HeaderHeight() uint32
	// GetStateRoot returns the local state root of a committed height.
	GetStateRoot(height uint32) (*coreroot.Root, error)
	// CurrentValidatedHeight is the height of the latest validated root.
	CurrentValidatedHeight() uint32
	// GetDesignatedByRole returns the keys designated for role that apply
	// to block index (sorted, as RoleManagement stores them).
	GetDesignatedByRole(role noderoles.Role, index uint32) ([]*keys.PublicKey, uint32, error)
	// VerifyWitness checks witness w of account h for container c
	// against the committed state within gas.
	VerifyWitness(h hash.Uint160, c interop.Container, w *transaction.Witness, gas int64) (int64, error)
	// AddValidatedStateRoot stores a root whose witness was verified and
	// reports whether the stored record changed; a root that differs from
	// the local one fails with coreroot.ErrStateMismatch.
	AddValidatedStateRoot(r *coreroot.Root) (bool, error)
	// SubscribeForBlocks and UnsubscribeFromBlocks deliver committed
	// blocks (used by Start and Shutdown only).
	SubscribeForBlocks(ch chan<- *block.Block)
	UnsubscribeFromBlocks(ch chan<- *block.Block)
}

// Config configures a Service.
type Config struct {
	// Magic is the network magic; every signature covers it.
	Magic uint32
	// TimePerBlock scales the vote resend intervals (C# GetTimePerBlock).
	TimePerBlock time.Duration
	// Keys are the private keys the node may sign state roots with (the
	// decrypted accounts of ApplicationConfiguration.StateRoot.UnlockWallet,
	// see wallet.ReadKeys). At each height the node signs with the first key
	// designated as a StateValidator for it, if any. Without keys the
	// service only verifies and stores the validated roots it receives.
	Keys []*keys.PrivateKey
	// Logger receives the service's log (nil: slog.Default()).
	Logger *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// TickInterval is how often Start's goroutine calls Tick (0:
	// DefaultTickInterval).
	TickInterval time.Duration
	// OnMismatch, if set, is called (beside an error in the log) when a
	// root signed by the state validators differs from the local one.
	OnMismatch func(index uint32, local, validated hash.Uint256)
}

// Broadcaster sends a payload made by this node to the network (the
// network server's BroadcastExtensible). It must not call back into the
// service synchronously.
type Broadcaster func(e *payload.Extensible)

// Stats counts what the service did (for tests and metrics).
type Stats struct {
	VotesSent       uint64 // vote payloads broadcast (resends included)
	VotesAccepted   uint64 // valid votes of others added to a round
	VotesRejected   uint64 // votes with a bad index or signature
	RootsSent       uint64 // assembled roots broadcast
	RootsValidated  uint64 // validated roots stored
	RootsRejected   uint64 // roots whose witness failed or local root unknown
	Mismatches      uint64 // validated roots differing from the local one
	BadMessages     uint64 // undecodable payload data
	StoredRootIndex uint32 // index of the last validated root stored
}

// Service is the StateService (see the package documentation). Create it
// with New, register OnPayload for Category on the network server, then
// Start it; or drive it by hand with OnBlock, OnPayload and Tick.
type Service struct {
	cfg       Config
	ledger    Ledger
	broadcast Broadcaster
	log       *slog.Logger

	mu        sync.Mutex
	height    uint32            // latest block processed (the chain's at New)
	rounds    map[uint32]*round // heights this node votes on
	early     map[uint32]map[int32][]byte
	cached    map[uint32]*coreroot.Root // validated roots above height
	stats     Stats
	validated uint32

	started  atomic.Bool
	stopping atomic.Bool
	quit     chan struct{}
	done     chan struct{}
}

// round is the vote collection of one height on a designated validator
// (C# VerificationContext, neo-go incompleteRoot).
type round struct {
	index      uint32
	root       *coreroot.Root
	validators []*keys.PublicKey
	myIndex    int
	key        *keys.PrivateKey
	sigs       map[int][]byte // verified signatures by validator index
	vote       *payload.Extensible
	retries    int
	next       time.Time // next timer
	timerDone  bool
	sent       bool // the validated root was assembled or received
}

// New returns a service over ledger that sends its payloads with
// broadcast.
func New(cfg Config, ledger Ledger, broadcast Broadcaster) (*Service, error) {
	if ledger == nil || broadcast == nil {
		return nil, errors.New("stateroot: ledger and broadcaster are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.TickInterval <= 0 {
		cfg.TickInterval = DefaultTickInterval
	}
	if cfg.TimePerBlock <= 0 {
		cfg.TimePerBlock = 15 * time.Second
	}
	s := &Service{
		cfg:       cfg,
		ledger:    ledger,
		broadcast: broadcast,
		log:       cfg.Logger.With("service", "stateroot"),
		rounds:    make(map[uint32]*round),
		early:     make(map[uint32]map[int32][]byte),
		cached:    make(map[uint32]*coreroot.Root),
		validated: ledger.CurrentValidatedHeight(),
		height:    ledger.BlockHeight(),
		quit:      make(chan struct{}),
		done:      make(chan struct{}),
	}
	return s, nil
}

// Config returns the service configuration (with defaults).
func (s *Service) Config() Config { return s.cfg }

// Name returns the service name.
func (s *Service) Name() string { return "stateroot" }

// IsAuthorized reports whether the node has keys to sign with (it signs
// only at heights where one of them is designated).
func (s *Service) IsAuthorized() bool { return len(s.cfg.Keys) > 0 }

// Stats returns the counters.
func (s *Service) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Start subscribes to the chain's blocks and runs the service in its own
// goroutine. Only the first call has an effect.
func (s *Service) Start() {
	if !s.started.CompareAndSwap(false, true) {
		return
	}
	ch := make(chan *block.Block, 16)
	s.ledger.SubscribeForBlocks(ch)
	s.log.Info("state root service started", "keys", len(s.cfg.Keys))
	go s.run(ch)
}

func (s *Service) run(ch chan *block.Block) {
	defer close(s.done)
	t := time.NewTicker(s.cfg.TickInterval)
	defer t.Stop()
	for {
		select {
		case b := <-ch:
			s.OnBlock(b.Index)
		case <-t.C:
			s.Tick(s.cfg.Now())
		case <-s.quit:
			unsub := make(chan struct{})
			go func() {
				s.ledger.UnsubscribeFromBlocks(ch)
				close(unsub)
			}()
			for {
				select {
				case <-ch:
				case <-unsub:
					return
				}
			}
		}
	}
}

// Shutdown stops the goroutine Start started and waits for it. It is
// safe to call more than once, and without Start.
func (s *Service) Shutdown() {
	if !s.started.Load() || !s.stopping.CompareAndSwap(false, true) {
		return
	}
	close(s.quit)
	<-s.done
	s.log.Info("state root service stopped")
}

// OnPayload is the network's extensible handler for Category: it takes a
// verified payload (sender allowed, witness valid). It never fails: data
// that does not decode is ignored, as C# does (neo-go drops the relaying
// peer, which is not to blame for what a validator signed).
func (s *Service) OnPayload(e *payload.Extensible) error {
	m, err := DecodeMessage(e.Data)
	if err != nil {
		s.log.Debug("undecodable StateService payload", "sender", e.Sender.StringLE(), "err", err)
		s.mu.Lock()
		s.stats.BadMessages++
		s.mu.Unlock()
		return nil
	}
	var out []*payload.Extensible
	s.mu.Lock()
	switch m.Type {
	case VoteT:
		out = s.onVote(m.Vote, out)
	case RootT:
		s.onRoot(m.Root)
	}
	s.mu.Unlock()
	s.send(out)
	return nil
}

func (s *Service) send(out []*payload.Extensible) {
	for _, e := range out {
		s.broadcast(e)
	}
}

// OnBlock processes the committed block at index: validated roots waiting
// for it are checked, and if one of the node's keys is designated at
// index the node signs the local root, broadcasts its vote and starts
// collecting the others'.
func (s *Service) OnBlock(index uint32) {
	var out []*payload.Extensible
	s.mu.Lock()
	if index > s.height {
		s.height = index
	}
	// Validated roots that arrived before the local root.
	var ready []uint32
	for i := range s.cached {
		if i <= index {
			ready = append(ready, i)
		}
	}
	slices.Sort(ready)
	for _, i := range ready {
		r := s.cached[i]
		delete(s.cached, i)
		s.onRoot(r)
	}
	// Forget rounds that can no longer complete (C# keeps the latest
	// MaxCachedVerificationProcessCount, neo-go drops index-10).
	for i := range s.rounds {
		if i+MaxRounds <= index {
			delete(s.rounds, i)
		}
	}
	if index > 0 && index > s.validated && len(s.cfg.Keys) > 0 {
		out = s.startRound(index, out)
	}
	// Early votes are used by startRound or stale.
	for i := range s.early {
		if i <= index {
			delete(s.early, i)
		}
	}
	s.mu.Unlock()
	s.send(out)
}

// startRound signs the local root of index if a key of the node is
// designated for it.
func (s *Service) startRound(index uint32, out []*payload.Extensible) []*payload.Extensible {
	if _, ok := s.rounds[index]; ok {
		return out
	}
	vs, _, err := s.ledger.GetDesignatedByRole(noderoles.StateValidator, index)
	if err != nil {
		s.log.Error("can't get state validators", "index", index, "err", err)
		return out
	}
	my, key := wallet.DesignatedKey(s.cfg.Keys, vs)
	if key == nil {
		return out
	}
	root, err := s.ledger.GetStateRoot(index)
	if err != nil {
		s.log.Error("can't get the local state root", "index", index, "err", err)
		return out
	}
	r := &round{
		index:      index,
		root:       &coreroot.Root{Version: root.Version, Index: root.Index, RootHash: root.RootHash},
		validators: vs,
		myIndex:    my,
		key:        key,
		sigs:       make(map[int][]byte, len(vs)),
		next:       s.cfg.Now().Add(FirstVoteResendDelay),
	}
	sd := signData(s.cfg.Magic, r.root)
	sig := key.Sign(sd)
	r.sigs[my] = sig
	for vi, vsig := range s.early[index] {
		s.addVote(r, vi, vsig)
	}
	vote, err := s.makePayload(key, &Message{Type: VoteT, Vote: &Vote{ValidatorIndex: int32(my), Height: index, Signature: sig}},
		index, index+VoteValidBlocks)
	if err != nil {
		s.log.Error("can't make the vote payload", "index", index, "err", err)
		return out
	}
	r.vote = vote
	s.rounds[index] = r
	if s.ledger.HeaderHeight() >= vote.ValidBlockEnd {
		// The node is catching up: the vote would arrive expired (neo-go
		// sendVote checks the same).
		r.timerDone = true
		return out
	}
	s.stats.VotesSent++
	out = append(out, vote)
	s.log.Debug("state root vote", "index", index, "validator", my, "root", r.root.RootHash.StringLE())
	return s.tryComplete(r, out)
}

// signData returns what a state validator signs: network magic (u32 LE)
// and the root's hash (C# GetSignData, neo-go hash.NetSha256's input).
func signData(magic uint32, r *coreroot.Root) []byte {
	sd := transaction.SignData(magic, r.Hash())
	return sd[:]
}

// onVote adds a vote to its round. Votes for a height the node has not
// processed yet wait (a few heights ahead at most); others are dropped.
func (s *Service) onVote(v *Vote, out []*payload.Extensible) []*payload.Extensible {
	r := s.rounds[v.Height]
	if r == nil {
		if v.Height > s.height && v.Height <= s.height+MaxRounds && v.ValidatorIndex >= 0 &&
			v.ValidatorIndex < maxValidators && len(s.cfg.Keys) > 0 {
			e := s.early[v.Height]
			if e == nil {
				e = make(map[int32][]byte)
				s.early[v.Height] = e
			}
			if _, ok := e[v.ValidatorIndex]; !ok {
				e[v.ValidatorIndex] = v.Signature
			}
		}
		return out
	}
	if r.sent {
		return out
	}
	if !s.addVote(r, v.ValidatorIndex, v.Signature) {
		return out
	}
	return s.tryComplete(r, out)
}

// maxValidators bounds the validator index of an early vote
// (RoleManagement designates at most 32 keys).
const maxValidators = 32

// addVote checks a signature of validator i against the round's root and
// keeps it (C# VerificationContext.AddSignature).
func (s *Service) addVote(r *round, i int32, sig []byte) bool {
	if i < 0 || int(i) >= len(r.validators) {
		s.stats.VotesRejected++
		s.log.Debug("vote with a bad validator index", "index", r.index, "validator", i)
		return false
	}
	if _, ok := r.sigs[int(i)]; ok {
		return false
	}
	if !r.validators[i].VerifyMessage(sig, signData(s.cfg.Magic, r.root)) {
		s.stats.VotesRejected++
		s.log.Debug("vote with a bad signature", "index", r.index, "validator", i)
		return false
	}
	r.sigs[int(i)] = sig
	s.stats.VotesAccepted++
	return true
}

// honest is the signature count a root needs: n - (n-1)/3.
func honest(n int) int { return smartcontract.GetDefaultHonestNodeCount(n) }

// isSender reports whether this node assembles and sends the root now:
// validator (index - retries) mod n (C# VerificationContext.Sender).
func (r *round) isSender() bool {
	n := len(r.validators)
	p := (int(r.index) - r.retries) % n
	if p < 0 {
		p += n
	}
	return p == r.myIndex
}

// tryComplete assembles the validated root once enough signatures are in
// and this node is the sender: the witness is the multisig of the
// designated keys, with the first M signatures in key order (C#
// VerificationContext.CheckSignatures).
func (s *Service) tryComplete(r *round, out []*payload.Extensible) []*payload.Extensible {
	m := honest(len(r.validators))
	if r.sent || len(r.sigs) < m || !r.isSender() {
		return out
	}
	verif, err := smartcontract.CreateMultiSigRedeemScript(m, r.validators)
	if err != nil {
		s.log.Error("can't make the state validators' script", "index", r.index, "err", err)
		return out
	}
	w := nio.NewBufBinWriter()
	for i, j := 0, 0; i < len(r.validators) && j < m; i++ {
		if sig, ok := r.sigs[i]; ok {
			emit.Bytes(w, sig)
			j++
		}
	}
	root := &coreroot.Root{Version: r.root.Version, Index: r.index, RootHash: r.root.RootHash,
		Witness: []transaction.Witness{{InvocationScript: w.Bytes(), VerificationScript: verif}}}
	p, err := s.makePayload(r.key, &Message{Type: RootT, Root: root}, r.index, r.index+RootValidBlocks)
	if err != nil {
		s.log.Error("can't make the state root payload", "index", r.index, "err", err)
		return out
	}
	r.sent = true
	s.stats.RootsSent++
	s.log.Info("relaying validated state root", "index", r.index, "root", root.RootHash.StringLE())
	s.store(root)
	return append(out, p)
}

// Tick fires the vote timers due at now: the vote is sent again (while it
// is valid, at most VoteValidBlocks times) and the sender role moves to the
// next validator, which assembles the root if it has enough votes (C#
// VerificationService.OnTimer). Delays: FirstVoteResendDelay, then
// TimePerBlock << (retries-1).
func (s *Service) Tick(now time.Time) {
	var out []*payload.Extensible
	s.mu.Lock()
	hh := s.ledger.HeaderHeight()
	idx := make([]uint32, 0, len(s.rounds))
	for i := range s.rounds {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		r := s.rounds[i]
		if r.sent || r.timerDone || now.Before(r.next) {
			continue
		}
		if r.retries >= VoteValidBlocks || hh >= r.vote.ValidBlockEnd {
			r.timerDone = true
			continue
		}
		r.retries++
		s.stats.VotesSent++
		out = append(out, r.vote)
		out = s.tryComplete(r, out)
		r.next = now.Add(s.cfg.TimePerBlock << (r.retries - 1))
	}
	s.mu.Unlock()
	s.send(out)
}

// onRoot checks a state root signed by the state validators and stores it
// (C# StateStore.OnNewStateRoot): roots of heights above the local one
// wait for it, the witness must verify against the validators designated
// for the root's height, and a root differing from the local one is
// reported loudly and not stored.
func (s *Service) onRoot(r *coreroot.Root) {
	if r.Index == 0 || len(r.Witness) == 0 || r.Index <= s.validated {
		return
	}
	if r.Index > s.height {
		if r.Index < s.height+MaxCachedRoots {
			if _, ok := s.cached[r.Index]; !ok {
				s.cached[r.Index] = r
			}
		}
		return
	}
	local, err := s.ledger.GetStateRoot(r.Index)
	if err != nil {
		s.stats.RootsRejected++
		s.log.Debug("validated root for an unknown height", "index", r.Index, "err", err)
		return
	}
	if len(local.Witness) != 0 {
		return
	}
	if err := s.verify(r); err != nil {
		s.stats.RootsRejected++
		s.log.Warn("state root with an invalid witness", "index", r.Index, "err", err)
		return
	}
	if local.RootHash != r.RootHash {
		s.mismatch(r.Index, local.RootHash, r.RootHash)
		return
	}
	s.store(r)
}

// verify checks the root's witness: the multisig account of the state
// validators designated for its height, within MaxVerificationGAS (C#
// StateRoot.Verify).
func (s *Service) verify(r *coreroot.Root) error {
	vs, _, err := s.ledger.GetDesignatedByRole(noderoles.StateValidator, r.Index)
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		return fmt.Errorf("no state validators designated for height %d", r.Index)
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(vs)
	if err != nil {
		return err
	}
	_, err = s.ledger.VerifyWitness(hash.Hash160(script), r, &r.Witness[0], MaxVerificationGAS)
	return err
}

func (s *Service) mismatch(index uint32, local, validated hash.Uint256) {
	s.stats.Mismatches++
	s.log.Error("STATE ROOT MISMATCH: the root signed by the state validators differs from the local one; this node's state has diverged",
		"index", index, "local", local.StringLE(), "validated", validated.StringLE())
	if s.cfg.OnMismatch != nil {
		s.cfg.OnMismatch(index, local, validated)
	}
}

// store records a validated root and ends the rounds at or below it.
func (s *Service) store(r *coreroot.Root) {
	changed, err := s.ledger.AddValidatedStateRoot(r)
	if err != nil {
		if errors.Is(err, coreroot.ErrStateMismatch) {
			local := hash.Uint256{}
			if l, lerr := s.ledger.GetStateRoot(r.Index); lerr == nil {
				local = l.RootHash
			}
			s.mismatch(r.Index, local, r.RootHash)
			return
		}
		s.log.Error("can't store the validated state root", "index", r.Index, "err", err)
		return
	}
	if changed {
		s.stats.RootsValidated++
		s.stats.StoredRootIndex = r.Index
	}
	if r.Index > s.validated {
		s.validated = r.Index
	}
	for i, rd := range s.rounds {
		if i <= r.Index {
			rd.sent = true
			delete(s.rounds, i)
		}
	}
}

// makePayload wraps m in a StateService payload from key's account, valid
// for blocks [start, end), signed with key.
func (s *Service) makePayload(key *keys.PrivateKey, m *Message, start, end uint32) (*payload.Extensible, error) {
	data, err := m.Bytes()
	if err != nil {
		return nil, err
	}
	pub := key.PublicKey()
	e := &payload.Extensible{
		Category:        Category,
		ValidBlockStart: start,
		ValidBlockEnd:   end,
		Sender:          pub.ScriptHash(),
		Data:            data,
	}
	sd := e.SignData(s.cfg.Magic)
	w := nio.NewBufBinWriter()
	emit.Bytes(w, key.Sign(sd[:]))
	e.Witness = transaction.Witness{InvocationScript: w.Bytes(), VerificationScript: pub.VerificationScript()}
	return e, nil
}
