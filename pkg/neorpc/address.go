package neorpc

import (
	"errors"

	"github.com/mr-tron/base58"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
)

// Address decoding errors (neo-go's texts, except ErrAddressTooShort).
var (
	ErrMissingChecksum = errors.New("invalid base-58 check string: missing checksum")
	ErrInvalidChecksum = errors.New("invalid base-58 check string: invalid checksum")
	ErrWrongPrefix     = errors.New("wrong address prefix")
	// ErrAddressTooShort is returned where neo-go 0.120.0 panics (an address
	// payload so short that its slice expression runs past capacity).
	ErrAddressTooShort = errors.New("address payload is too short")
)

// StringToUint160 decodes an address exactly as neo-go 0.120.0 does, so that
// RPC parameters and validateaddress agree with it. neo-go does not check
// the payload length: it takes bytes 1..20 of the decoded buffer, which for a
// payload shorter than 21 bytes runs into the checksum and the zeroed spare
// capacity of its base58 decoder (mr-tron/base58 v1.2.0), and for a longer
// one ignores the tail. This function computes the same bytes; it returns
// ErrAddressTooShort where neo-go would panic. Strict (C#) address parsing
// belongs to the address package, not here.
func StringToUint160(s string) (hash.Uint160, error) {
	var u hash.Uint160
	d, err := base58.Decode(s)
	if err != nil {
		return u, err
	}
	if len(d) < 5 {
		return u, ErrMissingChecksum
	}
	payload := d[:len(d)-4]
	if sum := hash.Checksum(payload); string(sum[:]) != string(d[len(d)-4:]) {
		return u, ErrInvalidChecksum
	}
	if payload[0] != address.Version {
		return u, ErrWrongPrefix
	}
	// Capacity of the slice mr-tron/base58 v1.2.0 returns for this input.
	if capacity := 2*(len(s)*406/555+1) - len(s) + len(d); capacity < 1+hash.Uint160Size {
		return u, ErrAddressTooShort
	}
	copy(u[:], d[1:]) // bytes past len(d) stay zero, as in neo-go's buffer
	return u, nil
}

// Uint160ToAddress encodes a script hash as a Neo N3 address
// (address.FromUint160; encoding has no neo-go quirk to reproduce).
func Uint160ToAddress(u hash.Uint160) string { return address.FromUint160(u) }
