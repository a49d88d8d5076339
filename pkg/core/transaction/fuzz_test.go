package transaction_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

func addSeeds(f *testing.F) {
	var v neogoVectors
	loadJSON(f, "neogo/json_vectors.json", &v)
	for _, t := range v.Transactions {
		f.Add(unhex(f, t.RawHex))
	}
	var vf vectorsFile
	loadJSON(f, "transactions_blocks.json", &vf)
	for _, t := range vf.Vectors {
		if t.Kind == "transaction" || t.Kind == "transaction_invalid" {
			f.Add(unhex(f, t.RawHex))
		}
	}
}

// FuzzTransaction: decoding never panics; whatever decodes re-encodes to
// the same bytes if the input was canonical, and in any case to a fixed
// point with the same hash and size.
func FuzzTransaction(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := transaction.NewTransactionFromBytes(b)
		if err != nil {
			return
		}
		enc := tx.Bytes()
		if enc == nil {
			t.Fatal("decoded transaction does not encode")
		}
		if len(enc) != tx.Size() {
			t.Fatalf("size %d, encoding %d bytes", tx.Size(), len(enc))
		}
		tx2, err := transaction.NewTransactionFromBytes(enc)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		if tx2.Hash() != tx.Hash() || !bytes.Equal(tx2.Bytes(), enc) {
			t.Fatal("re-encoding is not a fixed point")
		}
		if len(b) == len(enc) && !bytes.Equal(b, enc) {
			t.Fatal("same-length input re-encodes differently")
		}
		if cp := tx.Copy(); cp.Hash() != tx.Hash() {
			t.Fatal("copy hash differs")
		}
		if _, err := tx.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzSigner covers signers with witness rules and conditions.
func FuzzSigner(f *testing.F) {
	var vf vectorsFile
	loadJSON(f, "transactions_blocks.json", &vf)
	for _, s := range vf.Signers {
		f.Add(unhex(f, s.Hex))
	}
	f.Add(rulesSigner(rule(1, 0x01, 0x02, 2, 0x00, 1, 0x28, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20))[1:])
	f.Fuzz(func(t *testing.T, b []byte) {
		var s transaction.Signer
		r := nio.NewBinReaderFromBuf(b)
		s.DecodeBinary(r)
		if r.Err != nil {
			return
		}
		used := b[:r.Offset()]
		w := nio.NewBufBinWriter()
		s.EncodeBinary(w)
		if w.Err != nil {
			t.Fatal(w.Err)
		}
		if s.Size() != w.Len() {
			t.Fatalf("size %d, encoding %d", s.Size(), w.Len())
		}
		if len(used) == w.Len() && !bytes.Equal(used, w.Bytes()) {
			t.Fatal("re-encoding differs")
		}
		js, err := json.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		var back transaction.Signer
		if err := back.UnmarshalJSON(js); err != nil {
			if errors.Is(err, keys.ErrInvalidKey) {
				return // an off-curve uncompressed group key has no valid JSON form
			}
			t.Fatalf("JSON %s: %v", js, err)
		}
		w2 := nio.NewBufBinWriter()
		back.EncodeBinary(w2)
		if !bytes.Equal(w2.Bytes(), w.Bytes()) {
			t.Fatalf("JSON round trip differs: %s", js)
		}
	})
}
