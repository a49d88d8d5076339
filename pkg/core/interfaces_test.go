package core_test

import (
	"github.com/n3node/n3node/pkg/consensus"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/bqueue"
	"github.com/n3node/n3node/pkg/network/extpool"
)

// The Blockchain is what the network and consensus layers declare they
// need. (Consensus looks for its own *RejectedTxError in
// VerifyProposedTransactions' error; core returns *core.RejectedTxError,
// so the node assembly converts it, or consensus matches on RejectedHash.)
var (
	_ consensus.Ledger    = (*core.Blockchain)(nil)
	_ network.Ledger      = (*core.Blockchain)(nil)
	_ bqueue.StreamLedger = (*core.Blockchain)(nil)
	_ extpool.Ledger      = (*core.Blockchain)(nil)
	_ mempool.Feer        = (*core.Blockchain)(nil)
	_ network.Mempool     = (*mempool.Pool)(nil)
)
