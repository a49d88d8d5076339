package core_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/statesync"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/stretchr/testify/require"
)

// netLedger adapts a Blockchain to the network server (headers are linked
// without verification unless verify is set; see AddHeadersForTest).
type netLedger struct {
	*core.Blockchain
	verify bool
}

func (l netLedger) AddHeaders(hs ...*block.Header) error {
	if l.verify {
		return l.Blockchain.AddHeaders(hs...)
	}
	return l.AddHeadersForTest(hs...)
}
func (l netLedger) PoolTx(tx *transaction.Transaction) error {
	return l.Blockchain.PoolTx(tx)
}
func (l netLedger) VerifyExtensible(*payload.Extensible) error { return nil }

func netConfig(seed uint64, minPeers int) network.ServerConfig {
	return network.ServerConfig{
		Magic:             testchain.Magic,
		UserAgent:         "/n3node-statesync-test/",
		Addresses:         []config.AnnounceableAddress{{Address: "127.0.0.1:0"}},
		Relay:             true,
		MinPeers:          minPeers,
		MaxPeers:          10,
		AttemptConnPeers:  3,
		DialTimeout:       2 * time.Second,
		ProtoTickInterval: 10 * time.Millisecond,
		PingInterval:      time.Hour,
		PingTimeout:       time.Hour,
		RetryBackoff:      50 * time.Millisecond,
		TimePerBlock:      time.Second,
		SyncTimeout:       500 * time.Millisecond,
		Rand:              rand.New(rand.NewPCG(seed, seed^0x5eed)),
		Logger:            quiet,
	}
}

func startServer(t *testing.T, cfg network.ServerConfig, bc *core.Blockchain, ss network.StateSync) *network.Server {
	s, err := network.NewServer(cfg, netLedger{Blockchain: bc, verify: bc.Config().TrustedHeader.Index != 0}, bc.Mempool())
	require.NoError(t, err)
	s.SetStateSync(ss)
	require.NoError(t, s.Start())
	t.Cleanup(s.Shutdown)
	return s
}

// TestStateSyncOverP2P: a node at genesis bootstraps from an archival
// peer over the P2P protocol (headers, getmptdata/mptdata, blocks of the
// traceable window), jumps to the sync point and goes on with the regular
// sync to the peer's height.
func TestStateSyncOverP2P(t *testing.T) {
	src := newSyncSource(t)
	t.Run("from genesis", func(t *testing.T) {
		stateSyncOverP2P(t, src, testchain.Config(t, testchain.Options{Protocol: ssProto, App: "  RemoveUntraceableBlocks: true\n"}))
	})
	// With a TrustedHeader at the first traceable block, header sync
	// starts there (the ledger's verifying AddHeaders).
	t.Run("trusted header", func(t *testing.T) {
		stateSyncOverP2P(t, src, trustedCfg(t, src, ssPoint-ssMTB+1))
	})
}

func stateSyncOverP2P(t *testing.T, src *syncSource, cfg config.Blockchain) {
	serving := statesync.New(statesync.Config{Mode: stateroot.ModeFor(src.cfg().Ledger), Logger: quiet}, src.g.BC)
	require.False(t, serving.IsActive())
	a := startServer(t, netConfig(1, 0), src.g.BC, serving)

	bc, err := core.New(cfg, storage.NewMemoryStore(), core.Options{Logger: quiet})
	require.NoError(t, err)
	t.Cleanup(func() { _ = bc.Close() })
	mod := newModule(src, cfg, bc)
	b := startServer(t, netConfig(2, 1), bc, mod)
	select {
	case <-b.Synced():
		t.Fatal("synced before state sync")
	default:
	}
	b.ConnectTo(a.ListenAddrs()[0])

	require.Eventually(t, func() bool { return bc.BlockHeight() == ssHeight }, 20*time.Second, 10*time.Millisecond)
	require.False(t, mod.IsActive())
	require.Equal(t, uint32(ssPoint), mod.SyncPoint())
	for i := uint32(ssPoint); i <= ssHeight; i++ {
		got, err := bc.GetStateRoot(i)
		require.NoError(t, err)
		want, err := src.root(i)
		require.NoError(t, err)
		require.Equal(t, want.RootHash, got.RootHash, "root %d", i)
	}
	require.Equal(t, src.items(t, ssHeight), seekAll(bc.StateSyncStore(), storage.STStorage))
	_, err = bc.GetBlockByIndex(ssPoint - ssMTB)
	require.Error(t, err, "blocks below the traceable window are not fetched")
	select {
	case <-b.Synced():
	case <-time.After(5 * time.Second):
		t.Fatal("not synced")
	}
	if th := cfg.TrustedHeader.Index; th != 0 {
		require.True(t, bc.GetHeaderHash(th-1).IsZero())
		require.Equal(t, src.blocks[th].Hash(), bc.GetHeaderHash(th))
	}
}
