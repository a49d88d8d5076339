package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"

	"filippo.io/nistec"
)

// p256N is the group order as a big.Int, for the tests' reference answers.
var p256N = elliptic.P256().Params().N

// hotTestKeys are fixed keys with tables, built once per test binary.
var hotTestKeys = sync.OnceValue(func() []hotTestKey {
	var out []hotTestKey
	for _, h := range []string{
		"7d128a6d096f0c14c3a25a2b0c41cf79661bfcb4a8cc95aaaea28bde4d732344",
		"9ab7e154840daca3a2efadaf0df93cd3a5b51768c632f5433f86909d9b994a69",
		// d = 1: Q = G, so u1·G and u2·Q can coincide or cancel.
		"0000000000000000000000000000000000000000000000000000000000000001",
		// d = n-1: Q = -G.
		"ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
	} {
		k, err := NewPrivateKeyFromHex(h)
		if err != nil {
			panic(err)
		}
		pub := k.PublicKey()
		out = append(out, hotTestKey{priv: k, pub: pub, table: newFixedTable(&pub.point)})
	}
	return out
})

type hotTestKey struct {
	priv  *PrivateKey
	pub   *PublicKey
	table *fixedTable
}

// stdVerify is crypto/ecdsa's answer for the r‖s signature.
func stdVerify(p *PublicKey, sig, digest []byte) bool {
	r := new(big.Int).SetBytes(sig[:32])
	s := new(big.Int).SetBytes(sig[32:])
	return ecdsa.Verify(p.ec, digest, r, s)
}

func sig64(r, s *big.Int) []byte {
	out := make([]byte, 64)
	r.FillBytes(out[:32])
	s.FillBytes(out[32:])
	return out
}

func TestFixedTableMult(t *testing.T) {
	k := hotTestKeys()[0]
	rng := rand.New(rand.NewPCG(1, 2))
	curve := elliptic.P256()
	x0, y0 := new(big.Int).SetBytes(k.pub.point[1:33]), new(big.Int).SetBytes(k.pub.point[33:])
	for i := range 200 {
		var u [32]byte
		for j := range u {
			u[j] = byte(rng.Uint32())
		}
		switch i {
		case 0:
			u = [32]byte{}
		case 1:
			for j := range u {
				u[j] = 0xff
			}
		case 2:
			u = [32]byte{31: 1}
		}
		var got nistec.P256Point
		k.table.mult(&got, &u)
		wx, wy := curve.ScalarMult(x0, y0, u[:])
		b := got.Bytes()
		if wx.Sign() == 0 && wy.Sign() == 0 {
			if len(b) != 1 || b[0] != 0 {
				t.Fatalf("case %d: want infinity, got %x", i, b)
			}
			continue
		}
		want := elliptic.Marshal(curve, wx, wy)
		if string(b) != string(want) {
			t.Fatalf("case %d: u·Q differs:\n got %x\nwant %x", i, b, want)
		}
	}
}

func TestHotVerifyMatchesECDSA(t *testing.T) {
	n := p256N
	nm1 := new(big.Int).Sub(n, big.NewInt(1))
	rng := rand.New(rand.NewPCG(3, 4))
	cases := 0
	for ki, k := range hotTestKeys() {
		for i := range 40 {
			var msg [8]byte
			msg[0], msg[1] = byte(ki), byte(i)
			d := sha256.Sum256(msg[:])
			digest := d[:]
			if i == 1 {
				digest = make([]byte, 32)
				for j := range digest {
					digest[j] = 0xff // above n: reduced
				}
			}
			good := k.priv.SignHash(digest)
			r := new(big.Int).SetBytes(good[:32])
			s := new(big.Int).SetBytes(good[32:])
			variants := [][]byte{
				good,
				sig64(r, new(big.Int).Sub(n, s)), // high S: valid
				sig64(r, new(big.Int).Add(s, big.NewInt(1))),         // wrong s
				sig64(new(big.Int).Xor(r, big.NewInt(1)), s),         // wrong r
				sig64(big.NewInt(0), s),                              // r = 0
				sig64(r, big.NewInt(0)),                              // s = 0
				sig64(nm1, s),                                        // r = n-1
				sig64(r, nm1),                                        // s = n-1
				append(append([]byte{}, good[:32]...), n.Bytes()...), // s = n
				append(n.Bytes(), good[32:]...),                      // r = n
			}
			rb := make([]byte, 64)
			for j := range rb {
				rb[j] = byte(rng.Uint32())
			}
			variants = append(variants, rb)
			for vi, sig := range variants {
				want := stdVerify(k.pub, sig, digest)
				if got := k.table.verify(sig, digest); got != want {
					t.Fatalf("key %d case %d variant %d: table %v, crypto/ecdsa %v", ki, i, vi, got, want)
				}
				cases++
			}
		}
	}
	if cases == 0 {
		t.Fatal("no cases")
	}
}

