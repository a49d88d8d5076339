package transaction

import (
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

func TestDecodeHashableFields(t *testing.T) {
	tx := New([]byte{0x11, 0x40}, 7, 100, 200, 300)
	tx.Signers = []Signer{{Account: hash.Uint160{1}, Scopes: CalledByEntry}, {Account: hash.Uint160{2}, Scopes: Global}}
	tx.Attributes = []Attribute{{Type: HighPriority}}
	data, err := tx.EncodeHashableFields()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeHashableFields(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash() != tx.Hash() || len(got.Signers) != 2 || got.Witnesses != nil || got.Nonce != 7 {
		t.Fatal("decoded differently")
	}
	if _, err := DecodeHashableFields(append(data, 0)); !errors.Is(err, ErrTrailingBytes) {
		t.Fatal(err)
	}
	if _, err := DecodeHashableFields(data[:len(data)-1]); err == nil {
		t.Fatal("truncated accepted")
	}
}
