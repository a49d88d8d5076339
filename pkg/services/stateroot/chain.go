package stateroot

import (
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// ChainLedger adapts a Blockchain to Ledger.
func ChainLedger(bc *core.Blockchain) Ledger { return chainLedger{bc} }

type chainLedger struct{ *core.Blockchain }

func (l chainLedger) CurrentValidatedHeight() uint32 {
	return l.StateModule().CurrentValidatedHeight()
}

func (l chainLedger) GetDesignatedByRole(r noderoles.Role, index uint32) ([]*keys.PublicKey, uint32, error) {
	return l.Natives().RoleManagement().GetDesignatedByRole(l.DAO(), r, index)
}
