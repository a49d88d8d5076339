package network

import (
	"sync"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/payload"
)

// fakeNotaryPool keeps every request it is given and announces it.
type fakeNotaryPool struct {
	s    *Server
	mu   sync.Mutex
	reqs map[hash.Uint256]*payload.P2PNotaryRequest
	got  chan *payload.P2PNotaryRequest
}

func newFakeNotaryPool(s *Server) *fakeNotaryPool {
	return &fakeNotaryPool{s: s, reqs: make(map[hash.Uint256]*payload.P2PNotaryRequest), got: make(chan *payload.P2PNotaryRequest, 10)}
}

func (p *fakeNotaryPool) ContainsKey(h hash.Uint256) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.reqs[h]
	return ok
}

func (p *fakeNotaryPool) Get(h hash.Uint256) (*payload.P2PNotaryRequest, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.reqs[h]
	return r, ok
}

func (p *fakeNotaryPool) Relay(r *payload.P2PNotaryRequest) error {
	p.mu.Lock()
	p.reqs[r.FallbackTransaction.Hash()] = r
	p.mu.Unlock()
	p.got <- r
	p.s.BroadcastNotaryRequest(r)
	return nil
}

// notaryRequest is a structurally valid request.
func notaryRequest() *payload.P2PNotaryRequest {
	notary := hash.Uint160{0xee}
	main := transaction.New([]byte{0x11}, 1, 0, 0, 100)
	main.Signers = []transaction.Signer{{Account: hash.Uint160{1}}, {Account: notary}}
	main.Attributes = []transaction.Attribute{{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 1}}}
	main.Witnesses = make([]transaction.Witness, 2)
	fb := transaction.New([]byte{0x40}, 2, 0, 0, 100)
	fb.Signers = []transaction.Signer{{Account: notary}, {Account: hash.Uint160{1}}}
	fb.Attributes = []transaction.Attribute{
		{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 0}},
		{Type: transaction.NotValidBeforeT, Value: &transaction.NotValidBefore{Height: 50}},
		{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: main.Hash()}},
	}
	fb.Witnesses = []transaction.Witness{{InvocationScript: append([]byte{0x0c, 64}, make([]byte, 64)...)}, {InvocationScript: []byte{1}, VerificationScript: []byte{2}}}
	return &payload.P2PNotaryRequest{MainTransaction: main, FallbackTransaction: fb,
		Witness: transaction.Witness{InvocationScript: []byte{3}, VerificationScript: []byte{4}}}
}

// TestNotaryRequestRelay: a request relayed by one node reaches the pools
// of the others across a hop (inv, getdata, p2pnotaryrequest), once each.
func TestNotaryRequestRelay(t *testing.T) {
	nodes := make([]*node, 3)
	pools := make([]*fakeNotaryPool, 3)
	for i := range nodes {
		cfg := testConfig(uint64(i + 1))
		cfg.P2PSigExtensions = true
		nodes[i] = startNode(t, cfg, newFakeLedger(genesis))
		pools[i] = newFakeNotaryPool(nodes[i].Server)
		nodes[i].SetNotaryRequestPool(pools[i])
	}
	connect(t, nodes[1], nodes[0])
	connect(t, nodes[2], nodes[1])
	r := notaryRequest()
	if err := pools[0].Relay(r); err != nil {
		t.Fatal(err)
	}
	<-pools[0].got
	for i := 1; i < 3; i++ {
		select {
		case got := <-pools[i].got:
			if got.FallbackTransaction.Hash() != r.FallbackTransaction.Hash() || got.Hash() != r.Hash() {
				t.Fatalf("node %d got another request", i)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("node %d: no request", i)
		}
	}
	time.Sleep(100 * time.Millisecond)
	for i := range 3 {
		if len(pools[i].got) != 0 {
			t.Fatalf("node %d pooled the request again", i)
		}
	}
}
