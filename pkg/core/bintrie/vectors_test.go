package bintrie_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/bintrie"
	"github.com/n3node/n3node/pkg/core/storage"
)

// hexBytes decodes a 0x-prefixed hex JSON string.
type hexBytes []byte

func (h *hexBytes) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	s = strings.TrimPrefix(s, "0x")
	if len(s)%2 == 1 {
		s = "0" + s
	}
	d, err := hex.DecodeString(s)
	*h = d
	return err
}

type vecOp struct {
	Op    string    `json:"op"`
	Key   hexBytes  `json:"key"`
	Value *hexBytes `json:"value"`
	Root  hexBytes  `json:"root"`
}

type vecGen struct {
	Kind        string   `json:"kind"`
	Seed        hexBytes `json:"seed"`
	N           int      `json:"n"`
	Updates     int      `json:"updates"`
	Deletes     int      `json:"deletes"`
	CommitEvery int      `json:"commit_every"`
	PrefixBits  int      `json:"prefix_bits"`
	Base        hexBytes `json:"base"`
	PerStem     int      `json:"per_stem"`
}

type vecTreeCase struct {
	Name      string  `json:"name"`
	Ops       []vecOp `json:"ops"`
	Generator *vecGen `json:"generator"`
	Samples   []struct {
		OpIndex int      `json:"op_index"`
		Op      string   `json:"op"`
		Key     hexBytes `json:"key"`
		Value   hexBytes `json:"value"`
	} `json:"samples"`
	Checkpoints []struct {
		AfterOps int      `json:"after_ops"`
		Root     hexBytes `json:"root"`
	} `json:"checkpoints"`
	ExpectedRoot hexBytes `json:"expected_root"`
}

type vecWrite struct {
	Key   hexBytes `json:"key"`
	Value hexBytes `json:"value"`
}

type vecFile struct {
	Format    string        `json:"format"`
	TreeCases []vecTreeCase `json:"tree_cases"`
	KeyCases  []struct {
		Kind      string   `json:"kind"`
		Address   hexBytes `json:"address"`
		Slot      hexBytes `json:"slot"`
		ChunkID   uint64   `json:"chunk_id"`
		TreeIndex hexBytes `json:"tree_index"`
		SubIndex  int      `json:"sub_index"`
		Key       hexBytes `json:"key"`
	} `json:"key_cases"`
	ChunkifyCases []struct {
		Name   string     `json:"name"`
		Code   hexBytes   `json:"code"`
		Chunks []hexBytes `json:"chunks"`
	} `json:"chunkify_cases"`
	StateCases []struct {
		Name         string   `json:"name"`
		ExpectedRoot hexBytes `json:"expected_root"`
		Ops          []struct {
			Op        string     `json:"op"`
			Address   hexBytes   `json:"address"`
			Nonce     uint64     `json:"nonce"`
			Balance   string     `json:"balance"`
			CodeHash  hexBytes   `json:"code_hash"`
			CodeLen   uint32     `json:"code_len"`
			Slot      hexBytes   `json:"slot"`
			Value     hexBytes   `json:"value"`
			Code      hexBytes   `json:"code"`
			Writes    []vecWrite `json:"writes"`
			RootAfter hexBytes   `json:"root_after"`
		} `json:"ops"`
	} `json:"state_cases"`
}

func loadVectors(t testing.TB) *vecFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vecFile
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if v.Format != "bintrie-vectors/v1" {
		t.Fatalf("unexpected format %q", v.Format)
	}
	return &v
}

// harness drives a tree and commits into a MemoryStore, reopening from it.
type harness struct {
	t     testing.TB
	tree  *bintrie.Tree
	store *storage.MemoryStore
}

func newHarness(t testing.TB) *harness {
	return &harness{t: t, tree: bintrie.New(bintrie.Options{}), store: storage.NewMemoryStore()}
}

func (h *harness) put(k, v []byte) {
	h.t.Helper()
	if err := h.tree.Put(bintrie.Key(k), bintrie.Value(v)); err != nil {
		h.t.Fatal(err)
	}
}

