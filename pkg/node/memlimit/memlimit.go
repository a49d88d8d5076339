package memlimit

import (
	"fmt"
	"runtime/debug"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/storage"
)

// The environment variables that tune the collector; either one set
// leaves the runtime alone.
const (
	EnvMemLimit = "GOMEMLIMIT"
	EnvGOGC     = "GOGC"
)

// The derived limit: AutoBase for everything that does not grow with the
// configuration (the ledger's caches, the native contracts' state, the
// block in flight, the block queue while catching up, the RPC and P2P
// buffers) plus AutoPerPoolTx for each slot of the transaction pool (a
// pooled transfer with its decoded form, wire bytes, pool item and
// indexes is about 1.5 KB: docs/perf.md). Provisional values, to be set
// from a measured TPS/RSS curve (docs/perf.md, "Memory levers").
const (
	AutoBase      = 96 << 20
	AutoPerPoolTx = 1536
)

// Source says where a Choice came from.
type Source string

// The sources of a Choice.
const (
	SourceEnv    Source = "environment"   // GOMEMLIMIT or GOGC set: the node sets nothing
	SourceFlag   Source = "flag"          // --memory-limit
	SourceConfig Source = "configuration" // MemoryLimitMiB > 0
	SourceAuto   Source = "auto"          // MemoryLimitMiB unset: derived
	SourceOff    Source = "off"           // MemoryLimitMiB < 0 or --memory-limit 0
)

// Input is what Choose decides from.
type Input struct {
	// ConfiguredMiB is ApplicationConfiguration.MemoryLimitMiB.
	ConfiguredMiB int
	// FlagMiB is the command line's value when FlagSet.
	FlagMiB int
	FlagSet bool
	// MemPoolSize is the pool capacity (config.Blockchain.MemPoolSize,
	// defaults applied).
	MemPoolSize int
	// StoreHeap is the store's Go-heap buffers (storage.Options.GoHeapBytes).
	StoreHeap int64
}

// Choice is the limit a node runs with.
type Choice struct {
	// Limit is the limit in bytes; 0 when the node sets none.
	Limit  int64
	Source Source
	// Env is the environment variable that decided (SourceEnv).
	Env string
	// Input is what the choice was made from.
	Input Input
}

// Choose applies the package's rule; getenv reads the environment
// (os.Getenv). A negative FlagMiB is an error.
func Choose(in Input, getenv func(string) string) (Choice, error) {
	c := Choice{Source: SourceOff, Input: in}
	if in.FlagSet && in.FlagMiB < 0 {
		return c, fmt.Errorf("--memory-limit %d: want MiB >= 0", in.FlagMiB)
	}
	if in.FlagSet && in.FlagMiB > config.MaxMemoryLimitMiB {
		return c, fmt.Errorf("--memory-limit %d: above %d MiB", in.FlagMiB, config.MaxMemoryLimitMiB)
	}
	for _, e := range []string{EnvMemLimit, EnvGOGC} {
		if getenv(e) != "" {
			c.Source, c.Env = SourceEnv, e
			return c, nil
		}
	}
	switch {
	case in.FlagSet:
		if in.FlagMiB > 0 {
			c.Limit, c.Source = int64(in.FlagMiB)<<20, SourceFlag
		}
	case in.ConfiguredMiB > 0:
		c.Limit, c.Source = int64(in.ConfiguredMiB)<<20, SourceConfig
	case in.ConfiguredMiB == 0:
		c.Limit, c.Source = Auto(in.MemPoolSize, in.StoreHeap), SourceAuto
	}
	return c, nil
}

// Auto is the derived limit for a pool of poolSize transactions and a
// store keeping storeHeap bytes on the Go heap.
func Auto(poolSize int, storeHeap int64) int64 {
	return AutoBase + int64(max(poolSize, 0))*AutoPerPoolTx + max(storeHeap, 0)
}

// FromConfig chooses the limit of a node run with cfg (its database
// settings as the node will open them: flags already applied);
// flagMiB is the command line's value, nil when not given.
func FromConfig(cfg *config.Config, flagMiB *int, getenv func(string) string) (Choice, error) {
	bc, err := cfg.Blockchain()
	if err != nil {
		return Choice{}, err
	}
	so, err := storage.OptionsFromConfig(cfg.ApplicationConfiguration.DBConfiguration, "", "")
	if err != nil {
		return Choice{}, err
	}
	in := Input{
		ConfiguredMiB: cfg.ApplicationConfiguration.MemoryLimitMiB,
		MemPoolSize:   bc.MemPoolSize,
		StoreHeap:     so.GoHeapBytes(),
	}
	if flagMiB != nil {
		in.FlagMiB, in.FlagSet = *flagMiB, true
	}
	return Choose(in, getenv)
}

// Apply sets the limit, if there is one, and returns the previous one
// (math.MaxInt64: none); with no limit it changes nothing and returns -1.
func (c Choice) Apply() int64 {
	if c.Limit <= 0 {
		return -1
	}
	return debug.SetMemoryLimit(c.Limit)
}

// LogAttrs are the start-up log's key-value pairs for c (slog style).
func (c Choice) LogAttrs() []any {
	out := []any{"source", string(c.Source)}
	switch c.Source {
	case SourceEnv:
		return append(out, "env", c.Env)
	case SourceOff:
		return out
	}
	out = append(out, "limit_mib", c.Limit>>20)
	if c.Source == SourceAuto {
		out = append(out, "base_mib", AutoBase>>20, "mempool", c.Input.MemPoolSize, "store_heap_mib", c.Input.StoreHeap>>20)
	}
	return out
}
