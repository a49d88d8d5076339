package cryptolib

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/pkg/crypto/keys"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// Keccak-256 vectors from neo-project/neo UT_CryptoLib.cs (TestKeccak256_*).
func TestKeccak256(t *testing.T) {
	cases := map[string]string{
		"Hello, World!": "acaf3289d7b601cbd114fb36c4d29c85bbfd5e133f14cb355c3fd8d99367964f",
		"Keccak":        "868c016b666c7d3698636ee1bd023f3f065621514ab61bf26f062c175fdbe7f2",
		"Cryptography":  "53d49d225dd2cfe77d8c5e2112bcc9efe77bea1c7aa5e5ede5798a36e99e2d29",
		"Testing123":    "3f82db7b16b0818a1c6b2c6152e265f682d5ebcf497c9aad776ad38bc39cb6ca",
		"This is a longer string for Keccak256 testing purposes.": "24115e5c2359f85f6840b42acd2f7ea47bc239583e576d766fa173bf711bdd2f",
		"": "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
	}
	for in, want := range cases {
		got := Keccak256([]byte(in))
		require.Equal(t, want, hex.EncodeToString(got[:]), in)
	}
	require.Len(t, cases, 6)
}

func TestHashes(t *testing.T) {
	s := Sha256([]byte("abc"))
	require.Equal(t, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex.EncodeToString(s[:]))
	r := Ripemd160([]byte("abc"))
	require.Equal(t, "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc", hex.EncodeToString(r[:]))
	// neo-project/neo UT_InteropService.TestMurmur32.
	m := Murmur32([]byte("Hello, world!"), 0)
	require.Equal(t, "433e36c0", hex.EncodeToString(m[:]))
}

// Keys of neo-project/neo UT_CryptoLib.TestVerifyWithECDsa.
const (
	privR1 = "6e63fda41e9e3aba9bb5696d58a75731f044a9bdc48fe546da571543b2fa460e"
	pubR1  = "04cae768e1cf58d50260cab808da8d6d83d5d3ab91eac41cdce577ce5862d736413643bdecd6d21c3b66f122ab080f9219204b10aa8bbceb86c1896974768648f3"
	privK1 = "0b5fb3a050385196b327be7d86cbce6e40a04c8832445af83ad19c82103b3ed9"
	pubK1  = "04b6363b353c3ee1620c5af58594458aa00abf43a6d134d7c4cb2d901dc0f474fd74c94740bd7169aa0b1ef7bc657e824b1d7f4283c547e7ec18c8576acf84418a"
)

// sign makes a 64-byte r‖s signature of message for curveHash.
func sign(t testing.TB, message []byte, c NamedCurveHash) []byte {
	t.Helper()
	var digest [32]byte
	if c.keccak() {
		digest = Keccak256(message)
	} else {
		digest = Sha256(message)
	}
	if c.koblitz() {
		priv := secp256k1.PrivKeyFromBytes(unhex(t, privK1))
		compact := k1ecdsa.SignCompact(priv, digest[:], false)
		return compact[1:] // drop the recovery code
	}
	priv, err := keys.NewPrivateKeyFromHex(privR1)
	require.NoError(t, err)
	return priv.SignHash(digest[:])
}

func pubFor(t testing.TB, c NamedCurveHash, compressed bool) []byte {
	t.Helper()
	u := pubR1
	if c.koblitz() {
		u = pubK1
	}
	b := unhex(t, u)
	if compressed {
		c := make([]byte, 33)
		c[0] = 2 | b[64]&1
		copy(c[1:], b[1:33])
		return c
	}
	return b
}

