package node

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// State sync test network: a sync point every stateSyncInterval blocks,
// stateSyncMTB traceable blocks.
const (
	stateSyncInterval = 16
	stateSyncMTB      = 20
)

// stateSyncNetwork sets the state exchange protocol settings of every
// node of the test network.
func stateSyncNetwork(cfg *config.Config) {
	p := &cfg.ProtocolConfiguration
	p.P2PStateExchangeExtensions = true
	p.StateSyncInterval = stateSyncInterval
	p.MaxTraceableBlocks = stateSyncMTB
	p.Genesis.MaxTraceableBlocks = stateSyncMTB
}

// TestStateSyncNode: four validators with P2PStateExchangeExtensions (full
// MPT) make a chain with a deployed contract and its storage. A node with
// RemoveUntraceableBlocks joins when the validators are past the second
// sync point, given the root of the point (--statesync-root): it
// fetches the headers, the state trie of the point from its peers and
// the last MaxTraceableBlocks blocks before it, jumps to the point and
// then follows the chain. Its state roots and the contract's storage
// equal the validators', and it has no block older than the traceable
// ones.
func TestStateSyncNode(t *testing.T) {
	if testing.Short() {
		t.Skip("five nodes")
	}
	t.Parallel()
	vals, _ := startFourValidators(t, 0, func(_ int, cfg *config.Config) { stateSyncNetwork(cfg) })
	s := newTxSender(t, vals[0])
	waitBlockCount(t, s.c, 2)
	committee := committeeOf(t, vals)
	user := deployContract(t, s, committee, oracleUser())
	// handle(url, userData, code, result) stores the result under "r".
	putTx := s.send(committee, chaintest.CallScript(user, "handle", "u", "d", 0, []byte("state sync")), 1_0000_0000)
	s.wait(putTx)
	putAt, err := s.c.GetTransactionHeight(context.Background(), putTx)
	if err != nil {
		t.Fatal(err)
	}
	s.run(committee, chaintest.CallScript(nativenames.GasHash, "transfer", committee.hash(), hash.Uint160{1, 2, 3}, 5_0000_0000, nil), 1_0000_0000)

	// Join when the validators are early in an interval past the second
	// point (the sync point is the last one below the peers' height).
	bc := vals[0].Chain()
	point := waitEarlyInInterval(t, bc)
	if putAt > point-stateSyncMTB {
		t.Fatalf("the storage transaction (block %d) is traceable from point %d", putAt, point)
	}
	root, err := bc.GetStateRoot(point)
	if err != nil {
		t.Fatal(err)
	}
	cfg := stateSyncJoiner(t, vals, "")
	syncer := startNodeWith(t, cfg, ServiceOptions{StateSyncRoot: &TrustedRoot{Index: point, Root: root.RootHash}})

	target := bc.BlockHeight() + 2
	waitFor(t, fmt.Sprintf("state-synced node at height %d", target), func() bool {
		return syncer.Chain().BlockHeight() >= target
	})
	sc := syncer.Chain()
	sameRoots(t, sc, bc, point, target)
	if h := sc.HeaderHeight(); h < target {
		t.Fatalf("synced node: header height %d", h)
	}
	cs := sc.GetContractState(user)
	if cs == nil {
		t.Fatal("synced node: no user contract")
	}
	if v := sc.GetStorageItem(cs.ID, []byte("r")); !bytes.Equal(v, []byte("state sync")) {
		t.Fatalf("synced node: storage r = %q", v)
	}
	// Every contract storage item of the validators at a common height.
	waitFor(t, "same height", func() bool { return sc.BlockHeight() == bc.BlockHeight() })
	// (the heights may move between the two reads; compare again then)
	var diff string
	waitFor(t, "equal contract storage", func() bool {
		h := bc.BlockHeight()
		a, b := contractStorage(bc), contractStorage(sc)
		if bc.BlockHeight() != h || sc.BlockHeight() != h {
			return false
		}
		diff = storageDiff(a, b)
		return diff == ""
	})
	if diff != "" {
		t.Fatal(diff)
	}
	// Blocks below the traceable ones were not fetched (their headers
	// were; an empty block is its header).
	if _, err := sc.GetBlockByIndex(putAt); err == nil {
		t.Fatalf("synced node: block %d is stored", putAt)
	}
	if _, _, err := sc.GetTransaction(putTx); err == nil {
		t.Fatal("synced node: an untraceable transaction is stored")
	}
	if _, err := sc.GetBlockByIndex(point); err != nil {
		t.Fatalf("synced node: block %d (the sync point): %v", point, err)
	}
	t.Logf("synced from point %d (root %s) to height %d", point, root.RootHash.StringLE(), sc.BlockHeight())
}

