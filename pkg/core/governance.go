package core

import (
	"slices"

	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// The committee, the validators and the nodes designated for a role.

// GetCommittee returns the current committee, sorted (neo-go GetCommittee).
func (bc *Blockchain) GetCommittee() []*keys.PublicKey {
	pubs := slices.Clone(bc.natives.Committee().CommitteeMembers(bc.dao))
	keys.SortPublicKeys(pubs)
	return pubs
}

// GetCommitteeAddress returns the committee's multi-signature account.
func (bc *Blockchain) GetCommitteeAddress() hash.Uint160 {
	return bc.natives.Committee().CommitteeAddress(bc.dao)
}

// GetNextBlockValidators returns the validators of the next block.
func (bc *Blockchain) GetNextBlockValidators() ([]*keys.PublicKey, error) {
	return slices.Clone(bc.natives.Committee().NextBlockValidators(bc.dao)), nil
}

// ComputeNextBlockValidators returns the validators the NEO contract would
// elect now (the next block's validators until the NEO contract provides
// the computation).
func (bc *Blockchain) ComputeNextBlockValidators() []*keys.PublicKey {
	if c, ok := bc.natives.Committee().(interface {
		ComputeNextBlockValidators(*dao.Simple) []*keys.PublicKey
	}); ok {
		return c.ComputeNextBlockValidators(bc.dao)
	}
	vs, _ := bc.GetNextBlockValidators()
	return vs
}

// GetDesignatedByRole returns the keys designated for role that apply to
// block index (sorted, as RoleManagement stores them) and the height of
// their designation; math.MaxUint32 asks for the latest designation.
func (bc *Blockchain) GetDesignatedByRole(role noderoles.Role, index uint32) ([]*keys.PublicKey, uint32, error) {
	return bc.natives.RoleManagement().GetDesignatedByRole(bc.dao, role, index)
}
