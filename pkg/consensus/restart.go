package consensus

import (
	"slices"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/transaction"
)

// A restarted validator listens before it acts.
//
// A Service keeps nothing across restarts. A validator that asked for a
// view change and then restarts has forgotten that vote: back in view 0 it
// asks for recovery (begin), and if the first answer comes from a
// validator that committed in view 0, it takes that view's proposal and
// preparations from it and commits there, while the others (its own
// forgotten ChangeView among them) have moved on to view 1. With 7
// validators this split the honest ones 2 (committed, locked in view 0)
// and 4 (view 1, one short of M) for good (docs/reliability.md, finding
// 5: seeds 14 and 30, no Byzantine vote involved). The answers from the
// validators in view 1 arrive a moment later and carry the ChangeViews,
// its own included, that would have moved it to view 1 first.
//
// So a Service restarted past genesis holds the payloads of its height
// until recovery messages from f+1 validators (as many as dbft makes
// answer a RecoveryRequest) have arrived, or a block ends the height, or
// its round timer fires once it has heard anything at all from f+1
// validators; then it hands them to dbft: the recovery messages of the
// highest view first (dbft moves to that view when they carry M
// ChangeViews, and then takes only the Commits of lower views), the other
// payloads in the order they came.
//
// The timer alone is not enough (finding 7, seed 203: 4 validators, no
// Byzantine vote): a validator that had asked for view 2 restarted inside
// a partition with only the one validator that had committed in view 1;
// dbft counts every validator it has not seen since the restart as
// failed, so with that one recovery message it took view 1's proposal and
// committed, and the network stayed split 2 (locked in view 1) and 2 (in
// view 2) after the partition healed. Until f+1 validators are heard the
// restarted validator cannot be part of M anyway (M = 2f+1 with itself
// needs 2f others), so waiting for them costs nothing; when the whole
// network restarts, every validator hears the others' RecoveryRequests.
type listening struct {
	on     bool
	height uint32
	from   map[uint8]bool // validators whose recovery message is held
	heard  map[uint8]bool // validators with any payload held
	held   []*message.Payload
}

// maxHeld bounds what a listening Service keeps (a few rounds of every
// validator's payloads); past it, it stops listening.
const maxHeld = 4096

// listen starts listening after a restart (begin).
func (s *Service) listen() {
	s.restart = listening{on: true, height: s.dbft.BlockIndex, from: map[uint8]bool{}, heard: map[uint8]bool{}}
}

// hold keeps p while the Service listens and reports whether it did.
func (s *Service) hold(p *message.Payload) bool {
	l := &s.restart
	if !l.on || p.Message.BlockIndex != l.height {
		return false
	}
	l.held = append(l.held, p)
	l.heard[p.Message.ValidatorIndex] = true
	if p.Message.Type() == message.RecoveryMessageType {
		l.from[p.Message.ValidatorIndex] = true
	}
	if len(l.from) > s.dbft.F() || len(l.held) >= maxHeld {
		s.stopListening()
	}
	return true
}

// onListeningTimeout stops listening at a round timeout unless fewer than
// f+1 validators have been heard.
func (s *Service) onListeningTimeout() {
	if l := &s.restart; l.on && len(l.heard) <= s.dbft.F() {
		s.log.Debug("restarted: still listening at the timeout", "heard", len(l.heard), "held", len(l.held))
		return
	}
	s.stopListening()
}

// stopListening hands what was held to dbft, recovery messages of the
// highest view first.
func (s *Service) stopListening() {
	l := &s.restart
	if !l.on {
		return
	}
	held, from := l.held, len(l.from)
	*l = listening{}
	slices.SortStableFunc(held, func(a, b *message.Payload) int {
		ra, rb := a.Message.Type() == message.RecoveryMessageType, b.Message.Type() == message.RecoveryMessageType
		switch {
		case ra && rb:
			return int(b.Message.ViewNumber) - int(a.Message.ViewNumber)
		case ra:
			return -1
		case rb:
			return 1
		}
		return 0
	})
	if len(held) > 0 {
		s.log.Debug("restarted: handing the payloads held to dbft", "count", len(held), "recoveryFrom", from)
	}
	for _, p := range held {
		if p.Message.BlockIndex == s.dbft.BlockIndex {
			s.handlePayload(p)
		}
	}
}

// onTransaction passes a transaction that arrived after a RequestTx to
// dbft. dbft takes such transactions only as a backup; a restarted
// primary that took its own PrepareRequest back (see begin) while its
// pool had lost some of the proposal's transactions would wait for them
// for good (seed 94: 4 validators committed to that proposal in view 1,
// the primary's Commit was the fifth). So once its pool holds all of
// them, the primary takes its own request again: dbft then finds every
// transaction and goes on (its PrepareResponse is not sent, see
// broadcast).
func (s *Service) onTransaction(tx *transaction.Transaction) {
	s.dbft.OnTransaction(tx)
	d := s.dbft
	if s.ownRequest == nil || !d.IsPrimary() || len(d.MissingTransactions) == 0 ||
		s.ownRequest.ViewNumber() != d.ViewNumber || d.CommitSent() || s.retaken == s.ownRequest {
		return
	}
	for _, h := range d.MissingTransactions {
		if _, ok := s.pool.TryGetValue(h); !ok {
			return
		}
	}
	s.log.Debug("restarted primary: its proposal's transactions are back, taking its request again")
	s.retaken = s.ownRequest // once: dbft must not be fed it in a loop
	d.PreparationPayloads[d.MyIndex] = nil
	d.OnReceive(s.ownRequest)
}