// stateSyncJoiner is the configuration of a node (no consensus, no RPC)
// that joins vals and syncs state: RemoveUntraceableBlocks, database in
// dir (in memory if "").
func stateSyncJoiner(t *testing.T, vals []*Node, dir string) config.Config {
	t.Helper()
	cfg, err := config.LoadNetwork("privnet4-1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.ProtocolConfiguration.MaxTimePerBlock = 0
	fastBlocks(&cfg.ProtocolConfiguration)
	stateSyncNetwork(&cfg)
	cfg.ProtocolConfiguration.SeedList = nil
	for _, v := range vals {
		cfg.ProtocolConfiguration.SeedList = append(cfg.ProtocolConfiguration.SeedList, v.P2PAddresses()...)
	}
	app := &cfg.ApplicationConfiguration
	app.P2P.Addresses = []string{"127.0.0.1:0"}
	app.P2P.MinPeers = 1
	app.RPC.Enabled = false
	app.Consensus.Enabled = false
	app.RemoveUntraceableBlocks = true
	engine := ""
	if dir == "" {
		engine = "inmemory"
	}
	if err := SetDatabase(&cfg, engine, dir); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// waitEarlyInInterval waits until the chain of bc is early in an
// interval past the second sync point and returns that point (the one a
// node joining now syncs to).
func waitEarlyInInterval(t *testing.T, bc *core.Blockchain) uint32 {
	t.Helper()
	return waitEarlyPast(t, bc, 2)
}

// waitEarlyPast is waitEarlyInInterval past the points'th sync point.
func waitEarlyPast(t *testing.T, bc *core.Blockchain, points uint32) uint32 {
	t.Helper()
	var point uint32
	waitFor(t, fmt.Sprintf("validators early in an interval past point %d", points*stateSyncInterval), func() bool {
		h := bc.BlockHeight()
		if h >= points*stateSyncInterval+1 && h%stateSyncInterval >= 1 && h%stateSyncInterval <= stateSyncInterval/2 {
			point = h / stateSyncInterval * stateSyncInterval
			return true
		}
		return false
	})
	return point
}

// contractStorage is every contract storage item of the chain's committed
// state (hex key to hex value).
func contractStorage(bc *core.Blockchain) map[string]string {
	out := make(map[string]string)
	bc.DAO().Store.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes()}, func(k, v []byte) bool {
		out[fmt.Sprintf("%x", k)] = fmt.Sprintf("%x", v)
		return true
	})
	return out
}

// storageDiff describes the differences of two storage maps ("" when
// equal), at most five.
func storageDiff(want, got map[string]string) string {
	var d []string
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			d = append(d, fmt.Sprintf("%s: %q, want %q", k, g, v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			d = append(d, fmt.Sprintf("%s: %q, not in the validators' storage", k, v))
		}
	}
	if len(d) == 0 {
		return ""
	}
	sort.Strings(d)
	return fmt.Sprintf("%d storage items differ (%d vs %d items): %s", len(d), len(want), len(got), strings.Join(d[:min(5, len(d))], "; "))
}

// TestStateSyncRootLater: a state-syncing node started without the root
// of its sync point fetches the headers, records the point and waits at
// genesis; restarted on the same database with --statesync-root of that
// point, it resumes and reaches the validators' height with their state.
func TestStateSyncRootLater(t *testing.T) {
	if testing.Short() {
		t.Skip("five nodes")
	}
	t.Parallel()
	vals, _ := startFourValidators(t, 0, func(_ int, cfg *config.Config) { stateSyncNetwork(cfg) })
	bc := vals[0].Chain()
	point := waitEarlyInInterval(t, bc)
	dir := t.TempDir()
	cfg := stateSyncJoiner(t, vals, dir)

	first := startNodeWith(t, cfg, ServiceOptions{})
	waitFor(t, "headers past the sync point", func() bool { return first.Chain().HeaderHeight() > point })
	// It asked for the root of the point (and logged what it needs).
	waitFor(t, "the root asked for", func() bool { return first.svc.warnedRoot.Load() == point })
	if p := first.svc.stateSync.SyncPoint(); p != point {
		t.Fatalf("sync point %d, want %d", p, point)
	}
	if h := first.Chain().BlockHeight(); h != 0 {
		t.Fatalf("without a root the node went on to block %d", h)
	}
	if err := first.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	root, err := bc.GetStateRoot(point)
	if err != nil {
		t.Fatal(err)
	}
	second := startNodeWith(t, cfg, ServiceOptions{StateSyncRoot: &TrustedRoot{Index: point, Root: root.RootHash}})
	target := bc.BlockHeight() + 2
	waitFor(t, fmt.Sprintf("state-synced node at height %d", target), func() bool {
		return second.Chain().BlockHeight() >= target
	})
	mine, err := second.Chain().GetStateRoot(target)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := bc.GetStateRoot(target)
	if err != nil || mine.RootHash != theirs.RootHash {
		t.Fatalf("state root %d: %s, validators %+v %v", target, mine.RootHash.StringLE(), theirs, err)
	}
	t.Logf("point %d: waited without a root, synced after the restart to height %d", point, second.Chain().BlockHeight())
}

