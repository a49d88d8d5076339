// Package util has hash types that decode from JSON like neo-go's
// util.Uint160 and util.Uint256, with the same error texts (and, for
// encoding/json's messages, the same package and type names).
package util

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Uint160 decodes like neo-go's util.Uint160 (same error texts).
type Uint160 hash.Uint160

// UnmarshalJSON accepts the display form with or without 0x.
func (u *Uint160) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	return decodeLE(u[:], strings.TrimPrefix(s, "0x"))
}

// Uint256 decodes like neo-go's util.Uint256 (same error texts).
type Uint256 hash.Uint256

// UnmarshalJSON accepts the display form with or without 0x.
func (u *Uint256) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	return decodeLE(u[:], strings.TrimPrefix(s, "0x"))
}

func decodeLE(dst []byte, s string) error {
	if len(s) != 2*len(dst) {
		return fmt.Errorf("expected string size of %d got %d", 2*len(dst), len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return err
	}
	for i := range dst {
		dst[i] = b[len(b)-1-i]
	}
	return nil
}

// MarshalJSON writes "0x" and the reversed hex, as neo-go does.
func (u Uint160) MarshalJSON() ([]byte, error) { return hash.Uint160(u).MarshalJSON() }

// MarshalJSON writes "0x" and the reversed hex, as neo-go does.
func (u Uint256) MarshalJSON() ([]byte, error) { return hash.Uint256(u).MarshalJSON() }
