package core_test

import (
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/bqueue"
)

// What the lower layers declare they need of the chain. The network's
// and consensus's Ledger interfaces are implemented by pkg/node's thin
// adapters, not by the Blockchain: they verify *payload.Extensible, a
// network type core does not import (the adapter passes the payload's
// sender, hash and witness to VerifyExtensible), consensus wants a copy
// of the configuration (GetConfig; the chain has one accessor, Config)
// and its own *RejectedTxError.
var (
	_ bqueue.StreamLedger = (*core.Blockchain)(nil)
	_ mempool.Feer        = (*core.Blockchain)(nil)
	_ network.Mempool     = (*mempool.Pool)(nil)
)
