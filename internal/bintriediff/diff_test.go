package bintriediff

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	gbt "github.com/ethereum/go-ethereum/trie/bintrie"
	"github.com/holiman/uint256"

	"github.com/n3node/n3node/pkg/core/bintrie"
)

// pair drives both trees with the same operations.
type pair struct {
	t    testing.TB
	geth *gethTree
	ours *ourTree
	keys []bintrie.Key
}

func newPair(t testing.TB) *pair {
	return &pair{t: t, geth: newGethTree(), ours: newOurTree()}
}

func (p *pair) put(k bintrie.Key, v bintrie.Value) {
	p.t.Helper()
	if err := p.geth.put(&k, &v); err != nil {
		p.t.Fatalf("geth put: %v", err)
	}
	if err := p.ours.t.Put(k, v); err != nil {
		p.t.Fatalf("put: %v", err)
	}
	p.keys = append(p.keys, k)
}

func (p *pair) checkGet(k bintrie.Key) {
	p.t.Helper()
	want, err := p.geth.get(&k)
	if err != nil {
		p.t.Fatalf("geth get: %v", err)
	}
	got, ok, err := p.ours.t.Get(k)
	if err != nil {
		p.t.Fatalf("get: %v", err)
	}
	if ok != (want != nil) || ok && !bytes.Equal(got[:], want) {
		p.t.Fatalf("get %x: ours %x (present %v), geth %x", k, got, ok, want)
	}
}

func (p *pair) checkRoot() {
	p.t.Helper()
	if g, o := p.geth.hash(), p.ours.t.Hash(); g != o {
		p.t.Fatalf("root: ours %x, geth %x", o, g)
	}
}

func (p *pair) commit() {
	p.t.Helper()
	if err := p.geth.commit(); err != nil {
		p.t.Fatalf("geth commit: %v", err)
	}
	if err := p.ours.commit(); err != nil {
		p.t.Fatalf("commit: %v", err)
	}
	p.checkRoot()
}

// nextKey picks a key biased towards collisions: a new random key, an
// existing key, an existing stem with a new suffix, or an existing key with
// one stem bit flipped (so stems split at every depth).
func (p *pair) nextKey(choice, a, b byte, fresh [32]byte) bintrie.Key {
	if len(p.keys) == 0 || choice%4 == 0 {
		return bintrie.Key(fresh)
	}
	k := p.keys[int(a)%len(p.keys)]
	switch choice % 4 {
	case 2:
		k[31] = b
	case 3:
		bit := int(b) % bintrie.MaxDepth
		if a&1 == 1 {
			bit = bintrie.MaxDepth - 1 - int(b)%16 // deep splits
		}
		k[bit/8] ^= 0x80 >> (bit % 8)
	}
	return k
}

func FuzzTreeDiff(f *testing.F) {
	f.Add([]byte{0x00, 0x11, 0x22, 0x33, 0x47, 0x58, 0x69, 0x7a, 0x8b, 0x9c, 0xad, 0xbe, 0xcf, 0xd0, 0xe1, 0xf2})
	f.Add(bytes.Repeat([]byte{0x13, 0x57, 0x9b, 0xdf}, 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 8192 {
			return
		}
		p := newPair(t)
		for i := 0; i+4 <= len(data); i += 4 {
			op, a, b, c := data[i], data[i+1], data[i+2], data[i+3]
			k := p.nextKey(op, a, b, sha256.Sum256(data[i:i+4]))
			switch op >> 5 {
			case 0: // zero value (= geth's delete)
				p.put(k, bintrie.Value{})
			case 1:
				p.checkGet(k)
			case 2:
				p.checkRoot()
			case 3:
				p.commit()
			default:
				p.put(k, bintrie.Value(sha256.Sum256([]byte{a, b, c})))
			}
		}
		p.checkRoot()
		for _, k := range p.keys {
			p.checkGet(k)
		}
	})
}

