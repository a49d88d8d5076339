package keys

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	nio "github.com/n3node/n3node/pkg/io"
)

// Encoded sizes.
const (
	// CompressedSize is the size of a compressed SEC1 point (C# ECPoint.Size).
	CompressedSize = 33
	// UncompressedSize is the size of an uncompressed SEC1 point.
	UncompressedSize = 65
	// SignatureLen is the size of an r‖s signature.
	SignatureLen = 64
	// coordSize is the size of one coordinate.
	coordSize = 32
)

// DefaultCacheSize bounds the number of decoded compressed keys kept
// (C# keeps 1000 per curve).
const DefaultCacheSize = 4096

// ErrInvalidKey is wrapped by every public key decoding error.
var ErrInvalidKey = errors.New("invalid public key")

// wordedError is an error with neo-go's text (a FAULT text of the
// syscalls and native methods that decode keys and check signatures); it
// is its sentinel for errors.Is.
type wordedError struct {
	text     string
	sentinel error
}

func (e *wordedError) Error() string        { return e.text }
func (e *wordedError) Is(target error) bool { return target == e.sentinel }

// decodeError is a key decoding error with neo-go's text.
func decodeError(text string) error { return &wordedError{text: text, sentinel: ErrInvalidKey} }

// prefixError is a key with an unknown prefix byte.
func prefixError(prefix byte) error { return decodeError(fmt.Sprintf("invalid prefix %d", prefix)) }

// lengthError is a key of n bytes whose prefix wants want: neo-go reads it
// from a stream (the prefix, then each 32-byte coordinate), which ends at a
// read's start, in its middle or has bytes left.
func lengthError(n, want int) error {
	switch {
	case n == 1 || n == CompressedSize && want == UncompressedSize:
		return decodeError("EOF")
	case n < want:
		return decodeError("unexpected EOF")
	}
	return decodeError("extra data")
}

// pBytes is the P-256 field prime, big-endian.
var pBytes = [coordSize]byte{
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
}

var cache = newKeyCache(DefaultCacheSize)

// PublicKey is a secp256r1 public key. It is immutable once decoded; see
// the package documentation.
type PublicKey struct {
	// point is 0x04 || X || Y.
	point [UncompressedSize]byte
	// ec is the parsed key, nil for an off-curve point accepted from an
	// uncompressed encoding.
	ec *ecdsa.PublicKey
}

// newFromECDSA wraps a parsed on-curve key.
func newFromECDSA(ec *ecdsa.PublicKey) *PublicKey {
	p := &PublicKey{ec: ec}
	b, err := ec.Bytes()
	if err != nil || len(b) != UncompressedSize {
		return nil
	}
	copy(p.point[:], b)
	return p
}

// NewPublicKeyFromECDSA wraps a P-256 *ecdsa.PublicKey.
func NewPublicKeyFromECDSA(ec *ecdsa.PublicKey) (*PublicKey, error) {
	if ec == nil || ec.Curve != elliptic.P256() {
		return nil, fmt.Errorf("%w: not a P-256 key", ErrInvalidKey)
	}
	p := newFromECDSA(ec)
	if p == nil {
		return nil, ErrInvalidKey
	}
	return p, nil
}

// NewPublicKeyFromBytes decodes a 33-byte compressed or 65-byte
// uncompressed key (see the package documentation for the rules).
// Compressed keys are served from the cache; the returned key may be shared
// and must not be modified.
func NewPublicKeyFromBytes(b []byte) (*PublicKey, error) {
	if len(b) == 0 {
		return nil, decodeError("EOF")
	}
	switch b[0] {
	case 0x02, 0x03:
		if len(b) != CompressedSize {
			return nil, lengthError(len(b), CompressedSize)
		}
		return DecodeCompressed((*[CompressedSize]byte)(b))
	case 0x04:
		if len(b) != UncompressedSize {
			return nil, lengthError(len(b), UncompressedSize)
		}
		return decodeUncompressed((*[UncompressedSize]byte)(b))
	default:
		return nil, prefixError(b[0])
	}
}