func TestVerifyWithECDsaValid(t *testing.T) {
	msg := []byte("HelloWorld")
	// The reference's key pairs are consistent.
	priv, err := keys.NewPrivateKeyFromHex(privR1)
	require.NoError(t, err)
	require.Equal(t, pubR1, hex.EncodeToString(priv.PublicKey().UncompressedBytes()))
	require.Equal(t, pubK1[2:66], hex.EncodeToString(secp256k1.PrivKeyFromBytes(unhex(t, privK1)).PubKey().SerializeUncompressed()[1:33]))

	n := 0
	for _, c := range []NamedCurveHash{Secp256k1SHA256, Secp256r1SHA256, Secp256k1Keccak256, Secp256r1Keccak256} {
		sig := sign(t, msg, c)
		for _, compressed := range []bool{true, false} {
			pub := pubFor(t, c, compressed)
			for _, v := range []func([]byte, []byte, []byte, NamedCurveHash) (bool, error){VerifyWithECDsaV1, VerifyWithECDsaV2, VerifyECDsa} {
				ok, err := v(msg, pub, sig, c)
				require.NoError(t, err, c)
				require.True(t, ok, c)
				ok, err = v([]byte("HelloWorld!"), pub, sig, c)
				require.NoError(t, err, c)
				require.False(t, ok, c)
				n++
			}
			ok, err := VerifyWithECDsaV0(msg, pub, sig, c)
			if c.keccak() {
				require.ErrorIs(t, err, ErrUnsupportedCurve)
			} else {
				require.NoError(t, err)
				require.True(t, ok)
			}
			// The wrong curve's key does not verify (or faults).
			other := Secp256r1SHA256
			if !c.koblitz() {
				other = Secp256k1SHA256
			}
			ok, _ = VerifyECDsa(msg, pub, sig, other)
			require.False(t, ok)
		}
	}
	require.Equal(t, 24, n)
}

// TestVerifyWithECDsaInvalidParameters follows
// UT_CryptoLib.TestVerifyWithECDsaInvalidParameters (Gorgon variant) and
// the pre-Gorgon tests.
func TestVerifyWithECDsaInvalidParameters(t *testing.T) {
	msg := []byte("hello world")
	sig := sign(t, msg, Secp256r1SHA256)
	comp := pubFor(t, Secp256r1SHA256, true)
	unc := pubFor(t, Secp256r1SHA256, false)

	_, err := VerifyWithECDsaV2(msg, nil, sig, Secp256r1SHA256)
	require.ErrorIs(t, err, ErrKeyFormat)
	_, err = VerifyWithECDsaV2(msg, []byte{}, sig, 99)
	require.ErrorIs(t, err, ErrUnsupportedCurve)
	_, err = VerifyWithECDsaV2(msg, []byte{1}, sig, Secp256r1SHA256)
	require.ErrorIs(t, err, ErrKeyFormat)
	_, err = VerifyWithECDsaV2(msg, comp, nil, Secp256r1SHA256)
	require.ErrorIs(t, err, ErrSignatureLength)
	ok, err := VerifyWithECDsaV2(msg, comp, sig, Secp256r1SHA256)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = VerifyWithECDsaV2(msg, unc, sig, Secp256r1SHA256)
	require.NoError(t, err)
	require.True(t, ok)
	// An r1 point given as a k1 key: decodes, is off the curve.
	_, err = VerifyWithECDsaV2(msg, unc, sig, Secp256k1SHA256)
	require.ErrorIs(t, err, ErrKeyOffCurve)
	// 0x03 ‖ 0x03×32 has no point on secp256k1 (C# ArithmeticException).
	_, err = VerifyWithECDsaV2(msg, append([]byte{3}, []byte(strings.Repeat("\x03", 32))...), sig, Secp256k1SHA256)
	require.ErrorIs(t, err, ErrKeyNoSquareRoot)
	// Empty message is a message.
	sig0 := sign(t, nil, Secp256r1SHA256)
	ok, err = VerifyWithECDsaV2(nil, comp, sig0, Secp256r1SHA256)
	require.NoError(t, err)
	require.True(t, ok)

	// Pre-Cockatrice: Keccak ids are out of range; V1: a different message is false.
	_, err = VerifyWithECDsaV0(msg, comp, sig, Secp256r1Keccak256)
	require.ErrorIs(t, err, ErrUnsupportedCurve)
	ok, err = VerifyWithECDsaV1([]byte("different message"), unc, sig, Secp256r1SHA256)
	require.NoError(t, err)
	require.False(t, ok)
	// Crypto.VerifySignatureV0 with a 32-byte signature is false.
	ok, err = VerifyWithECDsaV0(msg, comp, sig[:32], Secp256r1SHA256)
	require.NoError(t, err)
	require.False(t, ok)
}

