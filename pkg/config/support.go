package config

import (
	"errors"
	"fmt"
)

// ErrUnsupported marks a setting that n3node parses but does not implement:
// a node refuses to start with it rather than run without it.
var ErrUnsupported = errors.New("not supported by n3node")

// Setting says what n3node does with one configuration key (a YAML path
// such as "ApplicationConfiguration.RPC.MaxGasInvoke"; a map-valued key
// such as "ProtocolConfiguration.Hardforks" covers its entries).
type Setting struct {
	Key string
	// Use names where the value is honoured: a file or directory of the
	// repository whose code reads Field (the Go name, when it differs from
	// the last element of Key). Empty for a refused setting.
	Use   string
	Field string
	// Refused is set for a setting that n3node does not implement: Set
	// tells whether the configuration uses it (a non-default value) and
	// Hint how to run without it.
	Refused *Refusal
}

// Refusal describes an unimplemented setting.
type Refusal struct {
	Set  func(*Config) bool
	Hint string
}

const (
	useChain    = "pkg/core"
	useNatives  = "pkg/core/native"
	useNet      = "pkg/network"
	useRPC      = "pkg/node/rpc.go"
	useNode     = "pkg/node"
	useCmd      = "cmd/n3node"
	useStore    = "pkg/core/storage/config.go"
	useOracle   = "pkg/services/oracle"
	useMetrics  = "pkg/metrics"
	useServices = "pkg/node/services.go"
)