// NewPublicKeyFromString decodes a hex-encoded key.
func NewPublicKeyFromString(s string) (*PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	return NewPublicKeyFromBytes(b)
}

// DecodeCompressed decodes a compressed key through the cache.
func DecodeCompressed(b *[CompressedSize]byte) (*PublicKey, error) {
	if p := cache.get(b); p != nil {
		return p, nil
	}
	p, err := decompress(b)
	if err != nil {
		return nil, err
	}
	cache.put(b, p)
	return p, nil
}

// DecodeCompressedNoCache decodes a compressed key without touching the
// cache (used by benchmarks and tests).
func DecodeCompressedNoCache(b *[CompressedSize]byte) (*PublicKey, error) { return decompress(b) }

func decompress(b *[CompressedSize]byte) (*PublicKey, error) {
	if b[0] != 0x02 && b[0] != 0x03 {
		return nil, prefixError(b[0])
	}
	// UnmarshalCompressed rejects X >= p and X with no square root.
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), b[:])
	if x == nil {
		return nil, fmt.Errorf("%w: not a point on secp256r1", ErrInvalidKey)
	}
	p := &PublicKey{}
	p.point[0] = 0x04
	x.FillBytes(p.point[1 : 1+coordSize])
	y.FillBytes(p.point[1+coordSize:])
	ec, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), p.point[:])
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	p.ec = ec
	return p, nil
}

func decodeUncompressed(b *[UncompressedSize]byte) (*PublicKey, error) {
	if bytes.Compare(b[1:1+coordSize], pBytes[:]) >= 0 || bytes.Compare(b[1+coordSize:], pBytes[:]) >= 0 {
		return nil, decodeError("encoded point is not on the P256 curve")
	}
	p := &PublicKey{point: *b}
	if ec, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b[:]); err == nil {
		p.ec = ec
	}
	return p, nil
}

// Compressed returns the 33-byte compressed encoding.
func (p *PublicKey) Compressed() [CompressedSize]byte {
	var c [CompressedSize]byte
	c[0] = 0x02 | p.point[UncompressedSize-1]&1
	copy(c[1:], p.point[1:1+coordSize])
	return c
}

// Bytes returns the compressed encoding in a fresh slice.
func (p *PublicKey) Bytes() []byte {
	c := p.Compressed()
	return c[:]
}

// UncompressedBytes returns 0x04 || X || Y in a fresh slice.
func (p *PublicKey) UncompressedBytes() []byte { return slices.Clone(p.point[:]) }

// StringCompressed returns hex of the compressed encoding (C# ECPoint.ToString).
func (p *PublicKey) StringCompressed() string {
	c := p.Compressed()
	return hex.EncodeToString(c[:])
}

// String is StringCompressed.
func (p *PublicKey) String() string { return p.StringCompressed() }

// ECDSA returns the parsed key, or nil for an off-curve point.
func (p *PublicKey) ECDSA() *ecdsa.PublicKey { return p.ec }

// IsOnCurve reports whether the key is a valid curve point that can verify
// signatures.
func (p *PublicKey) IsOnCurve() bool { return p.ec != nil }

// Cmp orders keys as C# ECPoint.CompareTo: by X, then Y, as unsigned
// integers.
func (p *PublicKey) Cmp(o *PublicKey) int { return bytes.Compare(p.point[1:], o.point[1:]) }

// Equal reports whether both keys are the same point.
func (p *PublicKey) Equal(o *PublicKey) bool { return p.point == o.point }

// EncodeBinary writes the compressed encoding.
func (p *PublicKey) EncodeBinary(w *nio.BinWriter) {
	c := p.Compressed()
	w.WriteBytes(c[:])
}

