package network

import "github.com/n3node/n3node/pkg/core/mempool"

// The ledger helper's memory pool is the Mempool the server needs.
var _ Mempool = (*mempool.Pool)(nil)
