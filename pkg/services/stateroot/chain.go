package stateroot

import (
	"github.com/n3node/n3node/pkg/core"
)

// ChainLedger is a Blockchain as the service's Ledger (the chain has every
// method).
func ChainLedger(bc *core.Blockchain) Ledger { return bc }
