package keys_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

func TestSignVerify(t *testing.T) {
	k, err := keys.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("neo")
	sig := k.Sign(msg)
	if len(sig) != keys.SignatureLen {
		t.Fatalf("signature of %d bytes", len(sig))
	}
	if !k.PublicKey().VerifyMessage(sig, msg) {
		t.Fatal("own signature rejected")
	}
	// Deterministic (RFC 6979).
	if !bytes.Equal(sig, k.Sign(msg)) {
		t.Fatal("signing is not deterministic")
	}
	if k.PublicKey().VerifyMessage(sig, []byte("neo!")) {
		t.Fatal("signature verifies another message")
	}
	for _, bad := range [][]byte{nil, sig[:63], make([]byte, 64), append(sig[:32:32], make([]byte, 32)...)} {
		if k.PublicKey().VerifyMessage(bad, msg) {
			t.Errorf("bad signature %x accepted", bad)
		}
	}
	// r >= n must be rejected, not reduced.
	over := bytes.Repeat([]byte{0xff}, 64)
	if k.PublicKey().VerifyMessage(over, msg) {
		t.Error("r, s >= n accepted")
	}
}

func TestPublicKeyDecoding(t *testing.T) {
	k, err := keys.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	pub := k.PublicKey()
	c := pub.Bytes()
	u := pub.UncompressedBytes()
	for _, b := range [][]byte{c, u} {
		p, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Equal(pub) || !bytes.Equal(p.Bytes(), c) || !p.IsOnCurve() {
			t.Fatalf("decoded %x differs", b)
		}
		// Binary decoding follows the prefix.
		var q keys.PublicKey
		r := nio.NewBinReaderFromBuf(b)
		q.DecodeBinary(r)
		if r.Err != nil || r.Len() != 0 || !q.Equal(pub) {
			t.Fatalf("DecodeBinary(%x): %v", b, r.Err)
		}
		w := nio.NewBufBinWriter()
		q.EncodeBinary(w)
		if !bytes.Equal(w.Bytes(), c) {
			t.Fatal("EncodeBinary is not compressed")
		}
	}
	js, err := pub.MarshalJSON()
	if err != nil || string(js) != `"`+hex.EncodeToString(c)+`"` {
		t.Fatalf("JSON %s", js)
	}
	var fromJS keys.PublicKey
	if err := fromJS.UnmarshalJSON(js); err != nil || !fromJS.Equal(pub) {
		t.Fatal("JSON round trip", err)
	}

	p := bytes.Repeat([]byte{0xff}, 32) // above the field prime
	bad := [][]byte{
		nil, {0x00}, {0x02}, append([]byte{0x02}, make([]byte, 32)...)[:32],
		append([]byte{0x05}, c[1:]...),
		append([]byte{0x02}, p...),
		append(append([]byte{0x04}, p...), p...),
		c[:32], u[:64], append(c, 0),
	}
	// An X with no square root of x^3-3x+b: search deterministically.
	for x := byte(1); ; x++ {
		b := append([]byte{0x02}, make([]byte, 32)...)
		b[32] = x
		if _, err := keys.NewPublicKeyFromBytes(b); err != nil {
			bad = append(bad, b)
			break
		}
	}
	for _, b := range bad {
		if _, err := keys.NewPublicKeyFromBytes(b); err == nil {
			t.Errorf("%x accepted", b)
		}
		r := nio.NewBinReaderFromBuf(b)
		var q keys.PublicKey
		q.DecodeBinary(r)
		if r.Err == nil && r.Len() == 0 && b[0] != 0x04 {
			t.Errorf("DecodeBinary(%x) accepted", b)
		}
	}
}

// TestOffCurveUncompressed follows C# ECPoint.DecodePoint, which accepts an
// uncompressed point without an on-curve check.
func TestOffCurveUncompressed(t *testing.T) {
	b := make([]byte, 65)
	b[0] = 4
	b[32] = 1
	b[64] = 3
	p, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	if p.IsOnCurve() {
		t.Fatal("off-curve point reported on curve")
	}
	want := append([]byte{0x03}, b[1:33]...)
	if !bytes.Equal(p.Bytes(), want) {
		t.Fatalf("compressed %x, want %x", p.Bytes(), want)
	}
	if p.Verify(make([]byte, 64), make([]byte, 32)) {
		t.Fatal("off-curve key verified")
	}
}

