package keys

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/encoding/base58"
)

// WIFVersion is the version byte of Neo WIF keys.
const WIFVersion = 0x80

// ErrInvalidWIF is wrapped by WIF decoding errors.
var ErrInvalidWIF = errors.New("invalid WIF")

// WIFEncode encodes a 32-byte private key: Base58Check(version || key ||
// 0x01 if compressed).
func WIFEncode(key []byte, version byte, compressed bool) (string, error) {
	if len(key) != PrivateKeySize {
		return "", fmt.Errorf("%w: key of %d bytes", ErrInvalidWIF, len(key))
	}
	buf := make([]byte, 0, 1+PrivateKeySize+1)
	buf = append(buf, version)
	buf = append(buf, key...)
	if compressed {
		buf = append(buf, 0x01)
	}
	s := base58.CheckEncode(buf)
	clear(buf)
	return s, nil
}

// NewPrivateKeyFromWIF decodes a WIF key the way C# Wallet.GetPrivateKeyFromWIF
// does: 34 bytes, version 0x80, compression flag 0x01.
func NewPrivateKeyFromWIF(wif string) (*PrivateKey, error) {
	b, err := base58.CheckDecode(wif)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidWIF, err)
	}
	defer clear(b)
	if len(b) != 1+PrivateKeySize+1 {
		return nil, fmt.Errorf("%w: %d bytes, want 34", ErrInvalidWIF, len(b))
	}
	if b[0] != WIFVersion {
		return nil, fmt.Errorf("%w: version 0x%02x", ErrInvalidWIF, b[0])
	}
	if b[33] != 0x01 {
		return nil, fmt.Errorf("%w: compression flag 0x%02x", ErrInvalidWIF, b[33])
	}
	return NewPrivateKeyFromBytes(b[1:33])
}
