package wallet

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
)

// Token is an imported token contract (neo-go's wallet extension).
type Token struct {
	Name     string       `json:"name"`
	Hash     hash.Uint160 `json:"script_hash"`
	Decimals int64        `json:"decimals"`
	Symbol   string       `json:"symbol"`
	Standard string       `json:"standard"`
}

// NewToken returns a token description.
func NewToken(h hash.Uint160, name, symbol string, decimals int64, standard string) *Token {
	return &Token{Name: name, Hash: h, Decimals: decimals, Symbol: symbol, Standard: standard}
}

// Address returns the token contract's address.
func (t *Token) Address() string { return address.FromUint160(t.Hash) }
