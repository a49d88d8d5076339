// Package ledgerdiff is the differential test of the ledger against the
// reference chain (internal/refchain): it restores a fixture's chain.acc
// into an n3node Blockchain configured from the fixture's protocol.yml and
// compares every height's state root and every application log with what
// neo-go recorded. pkg/core's tests run it on the committed fixtures, the
// refchain live test (make refchain) on freshly generated ones.
package ledgerdiff

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// Mismatch is one difference from the reference.
type Mismatch struct {
	// Height is the block's index.
	Height uint32
	// What is "stateroot", "applicationlog block" or "applicationlog tx".
	What string
	// Hash is the block or transaction hash (0x-prefixed, reversed).
	Hash string
	// Diff is the first difference (path: recorded vs got).
	Diff string
}

func (m Mismatch) String() string {
	return fmt.Sprintf("height %d %s %s: %s", m.Height, m.What, m.Hash, m.Diff)
}

// Report is the outcome of a run.
type Report struct {
	// Imported is the number of blocks imported after the genesis; Err the
	// error that stopped the import, if any.
	Imported int
	Err      error
	// Roots and Logs count the state roots and application logs compared.
	Roots, Logs int
	// Mismatches are the differences, by height.
	Mismatches []Mismatch
}

// Config loads the fixture's protocol.yml as a ledger configuration.
func Config(f *refchain.Fixtures) (config.Blockchain, error) {
	raw, err := os.ReadFile(filepath.Join(f.Dir, refchain.ProtocolFile))
	if err != nil {
		return config.Blockchain{}, err
	}
	c, err := config.LoadBytes(refchain.ProtocolFile, raw)
	if err != nil {
		return config.Blockchain{}, err
	}
	return c.Blockchain()
}

// Run restores f's chain into a new chain over store (closed at the end)
// and compares it with the records.
func Run(f *refchain.Fixtures, store storage.Store, opts core.Options) (*Report, error) {
	cfg, err := Config(f)
	if err != nil {
		return nil, err
	}
	bc, err := core.New(cfg, store, opts)
	if err != nil {
		return nil, err
	}
	defer bc.Close()
	rep := &Report{}
	if len(f.Blocks) == 0 {
		return nil, fmt.Errorf("no blocks")
	}
	g, err := block.NewBlockFromBytes(f.Blocks[0])
	if err != nil {
		return nil, err
	}
	if g.Hash() != bc.GetHeaderHash(0) {
		return nil, fmt.Errorf("genesis %s, recorded %s", bc.GetHeaderHash(0).StringLE(), g.Hash().StringLE())
	}
	ch := make(chan *block.Block, 16)
	go func() {
		defer close(ch)
		for _, raw := range f.Blocks[1:] {
			b, err := block.NewBlockFromBytes(raw)
			if err != nil {
				return
			}
			ch <- b
		}
	}()
	rep.Err = bc.AddBlocks(context.Background(), ch)
	for range ch {
	}
	rep.Imported = int(bc.BlockHeight())
	roots, err := f.StateRoots()
	if err != nil {
		return nil, err
	}
	logs := f.AppLogs()
	for h := uint32(0); h <= bc.BlockHeight() && int(h) < len(roots); h++ {
		r, err := bc.GetStateRoot(h)
		rep.Roots++
		if err != nil {
			rep.Mismatches = append(rep.Mismatches, Mismatch{h, "stateroot", "", err.Error()})
			continue
		}
		if got := "0x" + r.RootHash.StringLE(); got != roots[h].RootHash {
			rep.Mismatches = append(rep.Mismatches, Mismatch{h, "stateroot", "", fmt.Sprintf("recorded %s, got %s", roots[h].RootHash, got)})
		}
		b, err := bc.GetBlockByIndex(h)
		if err != nil {
			return nil, err
		}
		rep.compareLog(bc, logs, h, b.Hash(), true)
		for _, tx := range b.Transactions {
			rep.compareLog(bc, logs, h, tx.Hash(), false)
		}
	}
	return rep, nil
}

func (rep *Report) compareLog(bc *core.Blockchain, logs map[string]json.RawMessage, height uint32, h hash.Uint256, isBlock bool) {
	key := "0x" + h.StringLE()
	what := "applicationlog tx"
	if isBlock {
		what = "applicationlog block"
	}
	rec, ok := logs[key]
	if !ok {
		rep.Mismatches = append(rep.Mismatches, Mismatch{height, what, key, "not recorded"})
		return
	}
	rep.Logs++
	got, err := AppLogJSON(bc, h, isBlock)
	if err != nil {
		rep.Mismatches = append(rep.Mismatches, Mismatch{height, what, key, err.Error()})
		return
	}
	if d := refchain.Compare(refchain.Record{Method: "getapplicationlog", Result: rec}, got, nil, refchain.ReplayOptions{}); d != "" {
		rep.Mismatches = append(rep.Mismatches, Mismatch{height, what, key, d})
	}
}

// AppLogJSON returns neo-go's getapplicationlog answer for a block or
// transaction of bc.
func AppLogJSON(bc *core.Blockchain, h hash.Uint256, isBlock bool) (json.RawMessage, error) {
	aers, err := bc.GetAppExecResults(h, trigger.All)
	if err != nil {
		return nil, err
	}
	execs := make([]state.Execution, len(aers))
	for i := range aers {
		execs[i] = aers[i].Execution
	}
	if isBlock {
		return json.Marshal(struct {
			Hash  hash.Uint256      `json:"blockhash"`
			Execs []state.Execution `json:"executions"`
		}{h, execs})
	}
	return json.Marshal(struct {
		Hash  hash.Uint256      `json:"txid"`
		Execs []state.Execution `json:"executions"`
	}{h, execs})
}

// FirstMismatch returns the mismatch at the lowest height (state roots
// first), or nil.
func (rep *Report) FirstMismatch() *Mismatch {
	if len(rep.Mismatches) == 0 {
		return nil
	}
	ms := slices.Clone(rep.Mismatches)
	slices.SortStableFunc(ms, func(a, b Mismatch) int { return int(int64(a.Height) - int64(b.Height)) })
	return &ms[0]
}
