// Package config reads node configuration files. The format is neo-go
// 0.120.0's YAML, field for field (same names, types, defaults and
// validation), so a file that neo-go runs with runs n3node too; n3node adds
// only optional keys whose zero value keeps its defaults:
// DBConfiguration.PebbleDBOptions with the "pebble" store type, the
// LevelDB sizes (LevelDBOptions.CacheSizeMiB, WriteBufferSizeMiB) and
// ApplicationConfiguration.MemoryLimitMiB (docs/config.md).
//
// # Loading
//
// Load reads a file, LoadBytes a buffer, LoadNetwork a built-in network
// (Networks lists them: mainnet, testnet, privnet, privnet4-1..4,
// unit_testnet, ...). Decoding is strict: an unknown key is an error, as
// with neo-go's KnownFields. The result is validated (ProtocolConfiguration
// and ApplicationConfiguration Validate). Errors are *Error values that
// name the file, line and YAML path, and wrap ErrUnknownField or ErrInvalid
// where they apply.
//
// # Using the values
//
// A loaded Config keeps zeros for unset settings, like neo-go's. The ledger
// and everything that needs protocol values should take a Blockchain,
// made by Config.Blockchain: it fills in the defaults exactly as neo-go's
// Blockchain constructor does (InitialGASSupply, MemPoolSize, MaxBlockSize,
// MaxBlockSystemFee, MaxTraceableBlocks, MaxTransactionsPerBlock,
// TimePerBlock, MaxValidUntilBlockIncrement, the Genesis.* values, ...),
// normalizes the Hardforks map, and precomputes Forks, the hardfork
// schedule that answers IsEnabled(hf, height) with an array read.
// P2P.WithDefaults and RPC.WithDefaults do the same for the network and RPC
// servers.
//
// # Hardforks
//
// Hardfork values are consecutive (HFDefault = 0, HFAspidochelone = 1, ...,
// HFGorgon = 7) and compare in activation order. As in neo-go 0.120.0: with
// no Hardforks section every hardfork up to HFLatestStable (Faun) is active
// from genesis and Gorgon is off; with a section, the hardforks before the
// first listed one are active from genesis and the unlisted ones after it
// are off; an empty section ("Hardforks: {}") disables all. Heights must not
// decrease and a gap may not be followed by a later hardfork.
//
// # Ownership
//
// Config values are plain data; loading never keeps the input buffer.
// EmbeddedConfig and EmbeddedWallet return fresh copies.
package config
