package keys_test

import (
	"bytes"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

// FuzzPublicKey: decoding never panics; an accepted key re-encodes to its
// compressed form and decodes back to the same point.
func FuzzPublicKey(f *testing.F) {
	f.Add(unhex(f, "02028a99826edc0c97d18e22b6932373d908d323aa7f92656a77ec26e8861699ef"))
	f.Add(unhex(f, "031d8e1630ce640966967bc6d95223d21f44304133003140c3b52004dc981349c9"))
	k, _ := keys.NewPrivateKeyFromHex("9ab7e154840daca3a2efadaf0df93cd3a5b51768c632f5433f86909d9b994a69")
	f.Add(k.PublicKey().UncompressedBytes())
	f.Add([]byte{0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := keys.NewPublicKeyFromBytes(b)
		r := nio.NewBinReaderFromBuf(b)
		var q keys.PublicKey
		q.DecodeBinary(r)
		if (err == nil) != (r.Err == nil && r.Len() == 0) {
			t.Fatalf("NewPublicKeyFromBytes and DecodeBinary disagree: %v, %v", err, r.Err)
		}
		if err != nil {
			return
		}
		if !p.Equal(&q) {
			t.Fatal("decoders disagree on the point")
		}
		if len(b) == keys.CompressedSize && !bytes.Equal(p.Bytes(), b) {
			t.Fatal("compressed key re-encodes differently")
		}
		if p.IsOnCurve() {
			p2, err := keys.NewPublicKeyFromBytes(p.Bytes())
			if err != nil || !p2.Equal(p) {
				t.Fatal("compressed form does not decode to the same point")
			}
		}
	})
}