func TestCmp(t *testing.T) {
	// Same X, different Y: ordered by Y.
	k, _ := keys.NewPrivateKey()
	c := k.PublicKey().Bytes()
	c2 := append([]byte(nil), c...)
	c2[0] ^= 1 // the other root: same X, Y' = p - Y
	a, err := keys.NewPublicKeyFromBytes(c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := keys.NewPublicKeyFromBytes(c2)
	if err != nil {
		t.Fatal(err)
	}
	ua, ub := a.UncompressedBytes(), b.UncompressedBytes()
	want := bytes.Compare(ua[33:], ub[33:])
	if a.Cmp(b) != want || b.Cmp(a) != -want || a.Cmp(a) != 0 {
		t.Fatal("Y tie-break wrong")
	}
}

func TestCacheConcurrent(t *testing.T) {
	var ks [][]byte
	for range 8 {
		k, _ := keys.NewPrivateKey()
		ks = append(ks, k.PublicKey().Bytes())
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				b := ks[(i+g)%len(ks)]
				p, err := keys.NewPublicKeyFromBytes(b)
				if err != nil || !bytes.Equal(p.Bytes(), b) {
					t.Error("cache returned a wrong key")
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := keys.CacheLen(); n == 0 || n > 2*keys.DefaultCacheSize {
		t.Fatalf("cache holds %d keys", n)
	}
}

func TestCacheBounded(t *testing.T) {
	k, _ := keys.NewPrivateKey()
	for range 3 * keys.DefaultCacheSize / 2 {
		k2, _ := keys.NewPrivateKey()
		if _, err := keys.NewPublicKeyFromBytes(k2.PublicKey().Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := keys.NewPublicKeyFromBytes(k.PublicKey().Bytes()); err != nil {
		t.Fatal(err)
	}
	if n := keys.CacheLen(); n > keys.DefaultCacheSize+32 {
		t.Fatalf("cache grew to %d entries", n)
	}
}

func TestSecp256k1(t *testing.T) {
	priv, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte("neo"))
	sig := k1ecdsa.SignCompact(priv, digest[:], true)[1:] // r||s
	pub := priv.PubKey()
	for _, enc := range [][]byte{pub.SerializeCompressed(), pub.SerializeUncompressed()} {
		if !keys.VerifySecp256k1(enc, sig, digest[:]) {
			t.Fatal("valid secp256k1 signature rejected")
		}
	}
	bad := append([]byte(nil), sig...)
	bad[5] ^= 1
	if keys.VerifySecp256k1(pub.SerializeCompressed(), bad, digest[:]) {
		t.Fatal("corrupt signature accepted")
	}
	if keys.VerifySecp256k1(pub.SerializeCompressed(), bytes.Repeat([]byte{0xff}, 64), digest[:]) {
		t.Fatal("overflowing r, s accepted")
	}
	if keys.VerifySecp256k1([]byte{2, 3}, sig, digest[:]) {
		t.Fatal("bad key accepted")
	}
}

func TestWIFErrors(t *testing.T) {
	k, _ := keys.NewPrivateKey()
	uncompressed, _ := keys.WIFEncode(k.Bytes(), keys.WIFVersion, false)
	otherVersion, _ := keys.WIFEncode(k.Bytes(), 0x81, true)
	for _, s := range []string{"", "0", uncompressed, otherVersion, k.WIF()[:50]} {
		if _, err := keys.NewPrivateKeyFromWIF(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if _, err := keys.NewPrivateKeyFromBytes(make([]byte, 32)); err == nil {
		t.Error("zero private key accepted")
	}
	if _, err := keys.NewPrivateKeyFromBytes(bytes.Repeat([]byte{0xff}, 32)); err == nil {
		t.Error("private key >= n accepted")
	}
}

// WIF data values from neo-go's wif_test.go and keytestcases.
func TestWIFKnown(t *testing.T) {
	cases := []struct {
		wif, priv  string
		compressed bool
	}{
		{"KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rFU73sVHnoWn", "0000000000000000000000000000000000000000000000000000000000000001", true},
		{"5HpHagT65TZzG1PH3CSu63k8DbpvD8s5ip4nEB3kEsreAnchuDf", "0000000000000000000000000000000000000000000000000000000000000001", false},
		{"KxhEDBQyyEFymvfJD96q8stMbJMbZUb6D1PmXqBWZDU2WvbvVs9o", "2bfe58ab6d9fd575bdc3a624e4825dd2b375d64ac033fbc46ea79dbab4f69a3e", true},
	}
	for _, c := range cases {
		b, _ := hex.DecodeString(c.priv)
		s, err := keys.WIFEncode(b, keys.WIFVersion, c.compressed)
		if err != nil || s != c.wif {
			t.Errorf("WIFEncode(%s) = %s, %v", c.priv, s, err)
		}
		k, err := keys.NewPrivateKeyFromWIF(c.wif)
		if !c.compressed {
			// C# Wallet.GetPrivateKeyFromWIF accepts only the compressed form.
			if err == nil {
				t.Errorf("uncompressed WIF %s accepted", c.wif)
			}
			continue
		}
		if err != nil || hex.EncodeToString(k.Bytes()) != c.priv {
			t.Errorf("%s: %v", c.wif, err)
		}
	}
	// neo-go keytestcases' invalid entry: a WIF with a broken checksum.
	if _, err := keys.NewPrivateKeyFromWIF("KyKvWLZsNwBJx5j9nurHYRwhYfdQUu9tTEDsLCUHDbYBL8cHxMiS"); err == nil {
		t.Error("invalid WIF accepted")
	}
	if _, err := keys.WIFEncode([]byte{0, 1, 2}, 0x80, true); err == nil {
		t.Error("short key encoded")
	}
}
