package message_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// TestPrepareRequestStateRoot: on StateRootInHeader networks the
// PrepareRequest ends with the state root, also inside a RecoveryMessage;
// DecodeFormat reads it back, the plain decoder does not.
func TestPrepareRequestStateRoot(t *testing.T) {
	req := &message.Message{BlockIndex: 7, ViewNumber: 1, Body: &message.PrepareRequest{
		Timestamp: 5, Nonce: 9, TransactionHashes: []hash.Uint256{{1}},
		StateRootEnabled: true, StateRoot: hash.Uint256{0xab, 31: 0xcd},
	}}
	raw, err := req.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	plain := *req.PrepareRequest()
	plain.StateRootEnabled = false
	if len(raw) != req.Size() || req.Size() != (&message.Message{Body: &plain}).Size()+hash.Uint256Size {
		t.Fatalf("size %d, encoded %d", req.Size(), len(raw))
	}
	m, err := message.DecodeFormat(raw, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.PrepareRequest(); got == nil || got.StateRoot != req.PrepareRequest().StateRoot {
		t.Fatalf("decoded %+v", m.Body)
	}
	if m, err := message.Decode(raw); err == nil && m.PrepareRequest().StateRoot == req.PrepareRequest().StateRoot {
		t.Fatal("plain decoding read the root")
	}

	rec := &message.Message{BlockIndex: 7, ViewNumber: 1, Body: &message.RecoveryMessage{PrepareRequest: req}}
	raw, err = rec.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	m, err = message.DecodeFormat(raw, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.RecoveryMessage().PrepareRequest.PrepareRequest(); got.StateRoot != req.PrepareRequest().StateRoot {
		t.Fatal("root lost in the recovery message")
	}
}
