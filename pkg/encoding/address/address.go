package address

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/base58"
)

// Version is the N3 address version byte (C# ProtocolSettings.AddressVersion).
const Version byte = 0x35

// ErrFormat is wrapped by every decoding error.
var ErrFormat = errors.New("invalid address")

// FromUint160 returns the N3 address of the script hash u.
func FromUint160(u hash.Uint160) string { return EncodeVersion(Version, u) }

// ToUint160 parses an N3 address into its script hash.
func ToUint160(s string) (hash.Uint160, error) { return DecodeVersion(Version, s) }

// EncodeVersion encodes u as an address with the given version byte.
func EncodeVersion(version byte, u hash.Uint160) string {
	var b [1 + hash.Uint160Size]byte
	b[0] = version
	copy(b[1:], u[:])
	return base58.CheckEncode(b[:])
}

// DecodeVersion parses an address that must carry the given version byte.
func DecodeVersion(version byte, s string) (hash.Uint160, error) {
	var u hash.Uint160
	b, err := base58.CheckDecode(s)
	if err != nil {
		return u, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if len(b) != 1+hash.Uint160Size {
		return u, fmt.Errorf("%w: payload is %d bytes, want 21", ErrFormat, len(b))
	}
	if b[0] != version {
		return u, fmt.Errorf("%w: version 0x%02x, want 0x%02x", ErrFormat, b[0], version)
	}
	copy(u[:], b[1:])
	return u, nil
}
