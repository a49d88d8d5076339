package native

import (
	"errors"

	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Committee is what the native contracts need of the NEO contract's
// committee. NeoToken (neo.go) implements it.
type Committee interface {
	// CommitteeMembers returns the current committee keys.
	CommitteeMembers(d *dao.Simple) []*keys.PublicKey
	// CommitteeAddress returns the committee's multi-signature account (a
	// majority of the members).
	CommitteeAddress(d *dao.Simple) hash.Uint160
	// NextBlockValidators returns the validators of the next block.
	NextBlockValidators(d *dao.Simple) []*keys.PublicKey
	// RevokeVotes removes the votes of account h (Policy.blockAccount from
	// HF_Faun); then runs after the NEO contract's work, which may call a
	// contract. scheduled tells whether then was deferred or must be run by
	// the caller. An error wrapping ErrVoteRejected means there was nothing
	// to revoke (no NEO); other errors are faults.
	RevokeVotes(ic *interop.Context, h hash.Uint160, then func() error) (scheduled bool, err error)
}

// ErrVoteRejected is wrapped by the errors of a vote that is refused (NEO
// vote returns false): an account without NEO, an unknown or unregistered
// candidate.
var ErrVoteRejected = errors.New("vote rejected")

// CheckCommittee reports whether the committee address witnesses the call
// (neo-go NEO.CheckCommittee).
func CheckCommittee(ic *interop.Context, c Committee) (bool, error) {
	return ic.CheckWitness(c.CommitteeAddress(ic.DAO))
}

// CheckAlmostFullCommittee reports whether max(majority, n-2) committee
// members witness the call (neo-go NEO.CheckAlmostFullCommittee, Policy.
// recoverFund).
func CheckAlmostFullCommittee(ic *interop.Context, c Committee) (bool, error) {
	pubs := c.CommitteeMembers(ic.DAO)
	minCnt := max(1, len(pubs)-(len(pubs)-1)/2)
	script, err := smartcontract.CreateMultiSigRedeemScript(max(minCnt, len(pubs)-2), pubs)
	if err != nil {
		return false, err
	}
	return ic.CheckWitness(hash.Hash160(script))
}