// TestHotVerifyInfinity: u1·G + u2·Q = O must be rejected. With Q = G
// (d = 1), choose r, s so that u1 = −u2 (mod n): e·w = −r·w, i.e. e = −r.
func TestHotVerifyInfinity(t *testing.T) {
	k := hotTestKeys()[2]
	r := big.NewInt(12345)
	e := new(big.Int).Sub(p256N, r)
	digest := make([]byte, 32)
	e.FillBytes(digest)
	sig := sig64(r, big.NewInt(777))
	if stdVerify(k.pub, sig, digest) || k.table.verify(sig, digest) {
		t.Fatal("a signature whose R is the point at infinity verified")
	}
	// And u1 = u2 (R = 2G, the doubling case of the final addition).
	digest2 := make([]byte, 32)
	r.FillBytes(digest2)
	if got, want := k.table.verify(sig, digest2), stdVerify(k.pub, sig, digest2); got != want {
		t.Fatalf("doubling case: table %v, crypto/ecdsa %v", got, want)
	}
}

func TestHotKeysPromotionAndEviction(t *testing.T) {
	h := newHotKeys(2, 3, 6)
	keys := hotTestKeys()
	for i := range 2 {
		if h.table(&keys[0].pub.point) != nil {
			t.Fatalf("table after %d checks", i+1)
		}
	}
	if h.table(&keys[0].pub.point) == nil {
		t.Fatal("no table after promoteAfter checks")
	}
	for range 3 {
		h.table(&keys[1].pub.point)
	}
	h.table(&keys[0].pub.point) // key 0 is now the most recently used
	for range 3 {
		h.table(&keys[2].pub.point)
	}
	if h.len() != 2 {
		t.Fatalf("%d tables, want 2", h.len())
	}
	h.mu.RLock()
	_, has0 := h.tables[keys[0].pub.point]
	_, has1 := h.tables[keys[1].pub.point]
	h.mu.RUnlock()
	if !has0 || has1 {
		t.Fatalf("eviction dropped the wrong table: key 0 kept %v, key 1 kept %v", has0, has1)
	}
	// Counts of keys without a table are bounded.
	var p [UncompressedSize]byte
	for i := range 10 {
		p[1] = byte(i)
		h.table(&p)
	}
	h.mu.RLock()
	seen := len(h.seen)
	h.mu.RUnlock()
	if seen > 6 {
		t.Fatalf("%d candidate counts kept, bound 6", seen)
	}
}

// TestHotKeysNeedShareOfTraffic: keys used often over a long time but each
// a small share of the checks (an import from many senders) get no table;
// a key that is a steady share of them does.
func TestHotKeysNeedShareOfTraffic(t *testing.T) {
	h := newHotKeys(2, 3, 8)
	var p [UncompressedSize]byte
	// 16 keys in turn, 10 rounds: each is checked 10 times, more than
	// promoteAfter, but only once per 16 checks.
	for range 10 {
		for i := range 16 {
			p[1] = byte(i)
			if h.table(&p) != nil {
				t.Fatalf("key %d promoted at a 1/16 share of the traffic", i)
			}
		}
	}
	// A key making every other check is promoted within one window.
	keys := hotTestKeys()
	promoted := false
	for i := range 8 {
		p[1] = byte(100 + i)
		h.table(&p)
		if h.table(&keys[0].pub.point) != nil {
			promoted = true
			break
		}
	}
	if !promoted {
		t.Fatal("a key making half of the checks got no table")
	}
}

// TestVerifyThroughHotPath: PublicKey.Verify gives the same answers before
// and after the key's table exists.
func TestVerifyThroughHotPath(t *testing.T) {
	k, err := NewPrivateKeyFromHex("c28a9f80738f770d527803a566cf6fc3edf6cea586c4fc4a5223a5ad797e1ac3")
	if err != nil {
		t.Fatal(err)
	}
	pub := k.PublicKey()
	d := sha256.Sum256([]byte("hot"))
	good := k.SignHash(d[:])
	bad := append([]byte{}, good...)
	bad[5] ^= 1
	for i := range HotKeyPromoteAfter + 5 {
		if !pub.Verify(good, d[:]) || pub.Verify(bad, d[:]) {
			t.Fatalf("check %d: wrong answer", i)
		}
	}
	hot.mu.RLock()
	_, ok := hot.tables[pub.point]
	hot.mu.RUnlock()
	if !ok {
		t.Fatal("the key has no table after many checks")
	}
}

// FuzzHotVerify: the table check agrees with crypto/ecdsa on any signature
// and digest (data = r‖s‖digest).
func FuzzHotVerify(f *testing.F) {
	k := hotTestKeys()[0]
	d := sha256.Sum256([]byte("fuzz"))
	f.Add(uint8(0), append(k.priv.SignHash(d[:]), d[:]...))
	f.Add(uint8(2), make([]byte, 96))
	f.Add(uint8(3), append(append(p256N.Bytes(), p256N.Bytes()...), d[:]...))
	f.Fuzz(func(t *testing.T, key uint8, data []byte) {
		if len(data) < 96 {
			return
		}
		sig, digest := data[:64], data[64:96]
		k := hotTestKeys()[int(key)%len(hotTestKeys())]
		if got, want := k.table.verify(sig, digest), stdVerify(k.pub, sig, digest); got != want {
			t.Fatalf("table %v, crypto/ecdsa %v", got, want)
		}
	})
}

// BenchmarkFixedTableBuild is the one-off cost of making a key hot.
func BenchmarkFixedTableBuild(b *testing.B) {
	k := hotTestKeys()[0]
	b.ReportAllocs()
	for b.Loop() {
		newFixedTable(&k.pub.point)
	}
}