// commit flushes, reopens from the store and checks the root did not move.
func (h *harness) commit() {
	h.t.Helper()
	before := h.tree.Hash()
	root, changes := h.tree.Commit()
	if root != before {
		h.t.Fatalf("commit changed the root: %x -> %x", before, root)
	}
	if err := h.store.PutChangeSet(changes); err != nil {
		h.t.Fatal(err)
	}
	tr, err := bintrie.Open(h.store, root, bintrie.Options{})
	if err != nil {
		h.t.Fatalf("reopen: %v", err)
	}
	h.tree = tr
	if got := tr.Hash(); got != root {
		h.t.Fatalf("reopened root %x, want %x", got, root)
	}
}

func (h *harness) checkRoot(want []byte, what string) {
	h.t.Helper()
	if got := h.tree.Hash(); !bytes.Equal(got[:], want) {
		h.t.Fatalf("%s: root %x, want %x", what, got, want)
	}
}

// runOps applies explicit ops; reopenEvery > 0 adds a commit+reopen after
// every reopenEvery-th op.
func runOps(t *testing.T, ops []vecOp, expected []byte, reopenEvery int) {
	h := newHarness(t)
	for i, op := range ops {
		switch op.Op {
		case "put":
			h.put(op.Key, *op.Value)
		case "delete":
			if err := h.tree.Delete(bintrie.Key(op.Key)); err != nil {
				t.Fatal(err)
			}
		case "get":
			v, ok, err := h.tree.Get(bintrie.Key(op.Key))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case op.Value == nil && ok:
				t.Fatalf("op %d: get %x = %x, want absent", i, op.Key, v)
			case op.Value != nil && (!ok || !bytes.Equal(v[:], *op.Value)):
				t.Fatalf("op %d: get %x = %x (present %v), want %x", i, op.Key, v, ok, *op.Value)
			}
		case "check_root":
			h.checkRoot(op.Root, fmt.Sprintf("op %d check_root", i))
		case "commit":
			h.commit()
		default:
			t.Fatalf("unknown op %q", op.Op)
		}
		if reopenEvery > 0 && (i+1)%reopenEvery == 0 {
			h.commit()
		}
	}
	h.checkRoot(expected, "final")
}

func genR(seed []byte, tag byte, i uint64) [32]byte {
	buf := make([]byte, 0, len(seed)+9)
	buf = append(buf, seed...)
	buf = append(buf, tag)
	buf = binary.BigEndian.AppendUint64(buf, i)
	return sha256.Sum256(buf)
}

func genIdx(seed []byte, tag byte, j uint64, n int) int {
	r := genR(seed, tag, j)
	return int(binary.BigEndian.Uint64(r[:8]) % uint64(n))
}

func genKey(g *vecGen, i int) [32]byte {
	switch g.Kind {
	case "random":
		return genR(g.Seed, 'k', uint64(i))
	case "shared_prefix":
		r := genR(g.Seed, 'k', uint64(i))
		var k [32]byte
		for b := range 32 {
			var m byte
			switch {
			case (b+1)*8 <= g.PrefixBits:
				m = 0xff
			case b*8 < g.PrefixBits:
				m = byte(0xff << (8 - (g.PrefixBits - b*8)))
			}
			k[b] = g.Base[b]&m | r[b]&^m
		}
		return k
	case "dense_stems":
		s := genR(g.Seed, 's', uint64(i/g.PerStem))
		s[31] = byte(i % g.PerStem)
		return s
	}
	panic("unknown generator kind " + g.Kind)
}

type genOp struct {
	del      bool
	key, val [32]byte
}