// srNetwork is stateSyncNetwork with StateRootInHeader (and no
// StateService).
func srNetwork(cfg *config.Config) {
	stateSyncNetwork(cfg)
	cfg.ProtocolConfiguration.StateRootInHeader = true
	cfg.ApplicationConfiguration.StateRoot.Enabled = false
}

// sameRoots fails unless the synced chain has the validators' state
// roots at the heights.
func sameRoots(t *testing.T, synced, vals *core.Blockchain, heights ...uint32) {
	t.Helper()
	for _, h := range heights {
		mine, err := synced.GetStateRoot(h)
		if err != nil {
			t.Fatalf("synced node: state root %d: %v", h, err)
		}
		theirs, err := vals.GetStateRoot(h)
		if err != nil {
			t.Fatal(err)
		}
		if mine.RootHash != theirs.RootHash {
			t.Fatalf("state root %d: %s, validators %s", h, mine.RootHash.StringLE(), theirs.RootHash.StringLE())
		}
	}
}

// TestStateSyncStateRootInHeader: on a StateRootInHeader network a node
// with RemoveUntraceableBlocks state-syncs without an operator's root: it
// trusts the PrevStateRoot of the header after the sync point, as neo-go
// does.
func TestStateSyncStateRootInHeader(t *testing.T) {
	if testing.Short() {
		t.Skip("five nodes")
	}
	t.Parallel()
	vals, _ := startFourValidators(t, 0, func(_ int, cfg *config.Config) { srNetwork(cfg) })
	bc := vals[0].Chain()
	point := waitEarlyInInterval(t, bc)
	cfg := stateSyncJoiner(t, vals, "")
	srNetwork(&cfg)
	syncer := startNodeWith(t, cfg, ServiceOptions{})
	target := bc.BlockHeight() + 2
	waitFor(t, fmt.Sprintf("state-synced node at height %d", target), func() bool {
		return syncer.Chain().BlockHeight() >= target
	})
	sc := syncer.Chain()
	sameRoots(t, sc, bc, point, target)
	// Block 1 was not executed (a header-only record has no execution
	// results): the node jumped to the point.
	if res, err := sc.GetAppExecResults(sc.GetHeaderHash(1), trigger.OnPersist); err == nil && len(res) > 0 {
		t.Fatal("the synced node executed block 1: it did not jump")
	}
	t.Logf("synced from point %d (root from header %d) to height %d", point, point+1, sc.BlockHeight())
}

// TestStateSyncTrustedHeader: on a StateRootInHeader network a fresh
// light node configured with ApplicationConfiguration.TrustedHeader at the
// first traceable block of the sync point syncs headers from it (none
// below), takes the root of the point from header P+1 and state-syncs
// without an operator's root, as a neo-go light node with TrustedHeader.
func TestStateSyncTrustedHeader(t *testing.T) {
	if testing.Short() {
		t.Skip("five nodes")
	}
	t.Parallel()
	vals, _ := startFourValidators(t, 0, func(_ int, cfg *config.Config) { srNetwork(cfg) })
	bc := vals[0].Chain()
	// The trusted header must be above 2·interval and MaxTraceableBlocks
	// and at or below the first traceable block of the point: P ≥ 64.
	point := waitEarlyPast(t, bc, 4)
	trusted := point - stateSyncMTB + 1
	cfg := stateSyncJoiner(t, vals, "")
	srNetwork(&cfg)
	cfg.ApplicationConfiguration.TrustedHeader = config.HashIndex{Index: trusted, Hash: bc.GetHeaderHash(trusted)}
	syncer := startNodeWith(t, cfg, ServiceOptions{})
	sc := syncer.Chain()
	target := bc.BlockHeight() + 2
	waitFor(t, fmt.Sprintf("state-synced node at height %d", target), func() bool {
		return sc.BlockHeight() >= target
	})
	sameRoots(t, sc, bc, point, target)
	if !sc.GetHeaderHash(trusted - 1).IsZero() {
		t.Fatalf("the node has header %d, below its trusted header %d", trusted-1, trusted)
	}
	if sc.GetHeaderHash(trusted) != bc.GetHeaderHash(trusted) {
		t.Fatalf("header %d differs", trusted)
	}
	// The root source: header P+1's PrevStateRoot without an operator's
	// root; the operator's root of the point overrides it.
	next, err := sc.GetHeaderByIndex(point + 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := syncer.trustedRoot(point)
	if err != nil || r.RootHash != next.PrevStateRoot {
		t.Fatalf("root of %d from header %d: %v %v", point, point+1, r, err)
	}
	syncer.svc.opts.StateSyncRoot = &TrustedRoot{Index: point, Root: hash.Uint256{7}}
	if r, err := syncer.trustedRoot(point); err != nil || r.RootHash != (hash.Uint256{7}) {
		t.Fatalf("operator's root of %d: %v %v", point, r, err)
	}
	t.Logf("synced from trusted header %d, point %d to height %d", trusted, point, sc.BlockHeight())
}
