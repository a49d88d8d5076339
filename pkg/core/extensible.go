package core

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// ExtensibleVerificationGas is the GAS an extensible payload's witness may
// use (C# Blockchain: 0.06 GAS, neo-go extensibleVerifyMaxGAS).
const ExtensibleVerificationGas = 6_000_000

// ErrExtensibleSender: the payload's sender may not send extensible
// payloads.
var ErrExtensibleSender = errors.New("extensible payload sender is not allowed")

// senders is the whitelist of extensible payload senders at one block
// (C# Blockchain.ExtensibleWitnessWhiteList, neo-go
// updateExtensibleWhitelist): the committee account, then for the next
// block's validators and for the designated state validators their BFT
// account and each one's standard account. It is rebuilt when the top
// block changes.
type senders struct {
	mu     sync.Mutex
	height uint32
	top    hash.Uint256
	list   []hash.Uint160 // sorted, no duplicates; nil until built
}

// IsExtensibleAllowed reports whether h may send extensible payloads now.
func (bc *Blockchain) IsExtensibleAllowed(h hash.Uint160) bool {
	_, ok := slices.BinarySearchFunc(bc.extensibleSenders(), h, hash.Uint160.Compare)
	return ok
}

func (bc *Blockchain) extensibleSenders() []hash.Uint160 {
	height, top := bc.BlockHeight(), bc.CurrentBlockHash()
	s := &bc.extensible
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.list != nil && s.height == height && s.top == top {
		return s.list
	}
	list := []hash.Uint160{bc.GetCommitteeAddress()}
	group := func(pubs []*keys.PublicKey, err error) {
		if err != nil || len(pubs) == 0 {
			return
		}
		if bft, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs); err == nil {
			list = append(list, hash.Hash160(bft))
		}
		for _, p := range pubs {
			list = append(list, p.ScriptHash())
		}
	}
	group(bc.GetNextBlockValidators())
	stateValidators, _, err := bc.natives.RoleManagement().GetDesignatedByRole(bc.dao, noderoles.StateValidator, height)
	group(stateValidators, err)
	slices.SortFunc(list, hash.Uint160.Compare)
	s.list, s.height, s.top = slices.Compact(list), height, top
	return s.list
}

// VerifyExtensible checks that sender may send extensible payloads and
// that its witness w of the payload c verifies within
// ExtensibleVerificationGas (the payload's height window is the caller's
// business). The payload type belongs to the network; the ledger needs
// only its sender, its hash (c) and its witness.
func (bc *Blockchain) VerifyExtensible(sender hash.Uint160, c interop.Container, w *transaction.Witness) error {
	if !bc.IsExtensibleAllowed(sender) {
		return fmt.Errorf("%w: %s", ErrExtensibleSender, sender.StringLE())
	}
	if _, err := bc.VerifyWitness(sender, c, w, ExtensibleVerificationGas); err != nil {
		return fmt.Errorf("extensible payload witness: %w", err)
	}
	return nil
}
