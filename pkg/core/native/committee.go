package native

import (
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Committee is what the native contracts need of the NEO contract's
// committee. NeoToken implements it; until it is registered, the standby
// committee of the configuration stands in (see newStandbyCommittee).
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
	// the caller.
	RevokeVotes(ic *interop.Context, h hash.Uint160, then func() error) (scheduled bool, err error)
}

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

// standbyCommittee is the committee of the configuration (the first
// committee-size StandbyCommittee keys), used while NeoToken is missing.
type standbyCommittee struct {
	members    []*keys.PublicKey
	validators []*keys.PublicKey
	address    hash.Uint160
}

func newStandbyCommittee(cfg *config.Blockchain) *standbyCommittee {
	sc := &standbyCommittee{}
	pks, err := cfg.StandbyCommitteeKeys()
	if err != nil || len(pks) == 0 {
		return sc
	}
	n := min(cfg.GetCommitteeSize(0), len(pks))
	for _, pk := range pks[:n] {
		k, err := keys.NewPublicKeyFromBytes(pk.Bytes())
		if err != nil {
			return &standbyCommittee{}
		}
		sc.members = append(sc.members, k)
	}
	v := min(cfg.GetNumOfCNs(0), len(sc.members))
	sc.validators = append([]*keys.PublicKey(nil), sc.members[:v]...)
	keys.SortPublicKeys(sc.validators)
	if script, err := smartcontract.CreateMajorityMultiSigRedeemScript(sc.members); err == nil {
		sc.address = hash.Hash160(script)
	}
	return sc
}

func (sc *standbyCommittee) CommitteeMembers(*dao.Simple) []*keys.PublicKey    { return sc.members }
func (sc *standbyCommittee) CommitteeAddress(*dao.Simple) hash.Uint160         { return sc.address }
func (sc *standbyCommittee) NextBlockValidators(*dao.Simple) []*keys.PublicKey { return sc.validators }
func (sc *standbyCommittee) RevokeVotes(*interop.Context, hash.Uint160, func() error) (bool, error) {
	return false, nil
}
