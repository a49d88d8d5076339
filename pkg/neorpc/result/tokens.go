package result

import (
	"encoding/json"
	"errors"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
)

// NEP17Balances is a getnep17balances result.
type NEP17Balances struct {
	Balances []NEP17Balance `json:"balance"`
	Address  string         `json:"address"`
}

// NEP17Balance is the balance of one NEP-17 token.
type NEP17Balance struct {
	Asset       hash.Uint160 `json:"assethash"`
	Amount      string       `json:"amount"`
	Decimals    int          `json:"decimals,string"`
	LastUpdated uint32       `json:"lastupdatedblock"`
	Name        string       `json:"name"`
	Symbol      string       `json:"symbol"`
}

// NEP11Balances is a getnep11balances result.
type NEP11Balances struct {
	Balances []NEP11AssetBalance `json:"balance"`
	Address  string              `json:"address"`
}

// NEP11AssetBalance holds the tokens of one NEP-11 contract.
type NEP11AssetBalance struct {
	Asset    hash.Uint160        `json:"assethash"`
	Decimals int                 `json:"decimals,string"`
	Name     string              `json:"name"`
	Symbol   string              `json:"symbol"`
	Tokens   []NEP11TokenBalance `json:"tokens"`
}

// NEP11TokenBalance is the balance of one NFT (hex id).
type NEP11TokenBalance struct {
	ID          string `json:"tokenid"`
	Amount      string `json:"amount"`
	LastUpdated uint32 `json:"lastupdatedblock"`
}

// NEP17Transfers is a getnep17transfers result.
type NEP17Transfers struct {
	Sent     []NEP17Transfer `json:"sent"`
	Received []NEP17Transfer `json:"received"`
	Address  string          `json:"address"`
}

// NEP17Transfer is one transfer of an account. Address is the other party
// (omitted for mints and burns). NotifyIndex is always 0 (neo-go 0.120.0
// does not fill it).
type NEP17Transfer struct {
	Timestamp   uint64       `json:"timestamp"`
	Asset       hash.Uint160 `json:"assethash"`
	Address     string       `json:"transferaddress,omitzero"`
	Amount      string       `json:"amount"`
	Index       uint32       `json:"blockindex"`
	NotifyIndex uint32       `json:"transfernotifyindex"`
	TxHash      hash.Uint256 `json:"txhash"`
}

// NEP11Transfers is a getnep11transfers result.
type NEP11Transfers struct {
	Sent     []NEP11Transfer `json:"sent"`
	Received []NEP11Transfer `json:"received"`
	Address  string          `json:"address"`
}

// NEP11Transfer is one NFT transfer (hex token id).
type NEP11Transfer struct {
	Timestamp   uint64       `json:"timestamp"`
	Asset       hash.Uint160 `json:"assethash"`
	Address     string       `json:"transferaddress,omitzero"`
	ID          string       `json:"tokenid"`
	Amount      string       `json:"amount"`
	Index       uint32       `json:"blockindex"`
	NotifyIndex uint32       `json:"transfernotifyindex"`
	TxHash      hash.Uint256 `json:"txhash"`
}

// KnownNEP11Properties are the NEP-11 property names whose values
// getnep11properties prints as strings (others as base64).
var KnownNEP11Properties = map[string]bool{"name": true, "description": true, "image": true, "tokenURI": true}

// UnclaimedGas is a getunclaimedgas result.
type UnclaimedGas struct {
	Address   hash.Uint160
	Unclaimed big.Int
}

type unclaimedGasAux struct {
	Address   string `json:"address"`
	Unclaimed string `json:"unclaimed"`
}

// MarshalJSON writes {"address", "unclaimed"} (the amount as a string).
func (g UnclaimedGas) MarshalJSON() ([]byte, error) {
	return json.Marshal(&unclaimedGasAux{Address: neorpc.Uint160ToAddress(g.Address), Unclaimed: g.Unclaimed.String()})
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (g *UnclaimedGas) UnmarshalJSON(data []byte) error {
	var aux unclaimedGasAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if _, ok := g.Unclaimed.SetString(aux.Unclaimed, 10); !ok {
		return errors.New("failed to convert unclaimed gas")
	}
	addr, err := neorpc.StringToUint160(aux.Address)
	if err != nil {
		return err
	}
	g.Address = addr
	return nil
}
