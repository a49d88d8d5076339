package sim

import (
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// behaviour is what a validator does with the payloads its (real,
// honest) consensus Service sends.
type behaviour int

const (
	honest behaviour = iota
	// equivocate: as primary, a second PrepareRequest (another nonce) to
	// half of the validators.
	equivocate
	// withholdCommits: Commits are never sent.
	withholdCommits
	// changeViewFlood: every payload comes with ChangeViews for the next
	// three views.
	changeViewFlood
	// replay: every payload comes with two old payloads of any node.
	replay
	// otherNetwork: every payload is signed for another network magic.
	otherNetwork
	// badProposal: PrepareRequests name transactions nobody has, or more
	// than a block may hold.
	badProposal
	behaviours
)

func (b behaviour) String() string {
	return [...]string{"honest", "equivocating primary", "withheld commits", "change-view flood",
		"replays", "payloads signed for another network", "invalid/oversized proposals"}[b]
}

// pickByzantine chooses up to f misbehaving validators.
func (w *world) pickByzantine() []behaviour {
	out := make([]behaviour, w.cfg.Validators+1)
	if !w.cfg.Byzantine {
		return out
	}
	f := (w.cfg.Validators - 1) / 3
	for range 1 + w.rng.IntN(max(f, 1)) {
		i := w.rng.IntN(w.cfg.Validators)
		out[i] = behaviour(1 + w.rng.IntN(int(behaviours)-1))
		w.note(0, "node %d is Byzantine: %s", i, out[i])
	}
	return out
}

// resign signs a changed message as node n.
func (n *node) resign(m *message.Message, magic uint32) *message.Extensible {
	p := message.NewPayload(m, n.key.PublicKey().ScriptHash())
	p.Sign(magic, n.key)
	e := p.Extensible
	return &e
}

// misbehave sends what a Byzantine node sends in place of e.
func (n *node) misbehave(e *message.Extensible) {
	w := n.w
	magic := uint32(w.chain.Magic)
	m, err := message.Decode(e.Data)
	if err != nil {
		w.fail("a consensus Service sent an undecodable payload: " + err.Error())
		return
	}
	switch n.byz {
	case equivocate:
		if r := m.PrepareRequest(); r != nil {
			alt := *r
			alt.Nonce ^= 0xdeadbeef
			m2 := *m
			m2.Body = &alt
			e2 := n.resign(&m2, magic)
			for to := range w.nodes {
				if to%2 == 0 {
					w.send(n.i, to, e)
				} else {
					w.send(n.i, to, e2)
				}
			}
			return
		}
	case withholdCommits:
		if m.Commit() != nil {
			return
		}
	case changeViewFlood:
		for v := m.ViewNumber + 1; v <= m.ViewNumber+3 && v > m.ViewNumber; v++ {
			cv := &message.Message{BlockIndex: m.BlockIndex, ValidatorIndex: m.ValidatorIndex, ViewNumber: v - 1,
				Body: &message.ChangeView{Timestamp: uint64(n.clk.Now().UnixMilli()), Reason: message.CVTimeout}}
			w.broadcast(n.i, n.resign(cv, magic))
		}
	case replay:
		for range 2 {
			if len(w.history) > 0 {
				w.broadcast(n.i, w.history[w.rng.IntN(len(w.history))])
			}
		}
	case otherNetwork:
		w.broadcast(n.i, n.resign(m, magic+1))
		return
	case badProposal:
		if r := m.PrepareRequest(); r != nil {
			alt := *r
			if w.rng.IntN(2) == 0 {
				alt.TransactionHashes = []hash.Uint256{{0xba, 0xd0, byte(m.BlockIndex), m.ViewNumber}}
			} else {
				alt.TransactionHashes = make([]hash.Uint256, w.chain.MaxTransactionsPerBlock+1)
				for i := range alt.TransactionHashes {
					alt.TransactionHashes[i] = hash.Uint256{0xb1, byte(i), byte(i >> 8), byte(m.BlockIndex)}
				}
			}
			m2 := *m
			m2.Body = &alt
			w.broadcast(n.i, n.resign(&m2, magic))
			return
		}
	}
	w.broadcast(n.i, e)
}
