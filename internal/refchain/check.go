package refchain

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Check verifies that a fixture directory is self-consistent: the dump parses
// into Scenario.Height+1 linked blocks whose merkle roots match their
// transactions; for every height the recorded block hash is SHA-256 of the
// unsigned header in the dump, and a state root and a block application log
// are recorded; every transaction in the dump has a recorded application log
// and verbose getrawtransaction answer; every scenario transaction is in the
// dump at its block with its recorded VM state. It returns all problems found
// (joined), or nil.
func Check(f *Fixtures) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if len(f.Blocks) == 0 {
		return errors.New("refchain: the dump holds no blocks")
	}
	if want := int(f.Scenario.Height) + 1; len(f.Blocks) != want {
		fail("dump has %d blocks, scenario height %d needs %d", len(f.Blocks), f.Scenario.Height, want)
	}
	roots, err := f.StateRoots()
	if err != nil {
		errs = append(errs, err)
	}
	logs := f.AppLogs()
	txBlock := make(map[string]uint32)
	var prev hash.Uint256
	for h, raw := range f.Blocks {
		b, err := DecodeBlock(raw)
		if err != nil {
			fail("block %d: %w", h, err)
			continue
		}
		bh := b.Hash.String()
		if b.Index != uint32(h) {
			fail("block %d: header index %d", h, b.Index)
		}
		if b.PrevHash != prev {
			fail("block %d: prev hash %s, block %d is %s", h, b.PrevHash, h-1, prev)
		}
		prev = b.Hash
		if mr := hash.MerkleRoot(b.TxHashes()); mr != b.MerkleRoot {
			fail("block %d: merkle root %s, transactions give %s", h, b.MerkleRoot, mr)
		}
		var gotHash string
		if r, err := f.Find("getblockhash", h); err != nil {
			errs = append(errs, err)
		} else if json.Unmarshal(r.Result, &gotHash) != nil || normHash(gotHash) != bh {
			fail("block %d: getblockhash says %s, dump header hashes to %s", h, r.Result, bh)
		}
		if r, err := f.Find("getblock", h, true); err != nil {
			errs = append(errs, err)
		} else {
			checkVerboseBlock(fail, h, b, r.Result)
		}
		if r, err := f.Find("getblockheader", h, true); err != nil {
			errs = append(errs, err)
		} else {
			var hdr struct {
				Hash  string `json:"hash"`
				Index uint32 `json:"index"`
			}
			if json.Unmarshal(r.Result, &hdr) != nil || normHash(hdr.Hash) != bh || hdr.Index != uint32(h) {
				fail("block %d: getblockheader answer %.120s does not match the dump", h, r.Result)
			}
		}
		if r, err := f.Find("getblock", h); err == nil {
			var b64 string
			if json.Unmarshal(r.Result, &b64) != nil || b64 != base64.StdEncoding.EncodeToString(raw) {
				fail("block %d: raw getblock differs from the dump", h)
			}
		}
		if roots != nil && roots[h].Index != uint32(h) {
			fail("block %d: no state root", h)
		}
		if _, ok := logs[bh]; !ok {
			fail("block %d: no application log for block %s", h, bh)
		}
		for _, tx := range b.Transactions {
			th := tx.Hash.String()
			txBlock[th] = uint32(h)
			checkTx(f, fail, h, b, tx, logs)
		}
	}
	for _, ti := range f.Scenario.Transactions {
		h, ok := txBlock[normHash(ti.Hash)]
		switch {
		case !ok:
			fail("scenario tx %s (%s) is not in the dump", ti.Hash, ti.Description)
		case h != ti.Block:
			fail("scenario tx %s is in block %d, scenario says %d", ti.Hash, h, ti.Block)
		}
		if st := vmState(logs[normHash(ti.Hash)]); st != ti.VMState {
			fail("scenario tx %s: application log state %q, scenario says %q", ti.Hash, st, ti.VMState)
		}
	}
	if len(f.Scenario.Transactions) != len(txBlock) {
		fail("scenario lists %d transactions, the dump holds %d", len(f.Scenario.Transactions), len(txBlock))
	}
	return errors.Join(errs...)
}

func checkVerboseBlock(fail func(string, ...any), h int, b *Block, res json.RawMessage) {
	var vb struct {
		Hash  string `json:"hash"`
		Index uint32 `json:"index"`
		Tx    []struct {
			Hash string `json:"hash"`
		} `json:"tx"`
	}
	if err := json.Unmarshal(res, &vb); err != nil {
		fail("block %d: verbose getblock: %w", h, err)
		return
	}
	if normHash(vb.Hash) != b.Hash.String() || vb.Index != uint32(h) {
		fail("block %d: verbose getblock hash %s index %d, dump says %s", h, vb.Hash, vb.Index, b.Hash)
	}
	if len(vb.Tx) != len(b.Transactions) {
		fail("block %d: verbose getblock lists %d txs, dump has %d", h, len(vb.Tx), len(b.Transactions))
		return
	}
	for i, tx := range vb.Tx {
		if normHash(tx.Hash) != b.Transactions[i].Hash.String() {
			fail("block %d tx %d: verbose getblock says %s, dump hashes to %s", h, i, tx.Hash, b.Transactions[i].Hash)
		}
	}
}

func checkTx(f *Fixtures, fail func(string, ...any), h int, b *Block, tx Transaction, logs map[string]json.RawMessage) {
	th := tx.Hash.String()
	al, ok := logs[th]
	if !ok {
		fail("block %d: tx %s has no application log", h, th)
	} else {
		var l struct {
			TxID string `json:"txid"`
		}
		if json.Unmarshal(al, &l) != nil || normHash(l.TxID) != th {
			fail("tx %s: application log is for %.100s", th, al)
		}
	}
	r, err := f.Find("getrawtransaction", th, true)
	if err != nil {
		fail("block %d: %w", h, err)
		return
	}
	var vt struct {
		Hash      string `json:"hash"`
		BlockHash string `json:"blockhash"`
	}
	if json.Unmarshal(r.Result, &vt) != nil || normHash(vt.Hash) != th || normHash(vt.BlockHash) != b.Hash.String() {
		fail("tx %s: getrawtransaction answer %.160s does not match the dump", th, r.Result)
	}
}

// vmState returns the VM state of the first execution of an application log.
func vmState(log json.RawMessage) string {
	var l struct {
		Executions []struct {
			VMState string `json:"vmstate"`
		} `json:"executions"`
	}
	if json.Unmarshal(log, &l) != nil || len(l.Executions) == 0 {
		return ""
	}
	return l.Executions[0].VMState
}
