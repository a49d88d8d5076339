package consensus

import (
	"time"

	"github.com/n3node/n3node/pkg/consensus/message"
)

// Recovery replies are bounded per validator.
//
// dbft answers three kinds of payload with a RecoveryMessage and does
// nothing else with them: a RecoveryRequest, a ChangeView for a view this
// node has already reached (it is taken as a request), and any ChangeView
// once this node has committed (it is locked in its view; the reply tells
// the sender why). dbft answers every such payload, so a validator that
// floods ChangeViews makes each committed node send a full recovery
// message per ChangeView, and two such validators answer each other's
// floods without end (docs/reliability.md, sim finding 4: seed 180 piled
// up 44,000 recovery messages in 13 s). Neither dbft nor neo-go bound this;
// C# only refuses to answer the same payload twice.
//
// The Service lets at most one payload that asks for a reply through per
// validator and replyInterval, and drops the others before dbft sees them.
// An honest validator asks at most once per timeout (dbft's view-change
// timer is at least two block times) plus once when it starts, so it is
// always answered; a lost reply is asked for again at its next timeout.
// A payload is only dropped when dbft's record of the sender's latest
// height and view (LastSeenMessage, used to count failed nodes) already
// covers it, so dropping changes nothing but the reply.
type replyLimit struct {
	last map[uint8]time.Time // when a reply to a validator was last let through, this height
}

// replyInterval is the shortest time between two replies to one
// validator: half a block time.
func (s *Service) replyInterval() time.Duration { return s.timePerBlock() / 2 }

// asksReply reports whether dbft's only reaction to m, in the current
// state, is a recovery message.
func (s *Service) asksReply(m *message.Message) bool {
	d := s.dbft
	switch m.Type() {
	case message.RecoveryRequestType:
		return true
	case message.ChangeViewType:
		if d.BlockSent() {
			return false // dbft ignores it
		}
		return uint32(m.ViewNumber)+1 <= uint32(d.ViewNumber) || d.CommitSent() || d.PreCommitSent()
	}
	return false
}

// allowReply reports whether m may reach dbft: false for a payload that
// only asks for a reply when its sender was answered less than
// replyInterval ago in this round.
func (s *Service) allowReply(m *message.Message) bool {
	if m.BlockIndex != s.dbft.BlockIndex || !s.asksReply(m) {
		return true
	}
	i := m.ValidatorIndex
	now := s.clock.Now()
	t, answered := s.replies.last[i]
	if answered && now.Sub(t) < s.replyInterval() && s.seen(m) {
		s.log.Debug("not answering a recovery request again so soon", "validator", i, "type", m.Type(), "view", m.ViewNumber)
		return false
	}
	if s.replies.last == nil {
		s.replies.last = make(map[uint8]time.Time)
	}
	s.replies.last[i] = now
	return true
}

// seen reports whether dbft's record of the sender's latest height and
// view covers m (then dropping m changes nothing in dbft but the reply).
func (s *Service) seen(m *message.Message) bool {
	i := int(m.ValidatorIndex)
	if i >= len(s.dbft.LastSeenMessage) {
		return false
	}
	hv := s.dbft.LastSeenMessage[i]
	return hv != nil && hv.Height >= m.BlockIndex && hv.View >= m.ViewNumber
}

// resetReplies starts a new round: every validator may be answered again.
func (s *Service) resetReplies() { clear(s.replies.last) }