// DecodeBinary reads a key the way C# ECPoint.DeserializeFrom does: the
// prefix byte decides whether 32 or 64 more bytes follow.
func (p *PublicKey) DecodeBinary(r *nio.BinReader) {
	b := r.ReadBytesAlias(1)
	if r.Err != nil {
		return
	}
	var k *PublicKey
	var err error
	switch b[0] {
	case 0x02, 0x03:
		var c [CompressedSize]byte
		c[0] = b[0]
		r.ReadBytes(c[1:])
		if r.Err != nil {
			return
		}
		k, err = DecodeCompressed(&c)
	case 0x04:
		var u [UncompressedSize]byte
		u[0] = 0x04
		r.ReadBytes(u[1:])
		if r.Err != nil {
			return
		}
		k, err = decodeUncompressed(&u)
	default:
		err = prefixError(b[0])
	}
	if err != nil {
		r.SetError(err)
		return
	}
	*p = *k
}

// MarshalJSON writes the hex compressed encoding as a JSON string.
func (p *PublicKey) MarshalJSON() ([]byte, error) {
	c := p.Compressed()
	out := make([]byte, 0, 2+2*CompressedSize)
	out = append(out, '"')
	out = hex.AppendEncode(out, c[:])
	return append(out, '"'), nil
}

// UnmarshalJSON parses a hex-encoded key.
func (p *PublicKey) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	k, err := NewPublicKeyFromString(s)
	if err != nil {
		return err
	}
	*p = *k
	return nil
}

// Verify reports whether sig (64-byte r‖s) is a valid signature of the
// digest by p. Keys that verify often get a table of multiples that makes
// the check about twice as fast (hotkeys.go); the result is the same.
func (p *PublicKey) Verify(sig, digest []byte) bool {
	if p.ec == nil || len(sig) != SignatureLen {
		return false
	}
	if len(digest) == 32 {
		if ft := hot.table(&p.point); ft != nil {
			return ft.verify(sig, digest)
		}
	}
	var der [72]byte
	d := appendDERSignature(der[:0], sig)
	if d == nil {
		return false
	}
	return ecdsa.VerifyASN1(p.ec, digest, d)
}

// VerifyMessage reports whether sig is a valid signature of SHA-256(msg),
// as C# Crypto.VerifySignature checks it.
func (p *PublicKey) VerifyMessage(sig, msg []byte) bool {
	d := sha256.Sum256(msg)
	return p.Verify(sig, d[:])
}

// VerificationScript returns the standard single-signature verification
// script for p: PUSHDATA1 33 <key> SYSCALL System.Crypto.CheckSig.
func (p *PublicKey) VerificationScript() []byte {
	s := make([]byte, 0, SignatureScriptSize)
	return AppendSignatureScript(s, p.Compressed())
}

// ScriptHash returns the script hash of p's verification script.
func (p *PublicKey) ScriptHash() hash.Uint160 {
	var buf [SignatureScriptSize]byte
	return hash.Hash160(AppendSignatureScript(buf[:0], p.Compressed()))
}

// Address returns the N3 address of p's verification script.
func (p *PublicKey) Address() string { return address.FromUint160(p.ScriptHash()) }

// Standard single-signature script layout (C# Contract.CreateSignatureRedeemScript).
const (
	// SignatureScriptSize is the length of a single-signature script.
	SignatureScriptSize = 40
	opPUSHDATA1         = 0x0c
	opSYSCALL           = 0x41
)

// CheckSigSyscall is the SYSCALL operand of System.Crypto.CheckSig: the
// first 4 bytes of SHA-256("System.Crypto.CheckSig").
var CheckSigSyscall = [4]byte{0x56, 0xe7, 0xb3, 0x27}

// AppendSignatureScript appends the single-signature verification script
// for the compressed key to dst.
func AppendSignatureScript(dst []byte, key [CompressedSize]byte) []byte {
	dst = append(dst, opPUSHDATA1, CompressedSize)
	dst = append(dst, key[:]...)
	dst = append(dst, opSYSCALL)
	return append(dst, CheckSigSyscall[:]...)
}

// SortPublicKeys sorts keys in C# ECPoint order (see PublicKey.Cmp).
func SortPublicKeys(keys []*PublicKey) {
	slices.SortFunc(keys, func(a, b *PublicKey) int { return a.Cmp(b) })
}

// CacheLen reports how many decoded keys the cache holds (for tests and
// metrics).
func CacheLen() int { return cache.len() }
