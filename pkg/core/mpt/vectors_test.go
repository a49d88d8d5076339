package mpt

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

type vecStep struct {
	Op            string  `json:"op"`
	Key           string  `json:"key"`
	Value         string  `json:"value"`
	RootAfter     *string `json:"root_after"`
	DistinctNodes int     `json:"distinct_nodes_after"`
	Result        any     `json:"result"`
}

type vecFile struct {
	Format struct {
		NodeTypes map[string]int `json:"node_types"`
		Limits    struct {
			MaxKeyLengthNibbles int `json:"MaxKeyLength_nibbles"`
			MaxValueLength      int `json:"MaxValueLength_bytes"`
		} `json:"limits"`
	} `json:"format"`
	LiteralRoots []struct {
		Value string `json:"value"`
	} `json:"literal_root_hashes"`
	NodeSerialization []map[string]any `json:"node_serialization"`
	Fixture           struct {
		Nodes map[string]struct {
			Raw  string `json:"raw_hex"`
			Hash string `json:"hash"`
		} `json:"nodes"`
		RootHash       string      `json:"root_hash"`
		PutSequence    [][2]string `json:"equivalent_put_sequence"`
		PutThen        []vecStep   `json:"put_sequence_then"`
		GetExpectation []struct {
			Key    string `json:"key"`
			Result string `json:"result"`
		} `json:"get_expectations"`
		DeleteSequence struct {
			Steps []struct {
				Key    string `json:"key"`
				Result any    `json:"result"`
			} `json:"steps"`
			RootAfter string `json:"root_after"`
		} `json:"delete_sequence"`
		Proofs map[string]struct {
			Value string   `json:"value_hex"`
			Count int      `json:"proof_node_count"`
			Nodes []string `json:"proof_nodes_root_first"`
		} `json:"proofs"`
	} `json:"fixture"`
	NeoGoRootHash struct {
		R1 string `json:"r1_hash"`
		R  string `json:"r_hash"`
	} `json:"neo_go_root_hash"`
	Sequences []struct {
		Name       string    `json:"name"`
		Steps      []vecStep `json:"steps"`
		OtherOrder []vecStep `json:"steps_other_order"`
		ProofAbcd  []string  `json:"proof_abcd_nodes_root_first"`
		Proof01    []string  `json:"proof_01_nodes_root_first"`
	} `json:"sequences"`
	Malicious struct {
		RootHash string `json:"root_hash"`
	} `json:"malicious_proof"`
}

