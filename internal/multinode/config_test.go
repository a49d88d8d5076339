package multinode

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/stretchr/testify/require"
)

// TestConfig writes a mixed network and reads every node's configuration
// back with pkg/config (strict, as n3node reads it).
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	nw, err := New(Options{
		Dir: dir,
		Nodes: []NodeSpec{
			{Kind: N3Node, Validator: 1}, {Kind: N3Node, Validator: 2},
			{Kind: NeoGo, Validator: 3}, {Kind: NeoGo, Validator: 4},
			{Kind: N3Node}, {Kind: NeoGo, DB: "boltdb", LogLevel: "debug"},
		},
		Protocol: Protocol{TimePerBlock: 5 * time.Second, MaxTransactionsPerBlock: 65535, MaxBlockSize: 16777216,
			MaxBlockSystemFee: 1600000000000, Hardforks: AllHardforks[:6], MinPeers: 3},
		N3Node: "/bin/n3node", NeoGo: "/bin/neogo",
	})
	require.NoError(t, err)
	require.Len(t, nw.Nodes, 6)
	var p2p []string
	for _, n := range nw.Nodes {
		p2p = append(p2p, n.P2PAddr())
	}
	for i, n := range nw.Nodes {
		cfg, err := config.Load(n.ConfigPath())
		require.NoError(t, err, n.Name)
		p := cfg.ProtocolConfiguration
		a := cfg.ApplicationConfiguration
		require.EqualValues(t, Magic, p.Magic)
		require.Equal(t, 5*time.Second, p.TimePerBlock)
		require.EqualValues(t, 65535, p.MaxTransactionsPerBlock)
		require.EqualValues(t, 16777216, p.MaxBlockSize)
		require.EqualValues(t, 1600000000000, p.MaxBlockSystemFee)
		require.Len(t, p.Hardforks, 6)
		require.NotContains(t, p.Hardforks, "Gorgon")
		require.EqualValues(t, 4, p.ValidatorsCount)
		require.Len(t, p.StandbyCommittee, 4)
		others := slices.Delete(slices.Clone(p2p), i, i+1)
		require.Equal(t, others, p.SeedList, n.Name)
		require.Equal(t, []string{n.P2PAddr()}, a.P2P.Addresses)
		require.Equal(t, []string{strings.TrimPrefix(n.RPCURL(), "http://")}, a.RPC.Addresses)
		require.True(t, a.RPC.Enabled)
		require.Equal(t, 3, a.P2P.MinPeers)
		require.Equal(t, n.Spec.Validator > 0, a.Consensus.Enabled, n.Name)
		if v := n.Spec.Validator; v > 0 {
			require.Equal(t, walletPasswords[v-1], a.Consensus.UnlockWallet.Password)
			w, err := os.ReadFile(a.Consensus.UnlockWallet.Path)
			require.NoError(t, err)
			require.Contains(t, string(w), `"accounts"`)
		}
		db := a.DBConfiguration
		switch {
		case n.Spec.DB == "boltdb":
			require.Equal(t, "boltdb", db.Type)
			require.Equal(t, n.DataPath(), db.BoltDBOptions.FilePath)
		case n.Spec.Kind == NeoGo:
			require.Equal(t, "leveldb", db.Type)
			require.Equal(t, n.DataPath(), db.LevelDBOptions.DataDirectoryPath)
		default:
			require.Equal(t, "pebble", db.Type)
			require.Equal(t, n.DataPath(), db.PebbleDBOptions.DataDirectoryPath)
		}
		require.Equal(t, filepath.Join(dir, n.Name), n.Dir)
	}
	require.Equal(t, "n3node-v1", nw.Nodes[0].Name)
	require.Equal(t, "neo-go-v4", nw.Nodes[3].Name)
	require.Equal(t, "n3node-4", nw.Nodes[4].Name)
	require.Equal(t, []string{"run", "--config", nw.Nodes[0].ConfigPath(), "--relative-path", nw.Nodes[0].Dir}, nw.Nodes[0].args())
	require.Equal(t, "node", nw.Nodes[2].args()[0])

	_, err = New(Options{Dir: dir, Nodes: []NodeSpec{{Kind: N3Node, Validator: 1}, {Kind: N3Node, Validator: 1}}, N3Node: "x"})
	require.ErrorIs(t, err, ErrOptions)
	_, err = New(Options{Dir: dir, Nodes: []NodeSpec{{Kind: NeoGo}}})
	require.ErrorIs(t, err, ErrOptions)
}

