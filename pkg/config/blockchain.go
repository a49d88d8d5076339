package config

import "time"

// Ledger defaults, applied by Config.Blockchain as neo-go's Blockchain
// constructor applies them.
const (
	// DefaultInitialGAS is the genesis GAS supply in datoshi (52 million).
	DefaultInitialGAS Fixed8 = 52_000_000 * fixed8Decimals
	// DefaultMemPoolSize is the transaction pool capacity.
	DefaultMemPoolSize = 50000
	// DefaultP2PNotaryRequestPayloadPoolSize is the notary request pool
	// capacity.
	DefaultP2PNotaryRequestPayloadPoolSize = 1000
	// DefaultMaxBlockSize is the block size limit in bytes.
	DefaultMaxBlockSize = 262144
	// DefaultMaxBlockSystemFee is the block system fee limit in datoshi.
	DefaultMaxBlockSystemFee = 150000000000
	// DefaultMaxTraceableBlocks is a year of 15-second blocks.
	DefaultMaxTraceableBlocks = 2102400
	// DefaultMaxTransactionsPerBlock is the transaction count limit.
	DefaultMaxTransactionsPerBlock = 512
	// DefaultTimePerBlock is the block interval.
	DefaultTimePerBlock = 15 * time.Second
	// DefaultStateSyncInterval is the distance between state-sync points.
	DefaultStateSyncInterval = 40000
	// DefaultGCPeriod is the MPT garbage collection period in blocks.
	DefaultGCPeriod = 10000
)

// Blockchain is the configuration the ledger runs with: the protocol and
// ledger settings with every default filled in, and the hardfork schedule
// precomputed. Build it with Config.Blockchain; its fields must not be
// changed afterwards (Forks would go stale).
type Blockchain struct {
	ProtocolConfiguration
	Ledger
	NeoFSBlockFetcher           NeoFSBlockFetcher
	NeoFSStateFetcher           NeoFSStateFetcher
	MempoolSubscriptionsEnabled bool
	// Forks is the normalized hardfork schedule. ProtocolConfiguration's
	// Hardforks map is normalized the same way (omitted leading hardforks
	// set to 0), so code that reads the map sees what neo-go's would.
	Forks HardforkSchedule
}

// Blockchain returns the ledger configuration with neo-go 0.120.0's
// constructor fixups applied (see NewBlockchainConfig).
func (c Config) Blockchain() (Blockchain, error) {
	return NewBlockchainConfig(c.ProtocolConfiguration, c.ApplicationConfiguration)
}

