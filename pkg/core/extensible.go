package core

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// ExtensibleVerificationGas is the GAS an extensible payload's witness may
// use (C# ExtensiblePayload.Verify: 0.06 GAS).
const ExtensibleVerificationGas = 600_0000

// ErrExtensibleSender: the payload's sender may not send extensible
// payloads.
var ErrExtensibleSender = errors.New("extensible payload sender is not allowed")

// extensibleList is the whitelist of extensible payload senders at a
// height.
type extensibleList struct {
	mu     sync.Mutex
	height uint32
	valid  bool
	list   []hash.Uint160
}

// IsExtensibleAllowed reports whether h may send extensible payloads (C#
// Blockchain.ExtensibleWitnessWhiteList, neo-go updateExtensibleWhitelist):
// the committee account, the next validators' BFT account and their
// standard accounts, and, if state validators are designated, their BFT
// account and standard accounts.
func (bc *Blockchain) IsExtensibleAllowed(h hash.Uint160) bool {
	l, err := bc.extensibleWhitelist()
	if err != nil {
		return false
	}
	_, ok := slices.BinarySearchFunc(l, h, hash.Uint160.Compare)
	return ok
}

func (bc *Blockchain) extensibleWhitelist() ([]hash.Uint160, error) {
	height := bc.BlockHeight()
	e := &bc.extensible
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.valid && e.height == height {
		return e.list, nil
	}
	list := []hash.Uint160{bc.GetCommitteeAddress()}
	add := func(pubs []*keys.PublicKey) error {
		script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
		if err != nil {
			return err
		}
		list = append(list, hash.Hash160(script))
		for _, p := range pubs {
			list = append(list, p.ScriptHash())
		}
		return nil
	}
	vals, _ := bc.GetNextBlockValidators()
	if err := add(vals); err != nil {
		return nil, err
	}
	if sv, _, err := bc.natives.RoleManagement().GetDesignatedByRole(bc.dao, noderoles.StateValidator, height); err == nil && len(sv) > 0 {
		if err := add(sv); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(list, hash.Uint160.Compare)
	e.list, e.height, e.valid = list, height, true
	return list, nil
}

// VerifyExtensible checks that an extensible payload's sender may send one
// and that its witness verifies within ExtensibleVerificationGas (the
// height window is the caller's business).
func (bc *Blockchain) VerifyExtensible(p *payload.Extensible) error {
	if !bc.IsExtensibleAllowed(p.Sender) {
		return fmt.Errorf("%w: %s", ErrExtensibleSender, p.Sender.StringLE())
	}
	if _, err := bc.VerifyWitness(p.Sender, p, &p.Witness, ExtensibleVerificationGas); err != nil {
		return fmt.Errorf("extensible payload witness: %w", err)
	}
	return nil
}
