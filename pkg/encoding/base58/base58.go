package base58

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/mr-tron/base58"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Errors returned (wrapped) by the decoders.
var (
	// ErrInvalidBase58 means the string contains a character outside the
	// Base58 alphabet.
	ErrInvalidBase58 = errors.New("invalid base58 string")
	// ErrChecksum means the Base58Check checksum does not match.
	ErrChecksum = errors.New("base58check checksum mismatch")
	// ErrTooShort means the decoded data cannot hold a checksum.
	ErrTooShort = errors.New("base58check data too short")
)

// Encode returns the Base58 encoding of b.
func Encode(b []byte) string { return base58.Encode(b) }

// Decode decodes a Base58 string.
func Decode(s string) ([]byte, error) {
	b, err := base58.Decode(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidBase58, err)
	}
	return b, nil
}

// CheckEncode returns the Base58Check encoding of b: Base58(b || checksum),
// where checksum is the first 4 bytes of Hash256(b).
func CheckEncode(b []byte) string {
	sum := hash.Checksum(b)
	buf := make([]byte, 0, len(b)+4)
	buf = append(buf, b...)
	buf = append(buf, sum[:]...)
	return base58.Encode(buf)
}

// CheckDecode decodes a Base58Check string and returns the payload without
// its checksum.
func CheckDecode(s string) ([]byte, error) {
	b, err := Decode(s)
	if err != nil {
		return nil, err
	}
	if len(b) < 5 {
		return nil, ErrTooShort
	}
	payload, sum := b[:len(b)-4], b[len(b)-4:]
	want := hash.Checksum(payload)
	if !bytes.Equal(sum, want[:]) {
		return nil, ErrChecksum
	}
	return payload, nil
}
