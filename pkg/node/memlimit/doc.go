// Package memlimit chooses the Go runtime's soft memory limit
// (runtime/debug.SetMemoryLimit) a node runs with.
//
// Without a limit the collector lets the heap grow to twice what is live
// (GOGC=100), so every byte the node keeps — its transaction pool, the
// blocks in flight, goleveldb's cache and write buffers — costs about two
// in resident memory. A limit makes the collector run earlier as the heap
// approaches it; it is soft: the runtime exceeds it rather than fail, and
// bounds the collector's CPU (about half of GOMAXPROCS) when the live heap
// alone is above it.
//
// # The rule (Choose)
//
//  1. GOMEMLIMIT or GOGC set in the environment: the node sets nothing
//     (the runtime has applied them; whoever tunes the collector by hand
//     keeps it as tuned).
//  2. The command-line value (n3node run --memory-limit MiB), if given:
//     MiB > 0 is the limit, 0 none.
//  3. ApplicationConfiguration.MemoryLimitMiB: > 0 is the limit, < 0 none,
//     0 (unset) the derived limit (Auto): AutoBase + MemPoolSize ×
//     AutoPerPoolTx + the store's Go-heap buffers
//     (storage.Options.GoHeapBytes: goleveldb's cache and two write
//     buffers; nothing for Pebble, whose buffers are C memory). With the
//     defaults (a 50,000-transaction pool) that is 169 MiB on Pebble and
//     329 MiB on LevelDB at its 32 / 64 MiB defaults.
//
// Choose is pure (the environment comes in as a function); Choice.Apply
// sets the limit and Choice.LogAttrs describes it for the start-up log.
package memlimit