// TestRandomDiff replays BINTRIE_DIFF_OPS (default 100,000) random
// operations with periodic commit/reopen on both sides.
func TestRandomDiff(t *testing.T) {
	n := 100_000
	if s := os.Getenv("BINTRIE_DIFF_OPS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(7864, 1))
	p := newPair(t)
	for i := range n {
		var fresh [32]byte
		binary.LittleEndian.PutUint64(fresh[:], rng.Uint64())
		binary.LittleEndian.PutUint64(fresh[8:], rng.Uint64())
		binary.LittleEndian.PutUint64(fresh[16:], rng.Uint64())
		binary.LittleEndian.PutUint64(fresh[24:], rng.Uint64())
		k := p.nextKey(byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), fresh)
		var v bintrie.Value
		if rng.IntN(10) != 0 {
			v = bintrie.Value(sha256.Sum256(fresh[:]))
		}
		p.put(k, v)
		if rng.IntN(50) == 0 {
			p.checkGet(p.keys[rng.IntN(len(p.keys))])
		}
		if (i+1)%(n/20+1) == 0 {
			p.commit()
		} else if rng.IntN(2000) == 0 {
			p.checkRoot()
		}
	}
	p.checkRoot()
	for i := 0; i < len(p.keys); i += 7 {
		p.checkGet(p.keys[i])
	}
	t.Logf("%d ops, %d keys, root %x", n, len(p.keys), p.ours.t.Hash())
}

func FuzzKeyDiff(f *testing.F) {
	f.Add(make([]byte, 20), make([]byte, 32), uint64(0))
	f.Add(bytes.Repeat([]byte{0xff}, 20), bytes.Repeat([]byte{0xff}, 32), uint64(1<<40))
	f.Add([]byte{1, 2, 3}, []byte{0x3f}, uint64(127))
	f.Fuzz(func(t *testing.T, addrB, slotB []byte, chunk uint64) {
		var addr bintrie.Address
		copy(addr[:], addrB)
		var slot [32]byte
		copy(slot[32-min(len(slotB), 32):], slotB)
		ga := common.Address(addr)

		check := func(what string, ours bintrie.Key, geth []byte) {
			if !bytes.Equal(ours[:], geth) {
				t.Fatalf("%s: ours %x, geth %x", what, ours, geth)
			}
		}
		check("basic data", bintrie.BasicDataKey(addr), gbt.GetBinaryTreeKeyBasicData(ga))
		check("code hash", bintrie.CodeHashKey(addr), gbt.GetBinaryTreeKeyCodeHash(ga))
		check("storage slot", bintrie.StorageSlotKey(addr, &slot), gbt.GetBinaryTreeKeyStorageSlot(ga, slot[:]))
		// Code chunks: geth's GetBinaryTreeKeyCodeChunk panics in
		// v1.17.10; UpdateContractCode builds the offset as be256(128+c).
		chunk %= 1 << 56
		var off [32]byte
		binary.BigEndian.PutUint64(off[24:], chunk+128)
		check("code chunk", bintrie.CodeChunkKey(addr, chunk), gbt.GetBinaryTreeKey(ga, off[:]))
		// The generic form with an arbitrary tree index.
		ti := sha256.Sum256(slot[:])
		ti[31] = 0 // geth takes the 32-byte offset; its sub-index is the last byte
		ti[31] = slot[0]
		var tiShifted [32]byte // tree_index = offset >> 8
		copy(tiShifted[1:], ti[:31])
		check("tree key", bintrie.TreeKey(addr, &tiShifted, ti[31]), gbt.GetBinaryTreeKey(ga, ti[:]))
	})
}

func FuzzChunkifyDiff(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x7f})
	f.Add(append([]byte{0x5f, 0x60, 0x01, 0x7f}, bytes.Repeat([]byte{0x60}, 40)...))
	f.Fuzz(func(t *testing.T, code []byte) {
		ours := bintrie.ChunkifyCode(code)
		geth := gbt.ChunkifyCode(code)
		if len(geth) != len(ours)*32 {
			t.Fatalf("%d chunks, geth %d bytes", len(ours), len(geth))
		}
		for i := range ours {
			if !bytes.Equal(ours[i][:], geth[i*32:i*32+32]) {
				t.Fatalf("chunk %d: ours %x, geth %x", i, ours[i], geth[i*32:i*32+32])
			}
		}
	})
}

