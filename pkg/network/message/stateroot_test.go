package message_test

import (
	"bytes"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// TestStateRootInHeaderMessages: a Reader of a StateRootInHeader network
// decodes block and headers payloads with the previous state root; a
// plain Reader does not accept them.
func TestStateRootInHeaderMessages(t *testing.T) {
	b := &block.Block{Header: block.Header{Index: 3, Timestamp: 5, StateRootEnabled: true, PrevStateRoot: hash.Uint256{4, 5},
		Witness: transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{0x11}}}}
	b.RebuildMerkleRoot()
	var stream []byte
	for _, m := range []struct {
		cmd message.Command
		p   message.Payload
	}{{message.CmdBlock, b}, {message.CmdHeaders, &payload.Headers{Hdrs: []*block.Header{&b.Header}}}} {
		raw, err := message.Encode(m.cmd, m.p, false)
		if err != nil {
			t.Fatal(err)
		}
		stream = append(stream, raw...)
	}
	r := message.NewReader(bytes.NewReader(stream))
	r.StateRootInHeader = true
	m, err := r.ReadMessage()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Payload.(*block.Block); got.Hash() != b.Hash() || got.PrevStateRoot != b.PrevStateRoot {
		t.Fatal("block differs")
	}
	m, err = r.ReadMessage()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Payload.(*payload.Headers).Hdrs[0]; got.Hash() != b.Hash() || got.PrevStateRoot != b.PrevStateRoot {
		t.Fatal("header differs")
	}
	plain := message.NewReader(bytes.NewReader(stream))
	if m, err := plain.ReadMessage(); err == nil && m.Payload.(*block.Block).Hash() == b.Hash() {
		t.Fatal("plain reader decoded the state-root block")
	}
}
