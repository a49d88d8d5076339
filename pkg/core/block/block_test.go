package block_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	nio "github.com/n3node/n3node/pkg/io"
)

const vectorsDir = "../../../testdata/vectors"

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	if err := json.Unmarshal(readFile(t, name), v); err != nil {
		t.Fatal(err)
	}
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compact(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

type headerFields struct {
	Version       uint32 `json:"version"`
	PrevHash      string `json:"prevhash"`
	MerkleRoot    string `json:"merkleroot"`
	Timestamp     uint64 `json:"timestamp"`
	Nonce         string `json:"nonce"`
	Index         uint32 `json:"index"`
	Primary       uint8  `json:"primary"`
	NextConsensus string `json:"nextconsensus"`
	NextHash      string `json:"nextconsensus_hash"`
}

type vector struct {
	Name     string          `json:"name"`
	Kind     string          `json:"kind"`
	RawHex   string          `json:"raw_hex"`
	Hash     string          `json:"hash"`
	Size     int             `json:"size"`
	Header   headerFields    `json:"header"`
	JSON     json.RawMessage `json:"json"`
	Unsigned string          `json:"unsigned_header_hex"`
	SignData string          `json:"sign_data_hex"`
	Witness  struct {
		Invocation   string `json:"invocation"`
		Verification string `json:"verification"`
	} `json:"witness"`
	Transactions []struct {
		Hash string `json:"hash"`
		Size int    `json:"size"`
	} `json:"transactions"`
}

func checkHeader(t *testing.T, h *block.Header, f headerFields) {
	t.Helper()
	if h.Version != f.Version || h.PrevHash.String() != f.PrevHash || h.MerkleRoot.String() != f.MerkleRoot ||
		h.Timestamp != f.Timestamp || h.Index != f.Index || h.PrimaryIndex != f.Primary ||
		address.FromUint160(h.NextConsensus) != f.NextConsensus || h.NextConsensus.String() != f.NextHash {
		t.Errorf("header fields differ: %+v", h)
	}
	var nonce [8]byte
	binary.BigEndian.PutUint64(nonce[:], h.Nonce)
	if hex.EncodeToString(nonce[:]) != f.Nonce {
		t.Errorf("nonce %x", nonce)
	}
}

func TestBlockVectors(t *testing.T) {
	var f struct {
		Vectors []vector `json:"vectors"`
	}
	loadJSON(t, "transactions_blocks.json", &f)
	blocks, headers := 0, 0
	for _, v := range f.Vectors {
		switch v.Kind {
		case "block":
			blocks++
			t.Run(v.Name, func(t *testing.T) {
				raw := unhex(t, v.RawHex)
				b, err := block.NewBlockFromBytes(raw)
				if err != nil {
					t.Fatal(err)
				}
				if b.Hash().String() != v.Hash || b.Size() != v.Size || len(raw) != v.Size {
					t.Errorf("hash %s size %d", b.Hash(), b.Size())
				}
				if !bytes.Equal(b.Bytes(), raw) {
					t.Error("re-encoding differs")
				}
				if v.Header.PrevHash != "" {
					checkHeader(t, &b.Header, v.Header)
				}
				if v.Witness.Verification != "" && (hex.EncodeToString(b.Witness.InvocationScript) != v.Witness.Invocation ||
					hex.EncodeToString(b.Witness.VerificationScript) != v.Witness.Verification) {
					t.Error("witness differs")
				}
				if len(b.Transactions) != len(v.Transactions) {
					t.Fatalf("%d transactions", len(b.Transactions))
				}
				for i, tv := range v.Transactions {
					if b.Transactions[i].Hash().String() != tv.Hash || b.Transactions[i].Size() != tv.Size {
						t.Errorf("tx %d: %s", i, b.Transactions[i].Hash())
					}
				}
				if b.ComputeMerkleRoot() != b.MerkleRoot {
					t.Error("merkle root")
				}
				if v.Unsigned != "" && hex.EncodeToString(b.EncodeHashableFields()) != v.Unsigned {
					t.Error("unsigned header")
				}
				if v.SignData != "" {
					sd := b.SignData(860833102)
					if hex.EncodeToString(sd[:]) != v.SignData {
						t.Errorf("sign data %x", sd)
					}
				}
				var b2 block.Block
				if err := nio.FromBytes(raw, &b2); err != nil || b2.Hash() != b.Hash() || !bytes.Equal(b2.Bytes(), raw) {
					t.Errorf("DecodeBinary: %v", err)
				}
				if v.JSON != nil {
					js, err := json.Marshal(b)
					if err != nil {
						t.Fatal(err)
					}
					if want := compact(t, v.JSON); !bytes.Equal(js, want) {
						t.Errorf("JSON\n got %s\nwant %s", js, want)
					}
					var fromJS block.Block
					if err := json.Unmarshal(v.JSON, &fromJS); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(fromJS.Bytes(), raw) {
						t.Error("JSON decodes to other bytes")
					}
				}
			})
		case "header":
			headers++
			t.Run(v.Name, func(t *testing.T) {
				raw := unhex(t, v.RawHex)
				h, err := block.NewHeaderFromBytes(raw)
				if err != nil {
					t.Fatal(err)
				}
				checkHeader(t, h, v.Header)
				if h.Hash().String() != v.Hash || h.Size() != v.Size {
					t.Errorf("hash %s size %d", h.Hash(), h.Size())
				}
				w := nio.NewBufBinWriter()
				h.EncodeBinary(w)
				if !bytes.Equal(w.Bytes(), raw) {
					t.Error("re-encoding differs")
				}
			})
		}
	}
	if blocks < 3 || headers < 1 {
		t.Fatalf("ran %d block and %d header vectors", blocks, headers)
	}
}

func TestGenesis(t *testing.T) {
	var g struct {
		Networks map[string]struct {
			Validators []string `json:"standby_validators"`
			Unsigned   string   `json:"genesis_unsigned_header_hex"`
			Raw        string   `json:"genesis_block_hex"`
			Size       int      `json:"genesis_block_size"`
			Hash       string   `json:"genesis_hash"`
		} `json:"networks"`
	}
	loadJSON(t, "genesis.json", &g)
	if len(g.Networks) != 2 {
		t.Fatalf("%d networks", len(g.Networks))
	}
	for name, n := range g.Networks {
		var vals []*keys.PublicKey
		for _, s := range n.Validators {
			k, err := keys.NewPublicKeyFromString(s)
			if err != nil {
				t.Fatal(err)
			}
			vals = append(vals, k)
		}
		if len(vals) != 7 {
			t.Fatalf("%s: %d validators", name, len(vals))
		}
		b, err := block.NewGenesis(vals)
		if err != nil {
			t.Fatal(err)
		}
		if b.Hash().String() != n.Hash {
			t.Errorf("%s: genesis hash %s, want %s", name, b.Hash(), n.Hash)
		}
		if hex.EncodeToString(b.EncodeHashableFields()) != n.Unsigned {
			t.Errorf("%s: unsigned header", name)
		}
		if hex.EncodeToString(b.Bytes()) != n.Raw || b.Size() != n.Size {
			t.Errorf("%s: genesis bytes %x", name, b.Bytes())
		}
		d, err := block.NewBlockFromBytes(unhex(t, n.Raw))
		if err != nil || d.Hash() != b.Hash() {
			t.Errorf("%s: decode: %v", name, err)
		}
	}
}

type neogoVectors struct {
	Blocks []struct {
		Source     string          `json:"source"`
		Index      uint32          `json:"index"`
		RawHex     string          `json:"raw_hex"`
		JSON       json.RawMessage `json:"json"`
		HeaderJSON json.RawMessage `json:"header_json"`
	} `json:"blocks"`
}

// TestNeoGoChains decodes the blocks of two neo-go test chains (74 blocks
// with NEO/GAS transfers, deployments, NEP-11, notary and oracle-era
// transactions) and compares binary and JSON forms with neo-go v0.120.0.
func TestNeoGoChains(t *testing.T) {
	var f neogoVectors
	loadJSON(t, "neogo/json_vectors.json", &f)
	if len(f.Blocks) < 70 {
		t.Fatalf("%d blocks", len(f.Blocks))
	}
	txs := 0
	for _, v := range f.Blocks {
		raw := unhex(t, v.RawHex)
		b, err := block.NewBlockFromBytes(raw)
		if err != nil {
			t.Fatalf("%s #%d: %v", v.Source, v.Index, err)
		}
		txs += len(b.Transactions)
		if !bytes.Equal(b.Bytes(), raw) {
			t.Errorf("%s #%d: re-encoding differs", v.Source, v.Index)
		}
		js, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if want := compact(t, v.JSON); !bytes.Equal(js, want) {
			t.Fatalf("%s #%d: JSON\n got %s\nwant %s", v.Source, v.Index, js, want)
		}
		hj, _ := json.Marshal(&b.Header)
		if want := compact(t, v.HeaderJSON); !bytes.Equal(hj, want) {
			t.Fatalf("%s #%d: header JSON\n got %s\nwant %s", v.Source, v.Index, hj, want)
		}
		var back block.Block
		if err := json.Unmarshal(v.JSON, &back); err != nil {
			t.Fatalf("%s #%d: %v", v.Source, v.Index, err)
		}
		if !bytes.Equal(back.Bytes(), raw) {
			t.Errorf("%s #%d: JSON decodes to other bytes", v.Source, v.Index)
		}
	}
	if txs < 100 {
		t.Fatalf("only %d transactions", txs)
	}
}

// TestAccDumps reads the .acc chain dumps (u32 count, then u32 size and a
// block each) directly.
func TestAccDumps(t *testing.T) {
	for _, name := range []string{"neogo/testblocks.acc", "neogo/chain50x2.acc"} {
		data := readFile(t, name)
		r := nio.NewBinReaderFromBuf(data)
		n := r.ReadU32LE()
		var prev hash.Uint256
		for i := range n {
			size := r.ReadU32LE()
			raw := r.ReadBytesAlias(int(size))
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			b, err := block.NewBlockFromBytes(raw)
			if err != nil {
				t.Fatalf("%s block %d: %v", name, i, err)
			}
			if i > 0 && b.PrevHash != prev {
				t.Fatalf("%s block %d: broken chain", name, i)
			}
			prev = b.Hash()
		}
		if n == 0 || r.Len() != 0 {
			t.Fatalf("%s: %d blocks, %d bytes left", name, n, r.Len())
		}
	}
}

func TestMalformedBlocks(t *testing.T) {
	var f struct {
		Vectors []vector `json:"vectors"`
	}
	loadJSON(t, "transactions_blocks.json", &f)
	var raw []byte
	for _, v := range f.Vectors {
		if v.Name == "neogo_privnet_block_2tx" {
			raw = unhex(t, v.RawHex)
		}
	}
	b, err := block.NewBlockFromBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	mut := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(raw)) }
	hdrLen := b.Header.Size()
	tx0 := b.Transactions[0].Bytes()
	cases := []struct {
		name string
		b    []byte
		err  error
	}{
		{"version 1", mut(func(b []byte) []byte { b[0] = 1; return b }), block.ErrInvalidVersion},
		{"merkle root", mut(func(b []byte) []byte { b[40] ^= 1; return b }), block.ErrMerkleRoot},
		{"no witness", append(append(bytes.Clone(raw[:block.UnsignedHeaderSize]), 0), raw[hdrLen:]...), block.ErrWitnessCount},
		{"two witnesses", mut(func(b []byte) []byte { b[block.UnsignedHeaderSize] = 2; return b }), block.ErrWitnessCount},
		{"trailing", append(bytes.Clone(raw), 0), block.ErrTrailingBytes},
		{"duplicate tx", func() []byte {
			d := append(bytes.Clone(raw[:hdrLen]), 2)
			return append(append(d, tx0...), tx0...)
		}(), block.ErrDuplicateTransaction},
		{"too many txs", append(bytes.Clone(raw[:hdrLen]), 0xfe, 0, 0, 1, 0), nio.ErrTooLarge},
	}
	for _, c := range cases {
		_, err := block.NewBlockFromBytes(c.b)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.err)
		}
	}
	for i := range raw {
		if _, err := block.NewBlockFromBytes(raw[:i]); err == nil {
			t.Fatalf("prefix of %d bytes accepted", i)
		}
	}
	if _, err := block.NewHeaderFromBytes(raw[:hdrLen]); err != nil {
		t.Fatal(err)
	}
	// A transaction error inside a block is reported.
	bad := mut(func(b []byte) []byte { b[hdrLen+1] = 1; return b }) // tx version 1
	if _, err := block.NewBlockFromBytes(bad); !errors.Is(err, transaction.ErrInvalidVersion) {
		t.Errorf("bad transaction: %v", err)
	}
}