// Settings lists every key of the configuration format and what n3node does
// with it. A key is honoured (Use names its reader) or refused (Refused):
// nothing is accepted and ignored. Sub-keys of a refused service section
// (NeoFSBlockFetcher.*) have no effect while the section is disabled, as in
// neo-go, and are listed with the section's Enabled key as their guard.
var Settings = []Setting{
	{Key: "ProtocolConfiguration.CommitteeHistory", Use: useNatives, Field: "GetCommitteeSize"},
	{Key: "ProtocolConfiguration.Genesis.MaxTraceableBlocks", Use: useChain, Field: "Genesis.MaxTraceableBlocks"},
	{Key: "ProtocolConfiguration.Genesis.MaxValidUntilBlockIncrement", Use: useNatives + "/policy.go"},
	{Key: "ProtocolConfiguration.Genesis.Roles", Use: useNatives + "/role.go"},
	{Key: "ProtocolConfiguration.Genesis.TimePerBlock", Use: useNatives + "/policy.go"},
	{Key: "ProtocolConfiguration.Genesis.Transaction", Use: useChain + "/genesis.go"},
	{Key: "ProtocolConfiguration.Magic", Use: useNet},
	{Key: "ProtocolConfiguration.MemPoolSize", Use: useChain + "/blockchain.go"},
	{Key: "ProtocolConfiguration.Hardforks", Use: useChain, Field: "IsHardforkEnabled"},
	{Key: "ProtocolConfiguration.InitialGASSupply", Use: useNatives + "/gas.go"},
	{Key: "ProtocolConfiguration.P2PNotaryRequestPayloadPoolSize", Use: useServices},
	{Key: "ProtocolConfiguration.MaxBlockSize", Use: "pkg/consensus"},
	{Key: "ProtocolConfiguration.MaxBlockSystemFee", Use: "pkg/consensus"},
	{Key: "ProtocolConfiguration.MaxTraceableBlocks", Use: useChain},
	{Key: "ProtocolConfiguration.MaxTransactionsPerBlock", Use: "pkg/consensus"},
	{Key: "ProtocolConfiguration.MaxValidUntilBlockIncrement", Use: useChain},
	{Key: "ProtocolConfiguration.P2PSigExtensions", Use: useNet},
	{Key: "ProtocolConfiguration.P2PStateExchangeExtensions", Use: useServices},
	{Key: "ProtocolConfiguration.NeoFSStateSyncExtensions", Refused: &Refusal{
		Set:  func(c *Config) bool { return c.ProtocolConfiguration.NeoFSStateSyncExtensions },
		Hint: "state sync from NeoFS is not implemented; set it to false (state sync over P2P with P2PStateExchangeExtensions works)",
	}},
	{Key: "ProtocolConfiguration.ReservedAttributes", Use: "pkg/core/verify.go"},
	{Key: "ProtocolConfiguration.SeedList", Use: useNet},
	{Key: "ProtocolConfiguration.StandbyCommittee", Use: useChain + "/genesis.go"},
	{Key: "ProtocolConfiguration.StateRootInHeader", Use: useChain},
	{Key: "ProtocolConfiguration.StateSyncInterval", Use: useServices},
	{Key: "ProtocolConfiguration.TimePerBlock", Use: useNode},
	{Key: "ProtocolConfiguration.MaxTimePerBlock", Use: "pkg/consensus"},
	{Key: "ProtocolConfiguration.ValidatorsCount", Use: useChain, Field: "GetNumOfCNs"},
	{Key: "ProtocolConfiguration.ValidatorsHistory", Use: useChain, Field: "GetNumOfCNs"},
	{Key: "ProtocolConfiguration.VerifyTransactions", Use: useChain + "/pipeline.go"},

	{Key: "ApplicationConfiguration.GarbageCollectionPeriod", Use: useChain},
	{Key: "ApplicationConfiguration.KeepOnlyLatestState", Use: useChain},
	{Key: "ApplicationConfiguration.RemoveUntraceableBlocks", Use: useChain},
	{Key: "ApplicationConfiguration.SaveStorageBatch", Use: useChain},
	{Key: "ApplicationConfiguration.SkipBlockVerification", Use: useChain},
	{Key: "ApplicationConfiguration.SaveInvocations", Use: "pkg/core/interop"},
	{Key: "ApplicationConfiguration.TrustedHeader", Use: useChain},
	{Key: "ApplicationConfiguration.DBConfiguration.Type", Use: useStore},
	{Key: "ApplicationConfiguration.DBConfiguration.LevelDBOptions.DataDirectoryPath", Use: useStore, Field: "Path()"},
	{Key: "ApplicationConfiguration.DBConfiguration.LevelDBOptions.ReadOnly", Use: useStore},
	{Key: "ApplicationConfiguration.DBConfiguration.LevelDBOptions.CacheSizeMiB", Use: useStore, Field: "LevelDBOptions.CacheSizeMiB"},
	{Key: "ApplicationConfiguration.DBConfiguration.LevelDBOptions.WriteBufferSizeMiB", Use: useStore},
	{Key: "ApplicationConfiguration.DBConfiguration.BoltDBOptions.FilePath", Use: useStore, Field: "Path()"},
	{Key: "ApplicationConfiguration.DBConfiguration.BoltDBOptions.ReadOnly", Use: useStore},
	{Key: "ApplicationConfiguration.DBConfiguration.PebbleDBOptions.DataDirectoryPath", Use: useStore, Field: "Path()"},
	{Key: "ApplicationConfiguration.DBConfiguration.PebbleDBOptions.ReadOnly", Use: useStore},
	{Key: "ApplicationConfiguration.DBConfiguration.PebbleDBOptions.CacheSizeMiB", Use: useStore, Field: "PebbleDBOptions.CacheSizeMiB"},
	{Key: "ApplicationConfiguration.DBConfiguration.PebbleDBOptions.MemTableSizeMiB", Use: useStore},
	{Key: "ApplicationConfiguration.MemoryLimitMiB", Use: "pkg/node/memlimit"},
	{Key: "ApplicationConfiguration.LogEncoding", Use: useCmd},
	{Key: "ApplicationConfiguration.LogLevel", Use: useCmd},
	{Key: "ApplicationConfiguration.LogPath", Use: useCmd},
	{Key: "ApplicationConfiguration.LogTimestamp", Use: useCmd},
	{Key: "ApplicationConfiguration.P2P.Addresses", Use: useNet, Field: "GetAddresses"},
	{Key: "ApplicationConfiguration.P2P.AttemptConnPeers", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.BroadcastFactor", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.BroadcastTxsBatchDelay", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.DialTimeout", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.DisableCompression", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.ExtensiblePoolSize", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.MaxPeers", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.MinPeers", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.PingInterval", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.PingTimeout", Use: useNet},
	{Key: "ApplicationConfiguration.P2P.ProtoTickInterval", Use: useNet},
	{Key: "ApplicationConfiguration.Pprof.Enabled", Use: useNode + "/node.go", Field: "Pprof.Enabled"},
	{Key: "ApplicationConfiguration.Pprof.Addresses", Use: useMetrics},
	{Key: "ApplicationConfiguration.Pprof.EnableBlock", Use: useMetrics},
	{Key: "ApplicationConfiguration.Pprof.EnableMutex", Use: useMetrics},
	{Key: "ApplicationConfiguration.Prometheus.Enabled", Use: useNode + "/node.go", Field: "Prometheus.Enabled"},
	{Key: "ApplicationConfiguration.Prometheus.Addresses", Use: useMetrics},
	{Key: "ApplicationConfiguration.Relay", Use: useNet},
	{Key: "ApplicationConfiguration.ArchivalNodesSync", Use: useNet},
	{Key: "ApplicationConfiguration.Consensus.Enabled", Use: useNode + "/node.go", Field: "Consensus.Enabled"},
	{Key: "ApplicationConfiguration.Consensus.UnlockWallet.Path", Use: "pkg/wallet", Field: "Path"},
	{Key: "ApplicationConfiguration.Consensus.UnlockWallet.Password", Use: "pkg/wallet", Field: "Password"},
	{Key: "ApplicationConfiguration.RPC.Enabled", Use: useNode + "/node.go", Field: "RPC.Enabled"},
	{Key: "ApplicationConfiguration.RPC.Addresses", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.DirectRelay", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.EnableCORSWorkaround", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxGasInvoke", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxIteratorResultItems", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxFindResultItems", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxFindStoragePageSize", Use: useRPC, Field: "MaxFindStorageResultItems"},
	{Key: "ApplicationConfiguration.RPC.MaxNEP11Tokens", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxRequestBodyBytes", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxRequestHeaderBytes", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxWebSocketClients", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MaxWebSocketFeeds", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.MempoolSubscriptionsEnabled", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.SessionEnabled", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.SessionExpansionEnabled", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.SessionLifetime", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.SessionBackedByMPT", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.SessionPoolSize", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.StartWhenSynchronized", Use: useNode + "/node.go"},
	{Key: "ApplicationConfiguration.RPC.TLSConfig.Enabled", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.TLSConfig.Addresses", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.TLSConfig.CertFile", Use: useRPC},
	{Key: "ApplicationConfiguration.RPC.TLSConfig.KeyFile", Use: useRPC},
	{Key: "ApplicationConfiguration.Oracle.Enabled", Use: useServices, Field: "Oracle"}, // buildOracle(app.Oracle) reads its Enabled
	{Key: "ApplicationConfiguration.Oracle.AllowPrivateHost", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.AllowedContentTypes", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.Nodes", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.NeoFS.Nodes", Refused: &Refusal{
		Set:  func(c *Config) bool { return len(c.ApplicationConfiguration.Oracle.NeoFS.Nodes) != 0 },
		Hint: "the oracle does not fetch neofs: URLs (it answers them with Error, as neo-go does without NeoFS nodes); remove the list",
	}},
	{Key: "ApplicationConfiguration.Oracle.NeoFS.Timeout", Use: useOracle, Field: "NeoFS.Timeout"},
	{Key: "ApplicationConfiguration.Oracle.MaxTaskTimeout", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.RefreshInterval", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.MaxConcurrentRequests", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.RequestTimeout", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.ResponseTimeout", Use: useOracle},
	{Key: "ApplicationConfiguration.Oracle.UnlockWallet.Path", Use: "pkg/wallet", Field: "Path"},
	{Key: "ApplicationConfiguration.Oracle.UnlockWallet.Password", Use: "pkg/wallet", Field: "Password"},
	{Key: "ApplicationConfiguration.P2PNotary.Enabled", Use: useServices, Field: "P2PNotary.Enabled"},
	{Key: "ApplicationConfiguration.P2PNotary.UnlockWallet.Path", Use: "pkg/wallet", Field: "Path"},
	{Key: "ApplicationConfiguration.P2PNotary.UnlockWallet.Password", Use: "pkg/wallet", Field: "Password"},
	{Key: "ApplicationConfiguration.StateRoot.Enabled", Use: useServices, Field: "StateRoot"}, // buildStateRoot(app.StateRoot) reads its Enabled
	{Key: "ApplicationConfiguration.StateRoot.UnlockWallet.Path", Use: "pkg/wallet", Field: "Path"},
	{Key: "ApplicationConfiguration.StateRoot.UnlockWallet.Password", Use: "pkg/wallet", Field: "Password"},
	{Key: "ApplicationConfiguration.NeoFSBlockFetcher.Enabled", Refused: &Refusal{
		Set:  func(c *Config) bool { return c.ApplicationConfiguration.NeoFSBlockFetcher.Enabled },
		Hint: "fetching blocks from NeoFS is not implemented; set it to false (blocks then come over P2P, or restore a dump with `n3node db restore`)",
	}},
	{Key: "ApplicationConfiguration.NeoFSStateFetcher.Enabled", Refused: &Refusal{
		Set:  func(c *Config) bool { return c.ApplicationConfiguration.NeoFSStateFetcher.Enabled },
		Hint: "fetching state from NeoFS is not implemented; set it to false (state sync over P2P works with P2PStateExchangeExtensions)",
	}},
}

// inertSections are the sections whose other keys only matter when their
// Enabled key (refused above) is on.
var inertSections = []string{
	"ApplicationConfiguration.NeoFSBlockFetcher.",
	"ApplicationConfiguration.NeoFSStateFetcher.",
}

// CheckSupported returns an error for every refused setting c uses, each
// naming the setting and how to run without it (errors.Join; each wraps
// ErrUnsupported). A node calls it before it starts; Load does not, so that
// tools can still read such files.
func (c *Config) CheckSupported() error {
	var errs []error
	for i := range Settings {
		s := &Settings[i]
		if s.Refused != nil && s.Refused.Set(c) {
			errs = append(errs, &FieldError{Field: s.Key, Err: fmt.Errorf("%w: %s", ErrUnsupported, s.Refused.Hint)})
		}
	}
	return errors.Join(errs...)
}
