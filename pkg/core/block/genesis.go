package block

import (
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Fixed genesis fields (C# NeoSystem.CreateGenesisBlock).
const (
	// GenesisTimestamp is 2016-07-15T15:08:21Z in milliseconds.
	GenesisTimestamp uint64 = 1468595301000
	// GenesisNonce is the Bitcoin genesis nonce.
	GenesisNonce uint64 = 2083236893
	opPUSH1             = 0x11
)

// NewGenesis builds the genesis block of a network whose standby
// validators are validators: no transactions, NextConsensus = hash of the
// BFT multi-signature script of the validators, witness PUSH1.
func NewGenesis(validators []*keys.PublicKey) (*Block, error) {
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(validators)
	if err != nil {
		return nil, err
	}
	return &Block{Header: Header{
		Timestamp:     GenesisTimestamp,
		Nonce:         GenesisNonce,
		NextConsensus: hash.Hash160(script),
		Witness: transaction.Witness{
			InvocationScript:   []byte{},
			VerificationScript: []byte{opPUSH1},
		},
	}}, nil
}