func expand(g *vecGen) []genOp {
	ops := make([]genOp, 0, g.N+g.Updates+g.Deletes)
	for i := range g.N {
		ops = append(ops, genOp{key: genKey(g, i), val: genR(g.Seed, 'v', uint64(i))})
	}
	for j := range g.Updates {
		ops = append(ops, genOp{key: genKey(g, genIdx(g.Seed, 'u', uint64(j), g.N)), val: genR(g.Seed, 'w', uint64(j))})
	}
	for j := range g.Deletes {
		ops = append(ops, genOp{del: true, key: genKey(g, genIdx(g.Seed, 'd', uint64(j), g.N))})
	}
	return ops
}

func runGenerated(t *testing.T, c *vecTreeCase, extraCommitEvery int) {
	g := c.Generator
	ops := expand(g)
	for _, s := range c.Samples {
		o := ops[s.OpIndex]
		if !bytes.Equal(o.key[:], s.Key) || (s.Op == "delete") != o.del || (!o.del && !bytes.Equal(o.val[:], s.Value)) {
			t.Fatalf("generator sample %d mismatch", s.OpIndex)
		}
	}
	h := newHarness(t)
	cp := 0
	for i, o := range ops {
		if o.del {
			if err := h.tree.Delete(o.key); err != nil {
				t.Fatal(err)
			}
		} else {
			h.put(o.key[:], o.val[:])
		}
		n := i + 1
		if g.CommitEvery > 0 && n%g.CommitEvery == 0 {
			h.commit()
		}
		if extraCommitEvery > 0 && n%extraCommitEvery == 0 {
			h.commit()
		}
		for cp < len(c.Checkpoints) && c.Checkpoints[cp].AfterOps == n {
			h.checkRoot(c.Checkpoints[cp].Root, fmt.Sprintf("checkpoint after %d ops", n))
			cp++
		}
	}
	if cp != len(c.Checkpoints) {
		t.Fatalf("%d of %d checkpoints reached", cp, len(c.Checkpoints))
	}
	h.checkRoot(c.ExpectedRoot, "final")
	// Every written key reads back its last value, also after a reopen.
	h.commit()
	last := make(map[[32]byte][32]byte, len(ops))
	for _, o := range ops {
		last[o.key] = o.val
		if o.del {
			last[o.key] = [32]byte{}
		}
	}
	checked := 0
	for k, want := range last {
		if checked >= 2000 {
			break
		}
		got, ok, err := h.tree.Get(k)
		if err != nil || !ok || got != want {
			t.Fatalf("get %x = %x %v %v, want %x", k, got, ok, err, want)
		}
		checked++
	}
}

func TestVectorsTree(t *testing.T) {
	v := loadVectors(t)
	ran := 0
	for i := range v.TreeCases {
		c := &v.TreeCases[i]
		t.Run(c.Name, func(t *testing.T) {
			if c.Generator != nil {
				runGenerated(t, c, 0)
				if c.Generator.N <= 20000 {
					t.Run("commit_every_977", func(t *testing.T) { runGenerated(t, c, 977) })
				}
			} else {
				runOps(t, c.Ops, c.ExpectedRoot, 0)
				if len(c.Ops) > 0 && len(c.Ops) <= 300 {
					t.Run("reopen_every_op", func(t *testing.T) { runOps(t, c.Ops, c.ExpectedRoot, 1) })
				}
				if len(c.Ops) > 300 {
					t.Run("reopen_every_37", func(t *testing.T) { runOps(t, c.Ops, c.ExpectedRoot, 37) })
				}
			}
		})
		ran++
	}
	if ran != 55 {
		t.Fatalf("ran %d tree cases, want 55", ran)
	}
}

