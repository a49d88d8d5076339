package consensustest

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// Magic is the network magic the fixtures are signed for.
const Magic = 56753

// Key is the i-th fixture key (a hash of i as the private key).
func Key(t testing.TB, i int) *keys.PrivateKey {
	t.Helper()
	seed := sha256.Sum256([]byte{'k', byte(i)})
	k, err := keys.NewPrivateKeyFromBytes(seed[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Hash is a hash whose bytes count up from b.
func Hash(b byte) hash.Uint256 {
	var h hash.Uint256
	for i := range h {
		h[i] = b + byte(i)
	}
	return h
}

// SampleMessages returns one message of every kind (and the variants that
// change the encoding).
func SampleMessages() map[string]*message.Message {
	sig := [64]byte{}
	for i := range sig {
		sig[i] = byte(i * 3)
	}
	prepHash := Hash(0x70)
	req := &message.Message{BlockIndex: 12, ValidatorIndex: 2, ViewNumber: 1, Body: &message.PrepareRequest{
		Version: 0, PrevHash: Hash(1), Timestamp: 1_700_000_000_123, Nonce: 0x0102030405060708,
		TransactionHashes: []hash.Uint256{Hash(10), Hash(20), Hash(30)},
	}}
	return map[string]*message.Message{
		"change-view": {BlockIndex: 7, ValidatorIndex: 1, ViewNumber: 0, Body: &message.ChangeView{Timestamp: 1_700_000_000_000, Reason: message.CVTimeout}},
		"change-view-txinvalid-0.120": {BlockIndex: 7, ValidatorIndex: 1, ViewNumber: 3, Body: &message.ChangeView{
			Timestamp: 99, Reason: message.CVTxInvalid}},
		"change-view-txinvalid-3.10": {BlockIndex: 7, ValidatorIndex: 1, ViewNumber: 3, Body: &message.ChangeView{
			Timestamp: 99, Reason: message.CVTxInvalid, HasRejectedHashes: true, RejectedHashes: []hash.Uint256{Hash(5)}}},
		"prepare-request":       req,
		"prepare-request-empty": {BlockIndex: 1, Body: &message.PrepareRequest{PrevHash: Hash(2), Timestamp: 5, TransactionHashes: []hash.Uint256{}}},
		"prepare-response":      {BlockIndex: 12, ValidatorIndex: 3, ViewNumber: 1, Body: &message.PrepareResponse{PreparationHash: prepHash}},
		"commit":                {BlockIndex: 12, ValidatorIndex: 0, ViewNumber: 1, Body: &message.Commit{Signature: sig}},
		"recovery-request":      {BlockIndex: 12, ValidatorIndex: 3, ViewNumber: 0, Body: &message.RecoveryRequest{Timestamp: 1_700_000_000_999}},
		"recovery-with-request": {BlockIndex: 12, ValidatorIndex: 3, ViewNumber: 1, Body: &message.RecoveryMessage{
			ChangeViews: []message.ChangeViewCompact{
				{ValidatorIndex: 0, OriginalViewNumber: 0, Timestamp: 77, InvocationScript: bytes.Repeat([]byte{1}, 66)},
				{ValidatorIndex: 3, OriginalViewNumber: 0, Timestamp: 78, InvocationScript: bytes.Repeat([]byte{2}, 66)},
			},
			PrepareRequest: req,
			Preparations: []message.PreparationCompact{
				{ValidatorIndex: 2, InvocationScript: bytes.Repeat([]byte{3}, 66)},
				{ValidatorIndex: 0, InvocationScript: bytes.Repeat([]byte{4}, 66)},
			},
			Commits: []message.CommitCompact{
				{ViewNumber: 1, ValidatorIndex: 0, Signature: sig, InvocationScript: bytes.Repeat([]byte{5}, 66)},
			},
		}},
		"recovery-with-hash": {BlockIndex: 12, ValidatorIndex: 1, ViewNumber: 0, Body: &message.RecoveryMessage{
			ChangeViews:     []message.ChangeViewCompact{},
			PreparationHash: &prepHash,
			Preparations:    []message.PreparationCompact{{ValidatorIndex: 1, InvocationScript: []byte{}}},
			Commits:         []message.CommitCompact{},
		}},
		"recovery-empty": {BlockIndex: 12, Body: &message.RecoveryMessage{
			ChangeViews: []message.ChangeViewCompact{}, Preparations: []message.PreparationCompact{}, Commits: []message.CommitCompact{},
		}},
	}
}