func loadVectors(t *testing.T) *vecFile {
	t.Helper()
	data, err := os.ReadFile("testdata/mpt.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vecFile
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

// vectorCases counts the vector checks that ran; TestVectors fails if a
// section ran none.
type vectorCases map[string]int

func TestVectors(t *testing.T) {
	v := loadVectors(t)
	ran := vectorCases{}
	t.Run("format", func(t *testing.T) { testFormat(t, v, ran) })
	t.Run("node_serialization", func(t *testing.T) { testNodeSerialization(t, v, ran) })
	t.Run("fixture", func(t *testing.T) { testFixture(t, v, ran) })
	t.Run("neo_go_root_hash", func(t *testing.T) { testNeoGoRootHash(t, v, ran) })
	t.Run("sequences", func(t *testing.T) { testSequences(t, v, ran) })
	t.Run("malicious_proof", func(t *testing.T) { testMaliciousProof(t, v, ran) })
	t.Run("literal_roots", func(t *testing.T) { testLiteralRoots(t, v, ran) })
	for _, sec := range []string{"format", "node_serialization", "fixture", "fixture_get", "fixture_proof",
		"fixture_delete", "neo_go_root_hash", "sequence_step", "sequence", "malicious_proof", "literal_roots"} {
		if ran[sec] == 0 {
			t.Errorf("no vector ran in section %s", sec)
		}
	}
	t.Logf("vector checks run: %v", map[string]int(ran))
}

func testFormat(t *testing.T, v *vecFile, ran vectorCases) {
	types := map[string]NodeType{"Branch": BranchT, "Extension": ExtensionT, "Leaf": LeafT, "Hash": HashT, "Empty": EmptyT}
	for name, want := range v.Format.NodeTypes {
		if int(types[name]) != want {
			t.Errorf("node type %s = %d, want %d", name, types[name], want)
		}
		ran["format"]++
	}
	if MaxPathLength != v.Format.Limits.MaxKeyLengthNibbles || MaxValueLength != v.Format.Limits.MaxValueLength {
		t.Errorf("limits %d/%d, want %d/%d", MaxPathLength, MaxValueLength,
			v.Format.Limits.MaxKeyLengthNibbles, v.Format.Limits.MaxValueLength)
	}
	ran["format"]++
}

// withRef is a node's C# storage form: the encoding and a reference count
// of 1 (var-int).
func withRef(b []byte) []byte { return append(bytes.Clone(b), 1) }

func asChild(n *Node) []byte {
	return appendChild(nil, n)
}

func testNodeSerialization(t *testing.T, v *vecFile, ran vectorCases) {
	leaf := NewLeafNode([]byte("leaf"))
	ext := NewExtensionNode([]byte{0x01, 0x0a}, nil)
	var kids [BranchChildCount]*Node
	kids[1] = NewLeafNode([]byte("leaf1"))
	kids[10] = NewLeafNode([]byte("leafa"))
	branch := NewBranchNode(kids)
	emptyBranch := NewBranchNode([BranchChildCount]*Node{})
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	for _, c := range v.NodeSerialization {
		name := str(c, "case")
		check := func(what string, got []byte, wantHex string) {
			t.Helper()
			if wantHex == "" {
				return
			}
			if hex.EncodeToString(got) != wantHex {
				t.Errorf("%s %s: got %x, want %s", name, what, got, wantHex)
			}
			ran["node_serialization"]++
		}
		switch name {
		case "HashNode(UInt256.Zero)":
			n := NewHashNode(hash.Uint256{})
			check("serialized", n.Bytes(), str(c, "serialized_hex"))
			check("as child", asChild(n), str(c, "as_child_hex"))
			d, err := DecodeNode(n.Bytes())
			if err != nil || d.Type() != HashT || d.Hash() != (hash.Uint256{}) {
				t.Errorf("decode hash node: %v %v", d, err)
			}
		case "Empty node":
			check("serialized", (*Node)(nil).Bytes(), str(c, "serialized_hex"))
			check("as child", asChild(nil), str(c, "as_child_hex"))
			if d, err := DecodeNode([]byte{4}); err != nil || d != nil {
				t.Errorf("decode empty: %v %v", d, err)
			}
		case "Leaf(\"leaf\")":
			check("without reference", leaf.Bytes(), str(c, "without_reference_hex"))
			check("serialized", withRef(leaf.Bytes()), str(c, "serialized_hex"))
			check("as child", asChild(leaf), str(c, "as_child_hex"))
			d, err := DecodeNode(leaf.Bytes())
			if err != nil || !bytes.Equal(d.Value(), []byte("leaf")) || d.Hash() != leaf.Hash() {
				t.Errorf("decode leaf: %v %v", d, err)
			}
		case "Extension(key nibbles 010a, next Empty)":
			check("without reference", ext.Bytes(), str(c, "without_reference_hex"))
			check("serialized", withRef(ext.Bytes()), str(c, "serialized_hex"))
			check("as child", asChild(ext), str(c, "as_child_hex"))
			// Deviation: an extension to nothing never occurs in a trie;
			// the strict decoder refuses it (C# accepts it).
			if _, err := DecodeNode(ext.Bytes()); !errors.Is(err, ErrInvalidNode) {
				t.Errorf("extension to empty decoded: %v", err)
			}
		case "Branch with children[1]=Leaf(\"leaf1\"), children[10]=Leaf(\"leafa\")":
			check("serialized", withRef(branch.Bytes()), str(c, "serialized_hex"))
			d, err := DecodeNode(branch.Bytes())
			if err != nil || d.Hash() != branch.Hash() || d.Child(1).Hash() != kids[1].Hash() {
				t.Errorf("decode branch: %v", err)
			}
		case "empty Branch as child":
			check("as child", asChild(emptyBranch), str(c, "as_child_hex"))
		case "sizes":
			sizes, _ := c["values"].(map[string]any)
			// C# sizes count the reference var-int of stored node types.
			got := map[string]int{
				"Empty":                       (*Node)(nil).Size(),
				"Branch (all children empty)": emptyBranch.Size() + 1,
				"Extension([00], Empty)":      NewExtensionNode([]byte{0}, nil).Size() + 1,
				"Leaf([00])":                  NewLeafNode([]byte{0}).Size() + 1,
				"HashNode":                    NewHashNode(hash.Uint256{}).Size(),
			}
			for k, want := range sizes {
				if float64(got[k]) != want.(float64) {
					t.Errorf("size of %s: %d, want %v", k, got[k], want)
				}
				ran["node_serialization"]++
			}
		case "Leaf(empty value) ToArray":
			check("serialized", withRef(NewLeafNode(nil).Bytes()), str(c, "serialized_hex"))
		default:
			t.Errorf("unknown node_serialization case %q", name)
		}
	}
	// Size equals the encoding length for every type.
	for _, n := range []*Node{nil, leaf, ext, branch, emptyBranch, NewHashNode(hash.Uint256{1})} {
		if n.Size() != len(n.Bytes()) {
			t.Errorf("%s: Size %d, encoding %d bytes", n.Type(), n.Size(), len(n.Bytes()))
		}
	}
}

// fixtureStore stores the nodes of the UT_Trie fixture (all but e4 and v4)
// in mode's storage form.
func fixtureStore(t *testing.T, v *vecFile, mode Mode) (*storage.MemoryStore, hash.Uint256) {
	t.Helper()
	st := storage.NewMemoryStore()
	changes := map[string][]byte{}
	for name, n := range v.Fixture.Nodes {
		raw := unhex(t, n.Raw)
		h := hash.Hash256(raw)
		if h != hashLE(t, n.Hash) {
			t.Errorf("fixture node %s: hash %s, want %s", name, h, n.Hash)
		}
		if name == "e4" || name == "v4" {
			continue
		}
		if mode.RC() {
			raw = append(raw, 1, 1, 0, 0, 0)
		}
		changes[string(NodeKey(h))] = raw
	}
	if err := st.PutChangeSet(changes); err != nil {
		t.Fatal(err)
	}
	return st, hashLE(t, v.Fixture.RootHash)
}

func testFixture(t *testing.T, v *vecFile, ran vectorCases) {
	for _, mode := range []Mode{ModeAll, ModeLatest} {
		st, root := fixtureStore(t, v, mode)
		tr := NewTrie(root, mode, st)
		for _, g := range v.Fixture.GetExpectation {
			var key []byte
			switch g.Key {
			case "00 x 255 bytes":
				key = make([]byte, 255)
			default:
				key = unhex(t, g.Key)
			}
			val, err := tr.Get(key)
			switch {
			case strings.HasPrefix(g.Result, "not found"), strings.HasPrefix(g.Result, "KeyNotFound"):
				if !errors.Is(err, ErrNotFound) {
					t.Errorf("get %s: %x %v, want not found", g.Key, val, err)
				}
			case strings.HasPrefix(g.Result, "InvalidOperation"):
				if !errors.Is(err, ErrMissingNode) {
					t.Errorf("get %s: %x %v, want missing node", g.Key, val, err)
				}
			case strings.HasPrefix(g.Result, "ArgumentException"):
				if !errors.Is(err, ErrInvalidKey) {
					t.Errorf("get %s: %x %v, want invalid key", g.Key, val, err)
				}
			default:
				if err != nil || hex.EncodeToString(val) != g.Result {
					t.Errorf("get %s: %x %v, want %s", g.Key, val, err, g.Result)
				}
			}
			ran["fixture_get"]++
		}

		// Proofs.
		for k, p := range v.Fixture.Proofs {
			proof, err := tr.GetProof(unhex(t, k))
			if err != nil {
				t.Fatalf("proof %s: %v", k, err)
			}
			if len(proof) != p.Count || len(proof) != len(p.Nodes) {
				t.Errorf("proof %s: %d nodes, want %d", k, len(proof), p.Count)
			}
			for i := range min(len(proof), len(p.Nodes)) {
				if hex.EncodeToString(proof[i]) != p.Nodes[i] {
					t.Errorf("proof %s node %d: %x, want %s", k, i, proof[i], p.Nodes[i])
				}
			}
			// VerifyProof takes nodes in any order.
			rev := append([][]byte(nil), proof...)
			for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
				rev[i], rev[j] = rev[j], rev[i]
			}
			val, err := VerifyProof(root, unhex(t, k), rev)
			if err != nil || hex.EncodeToString(val) != p.Value {
				t.Errorf("verify proof %s: %x %v, want %s", k, val, err, p.Value)
			}
			// Through the RPC wire format.
			pk := ProofWithKey{Key: unhex(t, k), Proof: proof}
			dec, err := DecodeProofWithKey(pk.Bytes())
			if err != nil || !bytes.Equal(dec.Key, pk.Key) || len(dec.Proof) != len(proof) {
				t.Errorf("proof wire round trip %s: %v", k, err)
			}
			ran["fixture_proof"]++
		}
		for key, want := range map[string]error{"ac10": ErrNotFound, "ac0100": ErrNotFound, "acf1": ErrMissingNode, "": ErrInvalidKey} {
			if _, err := tr.GetProof(unhex(t, key)); !errors.Is(err, want) {
				t.Errorf("proof %q: %v, want %v", key, err, want)
			}
			ran["fixture_proof"]++
		}

		// Deletes on the hand-built trie (UT_Trie.TestTryDelete).
		for _, s := range v.Fixture.DeleteSequence.Steps {
			ok, err := tr.Delete(unhex(t, s.Key))
			switch want := s.Result.(type) {
			case bool:
				if err != nil || ok != want {
					t.Errorf("delete %s: %v %v, want %v", s.Key, ok, err, want)
				}
			case string:
				wantErr := ErrInvalidKey
				if strings.HasPrefix(want, "InvalidOperation") {
					wantErr = ErrMissingNode
				}
				if !errors.Is(err, wantErr) {
					t.Errorf("delete %s: %v %v, want %v", s.Key, ok, err, wantErr)
				}
			}
			ran["fixture_delete"]++
		}
		if got := tr.StateRoot(); got != hashLE(t, v.Fixture.DeleteSequence.RootAfter) {
			t.Errorf("root after deletes %s, want %s", got, v.Fixture.DeleteSequence.RootAfter)
		}
		if err := tr.Flush(1); err != nil {
			t.Fatal(err)
		}
		// e4 was never stored, so the walk cannot be checked; but ac01 is
		// still there.
		if val, err := NewTrie(tr.StateRoot(), mode, st).Get([]byte{0xac, 0x01}); err != nil || !bytes.Equal(val, []byte{0xab, 0xcd}) {
			t.Errorf("get ac01 after deletes: %x %v", val, err)
		}
	}

	// The same trie built by Put, then two more puts.
	tr := NewTrie(hash.Uint256{}, ModeLatest, storage.NewMemoryStore())
	for _, kv := range v.Fixture.PutSequence {
		if err := tr.Put(unhex(t, kv[0]), unhex(t, kv[1])); err != nil {
			t.Fatal(err)
		}
	}
	if got := tr.StateRoot(); got != hashLE(t, v.Fixture.RootHash) {
		t.Errorf("root after puts %s, want %s", got, v.Fixture.RootHash)
	}
	ran["fixture"]++
	for _, s := range v.Fixture.PutThen {
		if err := tr.Put(unhex(t, s.Key), unhex(t, s.Value)); err != nil {
			t.Fatal(err)
		}
		if got := tr.StateRoot(); got != hashLE(t, *s.RootAfter) {
			t.Errorf("root after put %s=%s: %s, want %s", s.Key, s.Value, got, *s.RootAfter)
		}
		ran["fixture"]++
	}
}

func testNeoGoRootHash(t *testing.T, v *vecFile, ran vectorCases) {
	v1 := NewLeafNode([]byte{0xab, 0xcd})
	v2 := NewLeafNode([]byte{0x22, 0x22})
	var kids [BranchChildCount]*Node
	kids[0] = NewExtensionNode([]byte{0x01}, v1)
	kids[9] = NewExtensionNode([]byte{0x09}, v2)
	r := NewExtensionNode([]byte{0x0a, 0x0c}, NewBranchNode(kids))
	r1 := NewExtensionNode([]byte{0x0a, 0x0c, 0x00, 0x01}, v1)
	if got := r1.Hash(); got != hashLE(t, v.NeoGoRootHash.R1) {
		t.Errorf("r1 %s, want %s", got, v.NeoGoRootHash.R1)
	}
	if got := r.Hash(); got != hashLE(t, v.NeoGoRootHash.R) {
		t.Errorf("r %s, want %s", got, v.NeoGoRootHash.R)
	}
	ran["neo_go_root_hash"] += 2
}

// applyStep runs one put/delete step and checks its delete result.
func applyStep(t *testing.T, tr *Trie, s vecStep) {
	t.Helper()
	key := unhex(t, s.Key)
	switch s.Op {
	case "put":
		if err := tr.Put(key, unhex(t, s.Value)); err != nil {
			t.Fatalf("put %s: %v", s.Key, err)
		}
	case "delete":
		ok, err := tr.Delete(key)
		if err != nil {
			t.Fatalf("delete %s: %v", s.Key, err)
		}
		if want, isBool := s.Result.(bool); isBool && ok != want {
			t.Errorf("delete %s: %v, want %v", s.Key, ok, want)
		}
	default:
		t.Fatalf("unknown op %q", s.Op)
	}
}

func rootOf(t *testing.T, s vecStep) hash.Uint256 {
	if s.RootAfter == nil {
		return hash.Uint256{}
	}
	return hashLE(t, *s.RootAfter)
}

func testSequences(t *testing.T, v *vecFile, ran vectorCases) {
	for _, seq := range v.Sequences {
		t.Run(seq.Name, func(t *testing.T) {
			for _, steps := range [][]vecStep{seq.Steps, seq.OtherOrder} {
				if len(steps) == 0 {
					continue
				}
				// One step at a time, flushed after each (the C# tests
				// commit between steps): roots and store sizes.
				st := storage.NewMemoryStore()
				tr := NewTrie(hash.Uint256{}, ModeLatest, st)
				// The same steps without flushes, in archival mode.
				all := NewTrie(hash.Uint256{}, ModeAll, storage.NewMemoryStore())
				final := map[string][]byte{}
				for i, s := range steps {
					applyStep(t, tr, s)
					applyStep(t, all, s)
					if err := tr.Flush(uint32(i)); err != nil {
						t.Fatal(err)
					}
					want := rootOf(t, s)
					if got := tr.StateRoot(); got != want {
						t.Errorf("step %d (%s %s): root %s, want %s", i, s.Op, s.Key, got, want)
					}
					if got := nodeCount(st); got != s.DistinctNodes {
						t.Errorf("step %d (%s %s): %d nodes stored, want %d", i, s.Op, s.Key, got, s.DistinctNodes)
					}
					checkRefCounts(t, st, ModeLatest, want)
					if s.Op == "put" {
						final[string(unhex(t, s.Key))] = unhex(t, s.Value)
					} else {
						delete(final, string(unhex(t, s.Key)))
					}
					if got := refRoot(final); got != want {
						t.Errorf("step %d: reference builder root %s, want %s", i, got, want)
					}
					// Reopening from the store gives the same trie.
					reopened := NewTrie(want, ModeLatest, st)
					for k, val := range final {
						if got, err := reopened.Get([]byte(k)); err != nil || !bytes.Equal(got, val) {
							t.Errorf("step %d: reopened get %x: %x %v", i, k, got, err)
						}
					}
					ran["sequence_step"]++
				}
				last := rootOf(t, steps[len(steps)-1])
				if got := all.StateRoot(); got != last {
					t.Errorf("archival, unflushed: root %s, want %s", got, last)
				}
				// The whole sequence as one batch (of its net effect).
				changes := map[string][]byte{}
				for _, s := range steps {
					if s.Op == "put" {
						changes[string(unhex(t, s.Key))] = unhex(t, s.Value)
					} else {
						changes[string(unhex(t, s.Key))] = nil
					}
				}
				b, err := MapToBatch(changes, 0)
				if err != nil {
					t.Fatal(err)
				}
				bt := NewTrie(hash.Uint256{}, ModeLatest, storage.NewMemoryStore())
				if err := bt.PutBatch(b); err != nil {
					t.Fatal(err)
				}
				if got := bt.StateRoot(); got != last {
					t.Errorf("batch: root %s, want %s", got, last)
				}
				ran["sequence"]++
			}
			checkSequenceExtras(t, seq.Name, seq.Steps, seq.ProofAbcd, seq.Proof01, ran)
		})
	}
}

// checkSequenceExtras checks the literal assertions of some scenarios
// (finds and proofs) on the trie after all their steps.
func checkSequenceExtras(t *testing.T, name string, steps []vecStep, proofAbcd, proof01 []string, ran vectorCases) {
	st := storage.NewMemoryStore()
	tr := NewTrie(hash.Uint256{}, ModeAll, st)
	if name == "Find" {
		if res, err := tr.Find(nil, nil, 100); err != nil || len(res) != 0 {
			t.Errorf("find on empty trie: %v %v", res, err)
		}
	}
	for _, s := range steps {
		applyStep(t, tr, s)
	}
	if err := tr.Flush(0); err != nil {
		t.Fatal(err)
	}
	root := tr.StateRoot()
	// C#'s Find takes from as a whole key; ours takes it after the prefix.
	type findCase struct {
		prefix, from string
		nilFrom      bool
		want         int
	}
	var finds []findCase
	switch name {
	case "Find":
		finds = []findCase{{"", "", true, 3}, {"ab", "", true, 3}, {"abcd", "", true, 2}, {"ac", "", true, 0}, {"abcdef00", "", true, 0}}
	case "FindWithFrom":
		finds = []findCase{{"aa", "", true, 3}, {"aa", "30", false, 1}, {"aa", "60", false, 0}, {"aa", "10", false, 1}}
	case "FindStatesIssue652":
		finds = []findCase{{"ab", "d2", false, 0}, {"ab", "b2", false, 2}, {"ab", "c2", false, 1}}
	case "SplitKey":
		proof, err := tr.GetProof([]byte{0xab, 0xcd})
		if err != nil || len(proof) != len(proofAbcd) {
			t.Fatalf("proof abcd: %d nodes, %v", len(proof), err)
		}
		for i := range proof {
			if hex.EncodeToString(proof[i]) != proofAbcd[i] {
				t.Errorf("proof abcd node %d: %x, want %s", i, proof[i], proofAbcd[i])
			}
		}
		ran["sequence"]++
	case "EmptyValueIssue633":
		val, err := tr.Get([]byte{0x01})
		if err != nil || val == nil || len(val) != 0 {
			t.Errorf("get 01: %v %v, want empty value", val, err)
		}
		proof, err := tr.GetProof([]byte{0x01})
		if err != nil || len(proof) != len(proof01) {
			t.Fatalf("proof 01: %d nodes, %v", len(proof), err)
		}
		for i := range proof {
			if hex.EncodeToString(proof[i]) != proof01[i] {
				t.Errorf("proof 01 node %d: %x, want %s", i, proof[i], proof01[i])
			}
		}
		val, err = VerifyProof(root, []byte{0x01}, proof)
		if err != nil || val == nil || len(val) != 0 {
			t.Errorf("verify proof 01: %v %v, want empty value", val, err)
		}
		ran["sequence"]++
	}
	for _, f := range finds {
		var from []byte
		if !f.nilFrom {
			from = unhex(t, f.from)
		}
		for _, fresh := range []bool{false, true} {
			tt := tr
			if fresh { // from the store only
				tt = NewTrie(root, ModeAll, st)
			}
			res, err := tt.Find(unhex(t, f.prefix), from, 100)
			if err != nil || len(res) != f.want {
				t.Errorf("find(%s, from %s): %s %v, want %d items", f.prefix, f.from, kvString(res), err, f.want)
			}
		}
		ran["sequence"]++
	}
}

// maliciousProof builds the nested-extension proof of UT_MaxLength.
func maliciousProof(depth int) []byte {
	p := make([]byte, 0, 3*depth+1)
	for range depth {
		p = append(p, 0x01, 0x00)
	}
	p = append(p, 0x04)
	return append(p, make([]byte, depth)...)
}

func testMaliciousProof(t *testing.T, v *vecFile, ran vectorCases) {
	p := maliciousProof(10000)
	if len(p) != 30001 {
		t.Fatalf("proof of %d bytes", len(p))
	}
	root := hash.Hash256(p)
	if root != hashLE(t, v.Malicious.RootHash) {
		t.Errorf("malicious root %s, want %s", root, v.Malicious.RootHash)
	}
	if val, err := VerifyProof(root, []byte{0x00}, [][]byte{p}); !errors.Is(err, ErrInvalidProof) {
		t.Errorf("malicious proof verified: %x %v", val, err)
	}
	// Stored under its hash, the trie refuses to load it too.
	st := storage.NewMemoryStore()
	if err := st.PutChangeSet(map[string][]byte{string(NodeKey(root)): p}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTrie(root, ModeAll, st).Get([]byte{0x00}); !errors.Is(err, ErrCorruptStore) {
		t.Errorf("get through malicious node: %v", err)
	}
	ran["malicious_proof"]++
}

func testLiteralRoots(t *testing.T, v *vecFile, ran vectorCases) {
	// Each literal root is reproduced somewhere above; check they are the
	// ones the scenarios use.
	known := map[hash.Uint256]bool{
		hashLE(t, v.Fixture.DeleteSequence.RootAfter): true,
		hashLE(t, v.NeoGoRootHash.R1):                 true,
		hashLE(t, v.NeoGoRootHash.R):                  true,
	}
	for _, r := range v.LiteralRoots {
		if !known[hashLE(t, r.Value)] {
			t.Errorf("literal root %s is not checked", r.Value)
		}
		ran["literal_roots"]++
	}
}

// The proof wire format's key limit is the trie's longest path.
func TestProofKeyLimit(t *testing.T) {
	if MaxProofKeyLength != MaxPathLength {
		t.Fatalf("mptproof.MaxKeyLength %d, MaxPathLength %d", MaxProofKeyLength, MaxPathLength)
	}
}