func TestVectorsKeys(t *testing.T) {
	v := loadVectors(t)
	if len(v.KeyCases) == 0 {
		t.Fatal("no key cases")
	}
	for i, c := range v.KeyCases {
		addr := bintrie.Address(c.Address)
		var got bintrie.Key
		switch c.Kind {
		case "basic_data":
			got = bintrie.BasicDataKey(addr)
		case "code_hash":
			got = bintrie.CodeHashKey(addr)
		case "storage_slot":
			got = bintrie.StorageSlotKey(addr, (*[32]byte)(c.Slot))
		case "code_chunk":
			got = bintrie.CodeChunkKey(addr, c.ChunkID)
		default:
			t.Fatalf("case %d: unknown kind %q", i, c.Kind)
		}
		// The generic form agrees too.
		var ti [32]byte
		copy(ti[32-len(c.TreeIndex):], c.TreeIndex)
		if gen := bintrie.TreeKey(addr, &ti, byte(c.SubIndex)); gen != got {
			t.Errorf("case %d (%s): TreeKey %x, specific %x", i, c.Kind, gen, got)
		}
		if !bytes.Equal(got[:], c.Key) {
			t.Errorf("case %d (%s %x): key %x, want %x", i, c.Kind, c.Address, got, c.Key)
		}
	}
	t.Logf("%d key cases", len(v.KeyCases))
}

func TestVectorsChunkify(t *testing.T) {
	v := loadVectors(t)
	if len(v.ChunkifyCases) == 0 {
		t.Fatal("no chunkify cases")
	}
	for _, c := range v.ChunkifyCases {
		got := bintrie.ChunkifyCode(c.Code)
		if len(got) != len(c.Chunks) {
			t.Errorf("%s: %d chunks, want %d", c.Name, len(got), len(c.Chunks))
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i][:], c.Chunks[i]) {
				t.Errorf("%s: chunk %d = %x, want %x", c.Name, i, got[i], c.Chunks[i])
			}
		}
	}
}

func TestVectorsState(t *testing.T) {
	v := loadVectors(t)
	if len(v.StateCases) == 0 {
		t.Fatal("no state cases")
	}
	for _, c := range v.StateCases {
		t.Run(c.Name, func(t *testing.T) {
			h := newHarness(t)
			for i, op := range c.Ops {
				addr := bintrie.Address(op.Address)
				var writes []vecWrite
				w := func(k bintrie.Key, v bintrie.Value) {
					writes = append(writes, vecWrite{Key: k[:], Value: v[:]})
				}
				switch op.Op {
				case "update_account":
					bal, ok := new(big.Int).SetString(op.Balance, 10)
					if !ok {
						t.Fatalf("bad balance %q", op.Balance)
					}
					bd := bintrie.BasicData{CodeSize: op.CodeLen, Nonce: op.Nonce}
					bal.FillBytes(bd.Balance[:])
					w(bintrie.BasicDataKey(addr), bd.Encode())
					w(bintrie.CodeHashKey(addr), bintrie.Value(op.CodeHash))
				case "update_storage", "delete_storage":
					var val bintrie.Value
					copy(val[32-len(op.Value):], op.Value)
					w(bintrie.StorageSlotKey(addr, (*[32]byte)(op.Slot)), val)
				case "update_code":
					for j, ch := range bintrie.ChunkifyCode(op.Code) {
						w(bintrie.CodeChunkKey(addr, uint64(j)), ch)
					}
				case "delete_account":
					w(bintrie.BasicDataKey(addr), bintrie.Value{})
					w(bintrie.CodeHashKey(addr), bintrie.Value{})
				default:
					t.Fatalf("unknown op %q", op.Op)
				}
				if len(writes) != len(op.Writes) {
					t.Fatalf("op %d %s: %d writes, want %d", i, op.Op, len(writes), len(op.Writes))
				}
				for j := range writes {
					if !bytes.Equal(writes[j].Key, op.Writes[j].Key) || !bytes.Equal(writes[j].Value, op.Writes[j].Value) {
						t.Fatalf("op %d %s write %d: %x=%x, want %x=%x", i, op.Op, j,
							writes[j].Key, writes[j].Value, op.Writes[j].Key, op.Writes[j].Value)
					}
					h.put(writes[j].Key, writes[j].Value)
				}
				h.checkRoot(op.RootAfter, fmt.Sprintf("after op %d %s", i, op.Op))
			}
			h.checkRoot(c.ExpectedRoot, "final")
		})
	}
}
