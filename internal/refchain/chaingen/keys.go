package chaingen

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// AddressVersion is the N3 address version byte (C#: ProtocolSettings.AddressVersion).
const AddressVersion = 0x35

// Key is a secp256r1 key pair.
type Key struct {
	priv *ecdsa.PrivateKey
	// Pub is the compressed public key (33 bytes).
	Pub []byte
}

// KeyFromWIF decodes a WIF (Base58Check of 0x80 | key | 0x01).
func KeyFromWIF(wif string) (*Key, error) {
	data, err := base58CheckDecode(wif)
	if err != nil {
		return nil, err
	}
	if len(data) != 34 || data[0] != 0x80 || data[33] != 0x01 {
		return nil, fmt.Errorf("chaingen: %q is not a compressed-key WIF", wif)
	}
	return KeyFromBytes(data[1:33])
}

// KeyFromBytes makes a key from its 32-byte private scalar.
func KeyFromBytes(d []byte) (*Key, error) {
	priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
	if err != nil {
		return nil, fmt.Errorf("chaingen: private key: %w", err)
	}
	unc, err := priv.PublicKey.Bytes()
	if err != nil {
		return nil, err
	}
	pub := make([]byte, 33)
	pub[0] = 0x02 | unc[64]&1
	copy(pub[1:], unc[1:33])
	return &Key{priv: priv, Pub: pub}, nil
}

// WIF encodes the private key.
func (k *Key) WIF() string {
	d, _ := k.priv.Bytes()
	return base58CheckEncode(slices.Concat([]byte{0x80}, d, []byte{0x01}))
}

// PubHex is the compressed public key in hex.
func (k *Key) PubHex() string { return hex.EncodeToString(k.Pub) }

// Sign returns the 64-byte r||s signature of SHA-256(msg), deterministic
// (RFC 6979).
func (k *Key) Sign(msg []byte) ([]byte, error) {
	digest := sha256.Sum256(msg)
	der, err := k.priv.Sign(nil, digest[:], crypto.SHA256)
	if err != nil {
		return nil, err
	}
	var rs struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &rs); err != nil {
		return nil, err
	}
	sig := make([]byte, 64)
	rs.R.FillBytes(sig[:32])
	rs.S.FillBytes(sig[32:])
	return sig, nil
}

// SignatureScript returns the standard single-signature verification script:
// PUSHDATA1 pub, SYSCALL System.Crypto.CheckSig.
func SignatureScript(pub []byte) []byte {
	b := NewBuilder()
	b.Bytes(pub)
	b.Syscall("System.Crypto.CheckSig")
	s, _ := b.Script()
	return s
}

// MultisigScript returns the standard m-of-n verification script over the
// keys sorted as C# sorts ECPoints (by X, then Y; compressed keys by bytes).
func MultisigScript(m int, pubs [][]byte) []byte {
	sorted := slices.Clone(pubs)
	slices.SortFunc(sorted, comparePub)
	b := NewBuilder()
	b.Int(int64(m))
	for _, p := range sorted {
		b.Bytes(p)
	}
	b.Int(int64(len(sorted)))
	b.Syscall("System.Crypto.CheckMultisig")
	s, _ := b.Script()
	return s
}

// comparePub orders compressed keys by X coordinate, then by Y parity,
// which is C#'s ECPoint.CompareTo for points on one curve.
func comparePub(a, b []byte) int {
	if c := bytes.Compare(a[1:], b[1:]); c != 0 {
		return c
	}
	return int(a[0]) - int(b[0])
}

// Address encodes a script hash as an N3 address.
func Address(h hash.Uint160) string {
	return base58CheckEncode(slices.Concat([]byte{AddressVersion}, h[:]))
}

const b58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func base58CheckEncode(data []byte) string {
	sum := hash.Checksum(data)
	data = slices.Concat(data, sum[:])
	x := new(big.Int).SetBytes(data)
	base, mod := big.NewInt(58), new(big.Int)
	var out []byte
	for x.Sign() > 0 {
		x.DivMod(x, base, mod)
		out = append(out, b58Alphabet[mod.Int64()])
	}
	for _, c := range data {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	slices.Reverse(out)
	return string(out)
}

var errBase58 = errors.New("chaingen: bad base58check string")

func base58CheckDecode(s string) ([]byte, error) {
	x := new(big.Int)
	base := big.NewInt(58)
	for _, c := range []byte(s) {
		i := bytes.IndexByte([]byte(b58Alphabet), c)
		if i < 0 {
			return nil, errBase58
		}
		x.Mul(x, base).Add(x, big.NewInt(int64(i)))
	}
	data := x.Bytes()
	for _, c := range []byte(s) {
		if c != '1' {
			break
		}
		data = append([]byte{0}, data...)
	}
	if len(data) < 4 {
		return nil, errBase58
	}
	body, sum := data[:len(data)-4], data[len(data)-4:]
	if want := hash.Checksum(body); !bytes.Equal(sum, want[:]) {
		return nil, fmt.Errorf("%w: checksum", errBase58)
	}
	return body, nil
}
