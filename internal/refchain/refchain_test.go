package refchain

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// fixtureDir is the committed reference chain.
var fixtureDir = filepath.Join("..", "..", "testdata", "refchain")

func loadFixtures(t *testing.T) *Fixtures {
	t.Helper()
	f, err := Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFixtures checks the committed fixtures are complete and consistent.
func TestFixtures(t *testing.T) {
	f := loadFixtures(t)
	if err := Check(f); err != nil {
		t.Fatal(err)
	}
	// The scenario promises of docs/refchain.md.
	if n := len(f.Blocks); n < 30 {
		t.Errorf("%d blocks, want at least 30", n)
	}
	if n := len(f.Scenario.Transactions); n < 30 {
		t.Errorf("%d transactions, want at least 30", n)
	}
	states := map[string]int{}
	for _, tx := range f.Scenario.Transactions {
		states[tx.VMState]++
	}
	if states["FAULT"] < 2 || states["HALT"] < 20 {
		t.Errorf("VM states %v, want some FAULTs and many HALTs", states)
	}
	// Empty blocks: after the genesis, and at least three at the end.
	var txs int
	trailing := 0
	for h, raw := range f.Blocks {
		b, err := DecodeBlock(raw)
		if err != nil {
			t.Fatal(err)
		}
		txs += len(b.Transactions)
		if len(b.Transactions) == 0 && h > 0 {
			trailing++
		} else {
			trailing = 0
		}
	}
	if trailing < 3 {
		t.Errorf("%d empty blocks at the end, want at least 3", trailing)
	}
	if logs := f.AppLogs(); len(logs) != len(f.Blocks)+txs {
		t.Errorf("%d application logs, want %d (blocks) + %d (txs)", len(logs), len(f.Blocks), txs)
	}
	for _, name := range []string{BlocksRecords, TransactionsRecords, StateRecords, ErrorRecords} {
		if len(f.Records[name]) == 0 {
			t.Errorf("no %s records", name)
		}
	}
	for _, r := range f.Records[ErrorRecords] {
		if len(r.Error) == 0 || len(r.Result) != 0 {
			t.Errorf("error record %s %s holds a result", r.Method, r.Params)
		}
	}
	for _, name := range []string{BlocksRecords, TransactionsRecords, StateRecords} {
		for _, r := range f.Records[name] {
			if len(r.Error) != 0 || len(r.Result) == 0 {
				t.Errorf("%s record %s %s holds an error", name, r.Method, r.Params)
			}
		}
	}
}

// TestStateRootsAndLogs exercises the accessors n3node's ledger tests use.
func TestStateRootsAndLogs(t *testing.T) {
	f := loadFixtures(t)
	roots, err := f.StateRoots()
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != len(f.Blocks) {
		t.Fatalf("%d roots for %d blocks", len(roots), len(f.Blocks))
	}
	seen := map[string]bool{}
	for h, r := range roots {
		if r.Index != uint32(h) || !strings.HasPrefix(r.RootHash, "0x") || len(r.RootHash) != 66 {
			t.Errorf("height %d: root %+v", h, r)
		}
		seen[r.RootHash] = true
	}
	if len(seen) < len(roots)/2 {
		t.Errorf("only %d distinct state roots for %d heights", len(seen), len(roots))
	}
	g, err := DecodeBlock(f.Blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	log, ok := f.AppLogs()[g.Hash.String()]
	if !ok {
		t.Fatal("no genesis application log")
	}
	var al struct {
		BlockHash  string `json:"blockhash"`
		Executions []struct {
			Trigger string `json:"trigger"`
		} `json:"executions"`
	}
	if err := json.Unmarshal(log, &al); err != nil {
		t.Fatal(err)
	}
	if len(al.Executions) != 2 || al.Executions[0].Trigger != "OnPersist" || al.Executions[1].Trigger != "PostPersist" {
		t.Errorf("genesis executions %+v", al.Executions)
	}
	r, err := f.Find("getblockcount")
	if err != nil {
		t.Fatal(err)
	}
	var count int
	if err := json.Unmarshal(r.Result, &count); err != nil || count != len(f.Blocks) {
		t.Errorf("getblockcount %s, dump has %d blocks", r.Result, len(f.Blocks))
	}
	if _, err := f.Find("getblock", 999999999, true); !errors.Is(err, ErrNotRecorded) {
		t.Errorf("Find of an unrecorded request: %v", err)
	}
}

func TestChainAccLayouts(t *testing.T) {
	f := loadFixtures(t)
	plain := WriteChainAcc(f.Blocks)
	acc, err := os.ReadFile(filepath.Join(fixtureDir, ChainAccFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain, acc) {
		t.Fatal("WriteChainAcc does not reproduce chain.acc")
	}
	// neo-go's default (incremental) layout: start index first.
	inc := binary.LittleEndian.AppendUint32(nil, 5)
	inc = append(inc, WriteChainAcc(f.Blocks[5:])...)
	start, blocks, err := ReadChainAcc(inc)
	if err != nil {
		t.Fatal(err)
	}
	if start != 5 || len(blocks) != len(f.Blocks)-5 || !bytes.Equal(blocks[0], f.Blocks[5]) {
		t.Fatalf("incremental: start %d, %d blocks", start, len(blocks))
	}
	for _, bad := range [][]byte{
		nil,
		plain[:len(plain)-1],
		append(append([]byte{}, plain...), 0),
		{0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0},
	} {
		if _, _, err := ReadChainAcc(bad); !errors.Is(err, ErrChainAcc) {
			t.Errorf("ReadChainAcc(%d bytes): %v", len(bad), err)
		}
	}
}

func TestDecodeBlock(t *testing.T) {
	f := loadFixtures(t)
	g, err := DecodeBlock(f.Blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	if g.Index != 0 || !g.PrevHash.IsZero() || len(g.Transactions) != 0 || g.MerkleRoot != (hash.Uint256{}) {
		t.Errorf("genesis %+v", g)
	}
	var withTx []byte
	for _, raw := range f.Blocks {
		b, _ := DecodeBlock(raw)
		if len(b.Transactions) > 1 {
			withTx = raw
			tx := b.Transactions[0]
			end := bytes.LastIndex(tx.Raw, tx.Script) + len(tx.Script) // the unsigned part ends with the script
			if tx.Hash != hash.Sha256(tx.Raw[:end]) {
				t.Error("tx hash is not SHA-256 of its unsigned part")
			}
			break
		}
	}
	if withTx == nil {
		t.Fatal("no block with transactions")
	}
	for i := 0; i < len(withTx); i += 7 {
		if _, err := DecodeBlock(withTx[:i]); !errors.Is(err, ErrBlock) {
			t.Fatalf("truncated at %d: %v", i, err)
		}
	}
}

// TestCheckDetects: Check reports tampered blocks and missing records.
func TestCheckDetects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(f *Fixtures)
		want   string
	}{
		{"header byte", func(f *Fixtures) {
			b := append([]byte{}, f.Blocks[3]...)
			b[40]++ // inside the merkle root
			f.Blocks[3] = b
		}, "block 3"},
		{"dropped block", func(f *Fixtures) { f.Blocks = f.Blocks[:len(f.Blocks)-1] }, "scenario height"},
		{"missing state root", func(f *Fixtures) {
			var keep []Record
			for _, r := range f.Records[BlocksRecords] {
				var sr StateRoot
				if r.Method == "getstateroot" && json.Unmarshal(r.Result, &sr) == nil && sr.Index == 7 {
					continue // by height and by hash
				}
				keep = append(keep, r)
			}
			f.Records[BlocksRecords] = keep
		}, "no state root recorded for height 7"},
		{"missing tx log", func(f *Fixtures) {
			var keep []Record
			for _, r := range f.Records[TransactionsRecords] {
				if r.Method != "getapplicationlog" {
					keep = append(keep, r)
				}
			}
			f.Records[TransactionsRecords] = keep
		}, "has no application log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := loadFixtures(t)
			tc.tamper(f)
			err := Check(f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check: %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}