// TestDefaults: every hardfork, 1 s blocks, MinPeers min(2, n-1).
func TestDefaults(t *testing.T) {
	nw, err := New(Options{Dir: t.TempDir(), Nodes: ValidatorSpecs(N3Node, N3Node), N3Node: "x"})
	require.NoError(t, err)
	cfg, err := config.Load(nw.Nodes[0].ConfigPath())
	require.NoError(t, err)
	require.Len(t, cfg.ProtocolConfiguration.Hardforks, len(AllHardforks))
	require.Equal(t, time.Second, cfg.ProtocolConfiguration.TimePerBlock)
	require.Zero(t, cfg.ProtocolConfiguration.MaxTimePerBlock)
	require.Equal(t, 1, cfg.ApplicationConfiguration.P2P.MinPeers)
}

// TestValidatorOrder pins the consensus order of the committee's keys.
func TestValidatorOrder(t *testing.T) {
	require.Equal(t, [Validators]int{2, 4, 1, 3}, consensusOrder)
	for i := range Validators {
		require.Equal(t, i, ConsensusIndex(ValidatorAt(i)))
	}
	require.Equal(t, 2, PrimaryAt(0))
	require.Equal(t, 1, PrimaryAt(6))
	require.Zero(t, ValidatorAt(4))
	require.Equal(t, -1, ConsensusIndex(5))
}

// TestCommittee: the committee signs transfers the default fee policy
// accepts, each with a new nonce.
func TestCommittee(t *testing.T) {
	c, err := NewCommittee()
	require.NoError(t, err)
	require.Equal(t, "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq", address.FromUint160(c.Account)) // neo-go's 4-node privnet multisig
	a := c.GASTransfer(10, c.Account, 1)
	b := c.GASTransfer(10, c.Account, 1)
	require.NotEqual(t, a.Hash(), b.Hash())
	require.EqualValues(t, 10+validFor, a.ValidUntilBlock)
	require.Len(t, a.Witnesses, 1)
	require.Greater(t, a.NetworkFee, int64(0))
}

// TestReconfigureTrustedHeader: a stopped light node's configuration is
// rewritten with a TrustedHeader, which pkg/config reads back.
func TestReconfigureTrustedHeader(t *testing.T) {
	nw, err := New(Options{
		Dir:      t.TempDir(),
		Nodes:    []NodeSpec{{Kind: N3Node, Validator: 1}, {Kind: N3Node, Light: true}},
		Protocol: Protocol{StateRootInHeader: true, StateSyncInterval: 16},
		N3Node:   "/bin/n3node",
	})
	require.NoError(t, err)
	n := nw.Nodes[1]
	spec := n.Spec
	spec.TrustedHeader = config.HashIndex{Index: 45, Hash: hash.Uint256{1, 2, 3}}
	require.NoError(t, n.Reconfigure(spec))
	cfg, err := config.Load(n.ConfigPath())
	require.NoError(t, err)
	require.Equal(t, spec.TrustedHeader, cfg.ApplicationConfiguration.TrustedHeader)
	require.True(t, cfg.ApplicationConfiguration.RemoveUntraceableBlocks)
	require.Equal(t, nw.Nodes[0].P2PAddr(), cfg.ProtocolConfiguration.SeedList[0])
	_, err = config.NewBlockchainConfig(cfg.ProtocolConfiguration, cfg.ApplicationConfiguration)
	require.NoError(t, err)
	require.NoError(t, cfg.CheckSupported())
}
