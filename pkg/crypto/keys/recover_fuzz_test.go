package keys_test

import (
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// FuzzRecoverSecp256k1 checks that recovery never panics and that every
// recovered key verifies the signature reduced to standard form
// (r mod n, s mod n), which is what the recovery equation guarantees.
func FuzzRecoverSecp256k1(f *testing.F) {
	for _, v := range recoverVectors {
		f.Add(unhex(f, v.hash), unhex(f, v.sig))
	}
	f.Add(make([]byte, 32), make([]byte, 64))
	f.Add([]byte{1}, []byte{2})
	n := secp256k1.S256().N
	f.Fuzz(func(t *testing.T, hash, sig []byte) {
		q, err := keys.RecoverSecp256k1(hash, sig)
		if err != nil {
			if q != nil {
				t.Fatal("key with error")
			}
			return
		}
		if len(q) != 33 || (q[0] != 2 && q[0] != 3) {
			t.Fatalf("bad key %x", q)
		}
		r := new(big.Int).SetBytes(sig[:32])
		s := new(big.Int).SetBytes(sig[32:64])
		if len(sig) == 64 {
			s.SetBit(s, 255, 0)
		}
		r.Mod(r, n)
		s.Mod(s, n)
		if s.Sign() == 0 {
			return
		}
		std := append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
		if !keys.VerifySecp256k1(q, std, hash) {
			t.Fatalf("recovered key %x does not verify %x over %x", q, sig, hash)
		}
	})
}