// TestVerifyWithECDsaFaultTable pins the false-versus-fault rules of the
// three variants for every failure class.
func TestVerifyWithECDsaFaultTable(t *testing.T) {
	msg := []byte("m")
	const F, X = "false", "fault"
	coordR1 := append([]byte{2}, []byte(strings.Repeat("\xff", 32))...)
	coordK1Unc := append(append([]byte{4}, []byte(strings.Repeat("\xff", 32))...), make([]byte, 32)...)
	offR1 := append(append([]byte{4}, make([]byte, 31)...), 1)
	offR1 = append(offR1, make([]byte, 32)...)
	offR1[64] = 5 // (1, 5) is not on P-256
	cases := []struct {
		name       string
		pub        []byte
		sigLen     int
		c          NamedCurveHash
		v0, v1, v2 string
	}{
		{"empty key", nil, 64, Secp256r1SHA256, X, X, X},
		{"prefix 05", append([]byte{5}, make([]byte, 32)...), 64, Secp256r1SHA256, X, X, X},
		{"prefix 00 (infinity)", []byte{0}, 64, Secp256k1SHA256, X, X, X},
		{"compressed 34 bytes", make([]byte, 34), 64, Secp256r1SHA256, X, X, X},
		{"hybrid 06", append([]byte{6}, make([]byte, 64)...), 64, Secp256k1SHA256, X, X, X},
		{"x >= p, compressed", coordR1, 64, Secp256r1SHA256, F, F, X},
		{"x >= p, uncompressed k1", coordK1Unc, 64, Secp256k1SHA256, F, F, X},
		{"bad signature length", pubFor(t, Secp256r1SHA256, true), 63, Secp256r1SHA256, F, F, X},
		{"off-curve, sha256", offR1, 64, Secp256r1SHA256, X, X, X},
		{"off-curve, keccak", offR1, 64, Secp256r1Keccak256, X /* unsupported id */, F, X},
		{"off-curve, bad sig length", offR1, 10, Secp256r1SHA256, F, F, X},
		{"unknown id", pubFor(t, Secp256r1SHA256, true), 64, 24, X, X, X},
	}
	res := func(ok bool, err error) string {
		if err != nil {
			return X
		}
		require.False(t, ok)
		return F
	}
	for _, tc := range cases {
		sig := make([]byte, tc.sigLen)
		sig[0], sig[tc.sigLen-1] = 1, 1
		require.Equal(t, tc.v0, res(VerifyWithECDsaV0(msg, tc.pub, sig, tc.c)), tc.name+" V0")
		require.Equal(t, tc.v1, res(VerifyWithECDsaV1(msg, tc.pub, sig, tc.c)), tc.name+" V1")
		require.Equal(t, tc.v2, res(VerifyWithECDsaV2(msg, tc.pub, sig, tc.c)), tc.name+" V2")
	}
	require.Len(t, cases, 12)
}

func TestVerifyWithEd25519Variants(t *testing.T) {
	pub := unhex(t, "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
	sig := unhex(t, "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
	require.True(t, VerifyWithEd25519V0(nil, pub, sig))
	ok, err := VerifyWithEd25519V1(nil, pub, sig)
	require.NoError(t, err)
	require.True(t, ok)
	// Short signature: false before Gorgon, fault after (UT_CryptoLib and neo-go).
	require.False(t, VerifyWithEd25519V0(nil, pub, sig[:63]))
	_, err = VerifyWithEd25519V1(nil, pub, []byte{1, 2, 3})
	require.ErrorIs(t, err, keys.ErrEd25519Length)
	_, err = VerifyWithEd25519V1(nil, nil, sig)
	require.ErrorIs(t, err, keys.ErrEd25519Length)
	// Undecodable key: false before Gorgon, fault after.
	bad := append([]byte(nil), pub...)
	bad[0] ^= 1
	require.False(t, VerifyWithEd25519V0(nil, bad, sig))
	_, err = VerifyWithEd25519V1(nil, bad, sig)
	require.ErrorIs(t, err, keys.ErrEd25519PublicKey)
}

func TestRecoverSecp256K1Null(t *testing.T) {
	require.Nil(t, RecoverSecp256K1(make([]byte, 32), make([]byte, 65)))
	got := RecoverSecp256K1(unhex(t, "586052916fb6f746e1d417766cceffbe1baf95579bab67ad49addaaa6e798862"),
		unhex(t, "4e0ea79d4a476276e4b067facdec7460d2c98c8a65326a6e5c998fd7c65061140e45aea5034af973410e65cf97651b3f2b976e3fc79c6a93065ed7cb69a2ab5a01"))
	require.Equal(t, "02dbf1f4092deb3cfd4246b2011f7b24840bc5dbedae02f28471ce5b3bfbf06e71", hex.EncodeToString(got))
}
