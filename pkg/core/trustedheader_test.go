package core_test

import (
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/statesync"
	"github.com/n3node/n3node/pkg/core/storage"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/stretchr/testify/require"
)

// trustedCfg is a light node's configuration starting header sync from
// the source's header at index (set on the struct: pkg/config accepts
// TrustedHeader only with P2PStateExchangeExtensions, which the direct
// link of these tests does not need).
func trustedCfg(t *testing.T, src *syncSource, index uint32) config.Blockchain {
	cfg := testchain.Config(t, testchain.Options{Protocol: ssProto, App: "  RemoveUntraceableBlocks: true\n"})
	cfg.TrustedHeader = config.HashIndex{Index: index, Hash: src.blocks[index].Hash()}
	return cfg
}

// TestStateSyncTrustedHeader: a light node with TrustedHeader at the
// first traceable block of the sync point (61) reports header height 60
// and no headers below it, refuses another header at 61, takes the
// trusted one unverified and verifies the rest from it, survives a
// restart in the header stage, state-syncs and follows the chain as a
// node that synced its headers from genesis.
func TestStateSyncTrustedHeader(t *testing.T) {
	src := newSyncSource(t)
	const trusted = ssPoint - ssMTB + 1
	cfg := trustedCfg(t, src, trusted)
	st := storage.NewMemoryStore()
	y := newSyncer(t, src, cfg, noClose{st})
	y.verify = true
	require.Equal(t, uint32(trusted-1), y.bc.HeaderHeight())
	require.Zero(t, y.bc.BlockHeight())
	for _, i := range []uint32{1, trusted - 1, trusted} {
		require.True(t, y.bc.GetHeaderHash(i).IsZero(), "header %d", i)
	}
	// Headers below it are skipped; another header at its index is refused.
	require.NoError(t, y.bc.AddHeaders(&src.blocks[5].Header))
	forged := src.blocks[trusted].Header
	forged.Nonce++
	raw, err := nio.ToBytes(&forged)
	require.NoError(t, err)
	forged = block.Header{}
	require.NoError(t, nio.FromBytes(raw, &forged))
	require.ErrorIs(t, y.bc.AddHeaders(&forged), core.ErrTrustedHeader)
	require.Equal(t, uint32(trusted-1), y.bc.HeaderHeight())
	// A block below it does not go in.
	require.Error(t, y.bc.AddBlock(src.blocks[1]))
	require.Equal(t, uint32(trusted-1), y.bc.HeaderHeight())

	// The header stage, then a restart.
	require.NoError(t, y.run(func() bool { return y.bc.HeaderHeight() > ssPoint }))
	require.Greater(t, y.bc.HeaderHeight(), uint32(ssPoint))
	require.NoError(t, y.bc.Close())
	bc, err := core.New(cfg, noClose{st}, core.Options{Logger: quiet})
	require.NoError(t, err)
	y = &syncer{t: t, src: src, cfg: cfg, bc: bc, mod: newModule(src, cfg, bc), verify: true}
	require.Equal(t, src.blocks[trusted].Hash(), y.bc.GetHeaderHash(trusted))
	require.True(t, y.bc.GetHeaderHash(trusted-1).IsZero())

	require.NoError(t, y.run(nil))
	require.False(t, y.mod.IsActive())
	y.check()
	require.NoError(t, y.bc.Close())
	bc, err = core.New(cfg, st, core.Options{Logger: quiet})
	require.NoError(t, err)
	defer bc.Close()
	require.Equal(t, uint32(ssHeight), bc.BlockHeight())
	require.Equal(t, uint32(ssHeight), bc.HeaderHeight())
	require.True(t, bc.GetHeaderHash(trusted-1).IsZero())
	_, err = bc.GetHeaderByIndex(trusted - 1)
	require.Error(t, err)
	h, err := bc.GetHeaderByIndex(trusted)
	require.NoError(t, err)
	require.Equal(t, src.blocks[trusted].Hash(), h.Hash())
}

// TestStateSyncTrustedHeaderTooHigh: a trusted header above the first
// traceable block of the sync point leaves the node without that block's
// header; the block stage does not start.
func TestStateSyncTrustedHeaderTooHigh(t *testing.T) {
	src := newSyncSource(t)
	cfg := trustedCfg(t, src, ssPoint-ssMTB+2)
	y := newSyncer(t, src, cfg, storage.NewMemoryStore())
	defer y.bc.Close()
	y.verify = true
	require.ErrorIs(t, y.run(nil), statesync.ErrNoHeaders)
}

// TestTrustedHeaderChecks: with state exchange, the trusted header of a
// fresh chain must be above twice the sync interval and
// MaxTraceableBlocks (neo-go's condition and text); a chain with blocks
// whose headers are below it cannot start from it.
func TestTrustedHeaderChecks(t *testing.T) {
	src := newSyncSource(t)
	cfg := trustedCfg(t, src, 80)
	cfg.P2PStateExchangeExtensions = true
	cfg.StateSyncInterval = ssInterval
	_, err := core.New(cfg, storage.NewMemoryStore(), core.Options{Logger: quiet})
	require.EqualError(t, err, "trusted header is too low to start state synchronization: need at least 80, got 80")
	cfg.TrustedHeader = config.HashIndex{Index: 81, Hash: src.blocks[81].Hash()}
	bc, err := core.New(cfg, storage.NewMemoryStore(), core.Options{Logger: quiet})
	require.NoError(t, err)
	require.Equal(t, uint32(80), bc.HeaderHeight())
	require.NoError(t, bc.Close())

	// A chain with blocks 1..5 reopened with a trusted header above them.
	plain := testchain.Config(t, testchain.Options{Protocol: ssProto, App: "  RemoveUntraceableBlocks: true\n"})
	st := storage.NewMemoryStore()
	bc, err = core.New(plain, noClose{st}, core.Options{Logger: quiet})
	require.NoError(t, err)
	for i := 1; i <= 5; i++ {
		require.NoError(t, bc.AddBlock(src.blocks[i]))
	}
	require.NoError(t, bc.Close())
	plain.TrustedHeader = config.HashIndex{Index: 61, Hash: src.blocks[61].Hash()}
	_, err = core.New(plain, noClose{st}, core.Options{Logger: quiet})
	require.ErrorContains(t, err, "trusted header 61 is above the header height 5")
	// At or below the header height it changes nothing.
	plain.TrustedHeader = config.HashIndex{Index: 5, Hash: src.blocks[5].Hash()}
	bc, err = core.New(plain, st, core.Options{Logger: quiet})
	require.NoError(t, err)
	require.Equal(t, uint32(5), bc.HeaderHeight())
	require.NoError(t, bc.Close())
}
