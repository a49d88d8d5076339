package network

import (
	"sync"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// serveOnly is a state sync module that only serves: each requested hash
// h is answered with the node bytes {h[0]}.
type serveOnly struct {
	mu    sync.Mutex
	added [][]byte
}

func (*serveOnly) Init(uint32) error                  { return nil }
func (*serveOnly) IsInitialized() bool                { return true }
func (*serveOnly) IsActive() bool                     { return false }
func (*serveOnly) NeedHeaders() bool                  { return false }
func (*serveOnly) NeedMPTData() bool                  { return false }
func (*serveOnly) NeedBlocks() bool                   { return false }
func (*serveOnly) Update() error                      { return nil }
func (*serveOnly) SyncPoint() uint32                  { return 0 }
func (*serveOnly) BlockHeight() uint32                { return 0 }
func (*serveOnly) AddBlock(*block.Block) error        { return nil }
func (*serveOnly) MissingMPTNodes(int) []hash.Uint256 { return nil }
func (s *serveOnly) AddMPTNodes(n [][]byte) error {
	s.mu.Lock()
	s.added = append(s.added, n...)
	s.mu.Unlock()
	return nil
}
func (*serveOnly) ServeMPTNodes(hs []hash.Uint256) [][]byte {
	var out [][]byte
	for _, h := range hs {
		if h[0] != 0 {
			out = append(out, []byte{h[0]})
		}
	}
	return out
}

// TestStateExchangeServing: with SetStateSync, getmptdata is answered
// with mptdata and an unrequested mptdata is ignored (the peer stays);
// without it both drop the peer (misbehave_test).
func TestStateExchangeServing(t *testing.T) {
	ss := &serveOnly{}
	s, err := NewServer(testConfig(7), newFakeLedger(genesis), newFakeLedger(genesis).pool)
	if err != nil {
		t.Fatal(err)
	}
	s.SetStateSync(ss)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	r := dialRaw(t, s.ListenAddrs()[0])
	r.handshake(0)
	r.send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: []hash.Uint256{{5}, {0}, {7}}})
	m, err := r.read(message.CmdMPTData)
	if err != nil {
		t.Fatal(err)
	}
	got := m.Payload.(*payload.MPTData).Nodes
	if len(got) != 2 || got[0][0] != 5 || got[1][0] != 7 {
		t.Fatalf("answer %x", got)
	}
	// Nothing to answer: no message; the peer stays.
	r.send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: []hash.Uint256{{0}}})
	r.send(message.CmdMPTData, &payload.MPTData{Nodes: [][]byte{{1}}})
	r.send(message.CmdPing, &payload.Ping{})
	if _, err := r.read(message.CmdPong); err != nil {
		t.Fatalf("peer dropped: %v", err)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.added) != 0 {
		t.Fatal("unrequested nodes were taken")
	}
}