// NewBlockchainConfig validates p and builds a Blockchain from it and a.
// Unset (or non-positive) values get the Default* constants;
// Genesis.MaxTraceableBlocks, Genesis.TimePerBlock and
// Genesis.MaxValidUntilBlockIncrement default to their protocol-level
// values; MaxValidUntilBlockIncrement defaults to a day of blocks; the
// state-sync extensions are checked against each other and the ledger
// settings; and the hardfork map is normalized.
func NewBlockchainConfig(p ProtocolConfiguration, a ApplicationConfiguration) (Blockchain, error) {
	if err := p.Validate(); err != nil {
		return Blockchain{}, err
	}
	cfg := Blockchain{
		ProtocolConfiguration:       p,
		Ledger:                      a.Ledger,
		NeoFSBlockFetcher:           a.NeoFSBlockFetcher,
		NeoFSStateFetcher:           a.NeoFSStateFetcher,
		MempoolSubscriptionsEnabled: a.RPC.MempoolSubscriptionsEnabled,
	}
	SetIfNonPositive(&cfg.InitialGASSupply, DefaultInitialGAS)
	SetIfNonPositive(&cfg.MemPoolSize, DefaultMemPoolSize)
	if cfg.P2PSigExtensions && cfg.P2PNotaryRequestPayloadPoolSize <= 0 {
		cfg.P2PNotaryRequestPayloadPoolSize = DefaultP2PNotaryRequestPayloadPoolSize
	}
	if cfg.MaxBlockSize == 0 {
		cfg.MaxBlockSize = DefaultMaxBlockSize
	}
	SetIfNonPositive(&cfg.MaxBlockSystemFee, DefaultMaxBlockSystemFee)
	if cfg.MaxTraceableBlocks == 0 {
		cfg.MaxTraceableBlocks = DefaultMaxTraceableBlocks
	}
	if cfg.Genesis.MaxTraceableBlocks == 0 {
		cfg.Genesis.MaxTraceableBlocks = cfg.MaxTraceableBlocks
	}
	if cfg.MaxTransactionsPerBlock == 0 {
		cfg.MaxTransactionsPerBlock = DefaultMaxTransactionsPerBlock
	}
	if cfg.TimePerBlock <= 0 {
		cfg.TimePerBlock = DefaultTimePerBlock
	} else if cfg.TimePerBlock%time.Millisecond != 0 {
		return Blockchain{}, fieldErr("ProtocolConfiguration.TimePerBlock", "TimePerBlock must be an integer number of milliseconds")
	}
	if cfg.Genesis.TimePerBlock <= 0 {
		cfg.Genesis.TimePerBlock = cfg.TimePerBlock
	} else if cfg.Genesis.TimePerBlock%time.Millisecond != 0 {
		return Blockchain{}, fieldErr("ProtocolConfiguration.Genesis.TimePerBlock", "Genesis.TimePerBlock must be an integer number of milliseconds")
	}
	if cfg.MaxValidUntilBlockIncrement == 0 {
		cfg.MaxValidUntilBlockIncrement = uint32(24 * time.Hour / cfg.TimePerBlock)
	}
	if cfg.Genesis.MaxValidUntilBlockIncrement == 0 {
		cfg.Genesis.MaxValidUntilBlockIncrement = cfg.MaxValidUntilBlockIncrement
	}
	if cfg.P2PStateExchangeExtensions && cfg.NeoFSStateSyncExtensions {
		return Blockchain{}, fieldErr("ProtocolConfiguration.NeoFSStateSyncExtensions", "P2PStateExchangeExtensions and NeoFSStateSyncExtensions cannot be enabled simultaneously")
	}
	if cfg.TrustedHeader.Index > 0 && !cfg.P2PStateExchangeExtensions && !cfg.NeoFSStateSyncExtensions {
		return Blockchain{}, fieldErr("ApplicationConfiguration.TrustedHeader", "TrustedHeader can not be used without P2PStateExchangeExtensions or NeoFSStateSyncExtensions")
	}
	if cfg.P2PStateExchangeExtensions {
		// neo-go also requires StateRootInHeader here (it trusts the root
		// of the sync point from header P+1). n3node does that with
		// StateRootInHeader and otherwise takes the root from the operator
		// (docs/statesync.md), so it does not require it.
		if cfg.KeepOnlyLatestState && !cfg.RemoveUntraceableBlocks {
			return Blockchain{}, fieldErr("ProtocolConfiguration.P2PStateExchangeExtensions", "P2PStateExchangeExtensions can be enabled either on MPT-complete node (KeepOnlyLatestState=false) or on light GC-enabled node (RemoveUntraceableBlocks=true)")
		}
		SetIfNonPositive(&cfg.StateSyncInterval, DefaultStateSyncInterval)
	}
	if cfg.NeoFSStateSyncExtensions {
		if !cfg.NeoFSBlockFetcher.Enabled || !cfg.NeoFSStateFetcher.Enabled {
			return Blockchain{}, fieldErr("ProtocolConfiguration.NeoFSStateSyncExtensions", "NeoFSStateSyncExtensions are enabled, but NeoFSBlockFetcher or NeoFSStateFetcher are off")
		}
		if !cfg.RemoveUntraceableBlocks {
			return Blockchain{}, fieldErr("ProtocolConfiguration.NeoFSStateSyncExtensions", "NeoFSStateFetcher cannot be used on archival nodes; set RemoveUntraceableBlocks=true")
		}
		SetIfNonPositive(&cfg.StateSyncInterval, DefaultStateSyncInterval)
	}
	cfg.Forks = cfg.ProtocolConfiguration.HardforkSchedule()
	cfg.Hardforks = normalizedHardforks(p.Hardforks)
	if cfg.RemoveUntraceableBlocks && cfg.GarbageCollectionPeriod == 0 {
		cfg.GarbageCollectionPeriod = DefaultGCPeriod
	}
	return cfg, nil
}

// normalizedHardforks returns a copy of m normalized as neo-go's
// constructor does: nil becomes the stable hardforks at 0; otherwise the
// hardforks before the first listed one are added at height 0.
func normalizedHardforks(m map[string]uint32) map[string]uint32 {
	res := make(map[string]uint32, hfCount)
	if m == nil {
		for _, hf := range StableHardforks() {
			res[hf.String()] = 0
		}
		return res
	}
	for k, v := range m {
		res[k] = v
	}
	if len(m) == 0 {
		return res
	}
	for _, hf := range Hardforks() {
		if _, ok := m[hf.String()]; ok {
			break
		}
		res[hf.String()] = 0
	}
	return res
}

// IsHardforkEnabled reports whether hf is active in the block at height.
func (b *Blockchain) IsHardforkEnabled(hf Hardfork, height uint32) bool {
	return b.Forks.IsEnabled(hf, height)
}

// EnabledHardforks returns the set of hardforks active at height.
func (b *Blockchain) EnabledHardforks(height uint32) HardforkSet {
	return b.Forks.EnabledAt(height)
}
