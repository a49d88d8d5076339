package core

import (
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// opPUSH1 is the verification script of the genesis witnesses.
const opPUSH1 = 0x11

// CreateGenesisBlock builds the genesis block of a network (neo-go 0.120.0
// core.CreateGenesisBlock, C# NeoSystem.CreateGenesisBlock): fixed
// timestamp and nonce, NextConsensus of the standby validators (the first
// ValidatorsCount committee keys), a PUSH1 witness, a zero previous state
// root on StateRootInHeader networks, and, with neo-go's
// Genesis.Transaction extension, one transaction signed (with PUSH1
// witnesses) by the validators and, if different, the committee.
func CreateGenesisBlock(cfg *config.ProtocolConfiguration) (*block.Block, error) {
	pks, err := cfg.StandbyCommitteeKeys()
	if err != nil {
		return nil, err
	}
	committee := make([]*keys.PublicKey, len(pks))
	for i, pk := range pks {
		if committee[i], err = keys.NewPublicKeyFromBytes(pk.Bytes()); err != nil {
			return nil, fmt.Errorf("standby committee key %d: %w", i, err)
		}
	}
	n := cfg.GetNumOfCNs(0)
	if n > len(committee) || n <= 0 {
		return nil, fmt.Errorf("%d validators of a %d-member committee", n, len(committee))
	}
	g, err := block.NewGenesis(append([]*keys.PublicKey(nil), committee[:n]...))
	if err != nil {
		return nil, err
	}
	g.StateRootEnabled = cfg.StateRootInHeader // with a zero PrevStateRoot
	if gt := cfg.Genesis.Transaction; gt != nil {
		script, err := smartcontract.CreateMajorityMultiSigRedeemScript(append([]*keys.PublicKey(nil), committee...))
		if err != nil {
			return nil, fmt.Errorf("committee address: %w", err)
		}
		committeeH := hash.Hash160(script)
		tx := transaction.New(gt.Script, 0, gt.SystemFee, 0, 1)
		tx.Signers = []transaction.Signer{{Account: g.NextConsensus, Scopes: transaction.CalledByEntry}}
		tx.Witnesses = []transaction.Witness{{InvocationScript: []byte{}, VerificationScript: []byte{opPUSH1}}}
		if committeeH != g.NextConsensus {
			tx.Signers = append(tx.Signers, transaction.Signer{Account: committeeH, Scopes: transaction.CalledByEntry})
			tx.Witnesses = append(tx.Witnesses, transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{opPUSH1}})
		}
		g.Transactions = []*transaction.Transaction{tx}
		g.RebuildMerkleRoot()
	}
	return g, nil
}
