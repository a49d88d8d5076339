package statesync_test

import (
	"log/slog"
	"testing"

	"github.com/n3node/n3node/pkg/core/mpt"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/statesync"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// BenchmarkServeNodes answers a getmptdata request for the root of a
// 10,000-item trie (4 MiB limit: the whole trie).
func BenchmarkServeNodes(b *testing.B) {
	src, root := testTrie(b, 10000, mpt.ModeAll)
	b.ReportAllocs()
	for b.Loop() {
		statesync.ServeNodes(src, mpt.ModeAll, []hash.Uint256{root}, statesync.MaxServedBytes)
	}
}

// BenchmarkRestore fetches a 10,000-item trie through the module, 32
// hashes per request as over P2P (ModeLatest store, leaves written as
// temporary storage items).
func BenchmarkRestore(b *testing.B) {
	src, root := testTrie(b, 10000, mpt.ModeAll)
	b.ReportAllocs()
	for b.Loop() {
		l := &fakeLedger{st: storage.NewMemoryStore(), hh: 121, headers: blocks(1)}
		m := statesync.New(statesync.Config{Sync: true, Interval: 40, Mode: mpt.ModeLatest, Logger: slog.New(slog.DiscardHandler),
			Root: func(p uint32) (*coreroot.Root, error) { return &coreroot.Root{Index: p, RootHash: root}, nil }}, l)
		if err := m.Init(125); err != nil {
			b.Fatal(err)
		}
		for m.NeedMPTData() {
			if err := m.AddMPTNodes(statesync.ServeNodes(src, mpt.ModeAll, m.MissingMPTNodes(32), statesync.MaxServedBytes)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
