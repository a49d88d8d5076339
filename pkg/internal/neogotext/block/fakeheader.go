package block

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	coreblock "github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
)

// jsonUint256 decodes a hash as neo-go's util.Uint256 does in JSON, with
// its error texts.
type jsonUint256 hash.Uint256

func (u *jsonUint256) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	s = strings.TrimPrefix(s, "0x")
	if len(s) != 2*hash.Uint256Size {
		return fmt.Errorf("expected string size of %d got %d", 2*hash.Uint256Size, len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return err
	}
	for i := range b {
		u[i] = b[len(b)-1-i]
	}
	return nil
}

// baseAux mirrors neo-go's header JSON decoding (type and field names
// appear in encoding/json's error texts).
type baseAux struct {
	Hash          jsonUint256           `json:"hash"`
	Version       uint32                `json:"version"`
	PrevHash      jsonUint256           `json:"previousblockhash"`
	MerkleRoot    jsonUint256           `json:"merkleroot"`
	Timestamp     uint64                `json:"time"`
	Nonce         string                `json:"nonce"`
	Index         uint32                `json:"index"`
	NextConsensus string                `json:"nextconsensus"`
	PrimaryIndex  byte                  `json:"primary"`
	PrevStateRoot *jsonUint256          `json:"previousstateroot,omitzero"`
	Witnesses     []transaction.Witness `json:"witnesses"`
}

// DecodeFakeHeader decodes the header parameter of invokecontainedscript
// as neo-go's block.Header.UnmarshalJSON does (same checks, same texts).
func DecodeFakeHeader(data []byte) (*coreblock.Header, error) {
	var aux baseAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return nil, err
	}
	h := new(coreblock.Header)
	if aux.Nonce != "" {
		n, err := strconv.ParseUint(aux.Nonce, 16, 64)
		if err != nil {
			return nil, err
		}
		h.Nonce = n
	}
	nc, err := neorpc.StringToUint160(aux.NextConsensus)
	if err != nil {
		return nil, err
	}
	if len(aux.Witnesses) != 1 {
		return nil, errors.New("wrong number of witnesses")
	}
	h.Version = aux.Version
	h.PrevHash = hash.Uint256(aux.PrevHash)
	h.MerkleRoot = hash.Uint256(aux.MerkleRoot)
	h.Timestamp = aux.Timestamp
	h.Index = aux.Index
	h.PrimaryIndex = aux.PrimaryIndex
	h.NextConsensus = nc
	h.Witness = aux.Witnesses[0]
	if hash.Uint256(aux.Hash) != h.Hash() {
		return nil, errors.New("json 'hash' doesn't match block hash")
	}
	return h, nil
}
