package consensus

import (
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
)

// Stepper drives a Service from the caller's goroutine instead of Start's
// event loop, for deterministic simulation (internal/sim): the caller
// delivers payloads, transactions and blocks, and fires the Service's
// timers (which come from Config.Clock) with Poll. Do not Start a Service
// that is stepped; a Stepper is not safe for concurrent use.
type Stepper struct{ s *Service }

// Stepper returns the step-by-step driver of s.
func (s *Service) Stepper() *Stepper { return &Stepper{s} }

// Begin starts consensus at the height after the chain's current block.
func (st *Stepper) Begin() { st.s.begin() }

// Receive is OnPayload handled at once: it validates e (the error says
// why it was dropped) and passes it to dbft.
func (st *Stepper) Receive(e *message.Extensible) error {
	p, err := st.s.validate(e)
	if err != nil {
		return err
	}
	st.s.handlePayload(p)
	return nil
}

// OnTransaction passes a transaction that arrived after a RequestTx.
func (st *Stepper) OnTransaction(tx *transaction.Transaction) { st.s.onTransaction(tx) }

// NewBlock is OnNewBlock handled at once.
func (st *Stepper) NewBlock(h *block.Header) { st.s.handleBlock(h) }

// Poll handles one due event of the Service's own (its round timer, the
// retry of a refused block, a pool event) and reports whether there was
// one.
func (st *Stepper) Poll() bool {
	s := st.s
	select {
	case <-s.timer.C():
		s.handleTimer()
	case <-s.retryC():
		s.retryUnadded()
	case <-s.poolEvents:
		s.poolEvents = nil
		s.dbft.OnNewTransaction()
	default:
		return false
	}
	return true
}

// Stop releases the Service's timers.
func (st *Stepper) Stop() {
	st.s.timer.stop()
	if st.s.retry != nil {
		st.s.retry.Stop()
		st.s.retry = nil
	}
}

// Round reports where the Service's dbft stands at its current height:
// the view and, once it has sent its Commit (which locks it in that view),
// true. A watch-only Service reports its view and false.
func (st *Stepper) Round() (view uint8, committed bool) {
	return st.s.dbft.ViewNumber, st.s.dbft.CommitSent()
}
