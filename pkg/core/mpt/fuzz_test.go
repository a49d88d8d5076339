package mpt

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// FuzzDecodeNode checks that decoding never panics and that whatever
// decodes is canonical: it encodes back to the same bytes and its hash is
// Hash256 of them.
func FuzzDecodeNode(f *testing.F) {
	for _, s := range []string{
		"04", "030000000000000000000000000000000000000000000000000000000000000000",
		"02046c656166", "0200", "0102010a04", "01020a0c03835c6ee956081990cbf3beb4eba7fcb1d76d4bc7066d10a6e60079d188ba2077",
		"0202abcd", "01010e03be42369941ebfefab8b16d8fa34c8618bbebcc0676835be2d4efa5e5fbd9844a",
	} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Add(maliciousProof(50))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := DecodeNode(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidNode) {
				t.Fatalf("error does not wrap ErrInvalidNode: %v", err)
			}
			return
		}
		if !bytes.Equal(n.Bytes(), data) {
			t.Fatalf("decoded %x re-encodes to %x", data, n.Bytes())
		}
		if n.Size() != len(data) {
			t.Fatalf("size %d of %d-byte node", n.Size(), len(data))
		}
		if n != nil && n.Type() != HashT && n.Hash() != hash.Hash256(data) {
			t.Fatal("wrong hash")
		}
	})
}

// FuzzVerifyProof feeds arbitrary RPC proof payloads to VerifyProof, rooted
// at the hash of the first proof node so that verification gets past the
// root. It must not panic, and a value it returns must be a leaf value in
// the proof. The proof of a real trie must verify.
func FuzzVerifyProof(f *testing.F) {
	st := storage.NewMemoryStore()
	tr := NewTrie(hash.Uint256{}, ModeAll, st)
	for _, kv := range [][2]string{{"ac01", "abcd"}, {"ac", "2222"}, {"acae", "6578697374696e67"}, {"01", ""}} {
		k, _ := hex.DecodeString(kv[0])
		v, _ := hex.DecodeString(kv[1])
		if err := tr.Put(k, v); err != nil {
			f.Fatal(err)
		}
	}
	for _, k := range []string{"ac01", "ac", "acae", "01"} {
		key, _ := hex.DecodeString(k)
		proof, err := tr.GetProof(key)
		if err != nil {
			f.Fatal(err)
		}
		f.Add((&ProofWithKey{Key: key, Proof: proof}).Bytes())
	}
	f.Add((&ProofWithKey{Key: []byte{0}, Proof: [][]byte{maliciousProof(100)}}).Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeProofWithKey(data)
		if err != nil || len(p.Proof) == 0 {
			return
		}
		root := hash.Hash256(p.Proof[0])
		val, err := VerifyProof(root, p.Key, p.Proof)
		if err != nil {
			if !errors.Is(err, ErrInvalidProof) {
				t.Fatalf("error does not wrap ErrInvalidProof: %v", err)
			}
			return
		}
		for _, enc := range p.Proof {
			if n, err := DecodeNode(enc); err == nil && n.Type() == LeafT && bytes.Equal(n.Value(), val) {
				return
			}
		}
		t.Fatalf("verified value %x is no leaf of the proof", val)
	})
}

// FuzzTrieOps reads a list of changes from the input (key length and
// bytes, then a value length where 0xff deletes), applies them one by one
// and as a batch, and compares both roots with the reference builder.
func FuzzTrieOps(f *testing.F) {
	f.Add([]byte{1, 0xab, 1, 0x01, 2, 0xab, 0xcd, 0, 1, 0xab, 0xff})
	f.Add([]byte{2, 0xac, 0x01, 2, 0xab, 0xcd, 1, 0xac, 2, 0x22, 0x22, 2, 0xac, 0xae, 1, 0x65, 2, 0xac, 0x01, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		ref := map[string][]byte{}
		changes := map[string][]byte{}
		tr := NewTrie(hash.Uint256{}, ModeLatest, storage.NewMemoryStore())
		for len(data) > 0 {
			kl := int(data[0]%4) + 1
			if len(data) < 1+kl+1 {
				break
			}
			key := data[1 : 1+kl]
			vl := data[1+kl]
			data = data[2+kl:]
			if vl == 0xff {
				if _, err := tr.Delete(key); err != nil {
					t.Fatal(err)
				}
				delete(ref, string(key))
				changes[string(key)] = nil
				continue
			}
			vl %= 4
			if len(data) < int(vl) {
				break
			}
			val := data[:vl:vl]
			data = data[vl:]
			if err := tr.Put(key, val); err != nil {
				t.Fatal(err)
			}
			ref[string(key)] = val
			changes[string(key)] = val
		}
		want := refRoot(ref)
		if got := tr.StateRoot(); got != want {
			t.Fatalf("one by one: %s, reference %s", got, want)
		}
		b, err := MapToBatch(changes, 0)
		if err != nil {
			t.Fatal(err)
		}
		bt := NewTrie(hash.Uint256{}, ModeLatest, storage.NewMemoryStore())
		if err := bt.PutBatch(b); err != nil {
			t.Fatal(err)
		}
		if got := bt.StateRoot(); got != want {
			t.Fatalf("batch: %s, reference %s", got, want)
		}
	})
}