// TestAccountDiff compares geth's account-level writes (UpdateAccount,
// UpdateStorage, DeleteStorage, UpdateContractCode, DeleteAccount) with
// the same writes built from our key derivation and BasicData encoding.
func TestAccountDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := newGethTree()
	ours := newOurTree()
	var addrs []bintrie.Address
	put := func(k bintrie.Key, v bintrie.Value) {
		if err := ours.t.Put(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3000 {
		if len(addrs) == 0 || rng.IntN(8) == 0 {
			var a bintrie.Address
			binary.BigEndian.PutUint64(a[:], rng.Uint64())
			binary.BigEndian.PutUint64(a[12:], rng.Uint64())
			addrs = append(addrs, a)
		}
		addr := addrs[rng.IntN(len(addrs))]
		ga := common.Address(addr)
		switch rng.IntN(5) {
		case 0:
			nonce := rng.Uint64()
			var bal [16]byte
			binary.BigEndian.PutUint64(bal[rng.IntN(2)*8:], rng.Uint64())
			codeLen := rng.IntN(1 << 24)
			codeHash := sha256.Sum256(bal[:])
			acc := &types.StateAccount{Nonce: nonce, Balance: new(uint256.Int).SetBytes(bal[:]), CodeHash: codeHash[:]}
			if err := g.t.UpdateAccount(ga, acc, codeLen); err != nil {
				t.Fatal(err)
			}
			bd := bintrie.BasicData{CodeSize: uint32(codeLen), Nonce: nonce, Balance: bal}
			put(bintrie.BasicDataKey(addr), bd.Encode())
			put(bintrie.CodeHashKey(addr), bintrie.Value(codeHash))
		case 1, 2:
			var slot [32]byte
			switch rng.IntN(3) {
			case 0:
				slot[31] = byte(rng.IntN(70))
			case 1:
				binary.BigEndian.PutUint64(slot[24:], rng.Uint64())
			default:
				binary.BigEndian.PutUint64(slot[:], rng.Uint64())
			}
			val := make([]byte, 1+rng.IntN(32))
			for j := range val {
				val[j] = byte(rng.Uint32())
			}
			var v bintrie.Value
			if rng.IntN(4) == 0 {
				if err := g.t.DeleteStorage(ga, slot[:]); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := g.t.UpdateStorage(ga, slot[:], val); err != nil {
					t.Fatal(err)
				}
				copy(v[32-len(val):], val)
			}
			put(bintrie.StorageSlotKey(addr, &slot), v)
		case 3:
			code := make([]byte, rng.IntN(10000))
			for j := range code {
				code[j] = byte(rng.Uint32())
			}
			if err := g.t.UpdateContractCode(ga, common.Hash(sha256.Sum256(code)), code); err != nil {
				t.Fatal(err)
			}
			for j, ch := range bintrie.ChunkifyCode(code) {
				put(bintrie.CodeChunkKey(addr, uint64(j)), ch)
			}
		case 4:
			if rng.IntN(4) != 0 {
				continue
			}
			if err := g.t.DeleteAccount(ga); err != nil {
				t.Fatal(err)
			}
			put(bintrie.BasicDataKey(addr), bintrie.Value{})
			put(bintrie.CodeHashKey(addr), bintrie.Value{})
		}
		if i%97 == 0 {
			if gh, oh := bintrie.Hash(g.t.Hash()), ours.t.Hash(); gh != oh {
				t.Fatalf("op %d: root ours %x, geth %x", i, oh, gh)
			}
		}
		if i%500 == 499 {
			if err := g.commit(); err != nil {
				t.Fatal(err)
			}
			if err := ours.commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if gh, oh := bintrie.Hash(g.t.Hash()), ours.t.Hash(); gh != oh {
		t.Fatalf("final root ours %x, geth %x", oh, gh)
	}
}
