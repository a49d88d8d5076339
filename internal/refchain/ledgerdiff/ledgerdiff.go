// Package ledgerdiff (in the refchain family) is the differential test of the ledger against the
// reference chain (internal/refchain): it restores a fixture's chain.acc
// into an n3node Blockchain configured from the fixture's protocol.yml and
// compares every height's state root and every application log with what
// neo-go recorded. pkg/core's tests run it on the committed fixtures, the
// refchain live test (make refchain) on freshly generated ones.
package ledgerdiff

import (
	"context"
	"encoding/json"
	"errors"
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

// ErrDecode is wrapped by Report.Err when a block of the dump does not
// decode; the import stops there.
var ErrDecode = errors.New("undecodable block")

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
	// error that stopped the import, if any (ErrDecode for a block that
	// does not decode).
	Imported int
	Err      error
	// Roots and Logs count the state roots and application logs compared.
	Roots, Logs int
	// Mismatches are the differences, by height.
	Mismatches []Mismatch
}

// Config loads the fixture's protocol.yml as a ledger configuration.
func Config(f *refchain.Fixtures) (config.Blockchain, error) {
	return ConfigFile(filepath.Join(f.Dir, refchain.ProtocolFile))
}

// ConfigFile loads a neo-go protocol configuration file as a ledger
// configuration.
func ConfigFile(path string) (config.Blockchain, error) {
	raw, err := os.ReadFile(path)
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
	return RunConfig(f, cfg, store, opts)
}

// RunConfig is Run with the protocol configuration given (for fixture
// directories without protocol.yml).
func RunConfig(f *refchain.Fixtures, cfg config.Blockchain, store storage.Store, opts core.Options) (*Report, error) {
	roots, err := f.StateRoots()
	if err != nil {
		return nil, err
	}
	rs := make(map[uint32]string, len(roots))
	for h, r := range roots {
		rs[uint32(h)] = r.RootHash
	}
	return Compare(cfg, f.Blocks, rs, f.AppLogs(), store, opts)
}

// Compare restores blocks (raw, in order; a leading genesis block must be
// the configuration's) into a new chain with configuration cfg over store
// (closed at the end), then compares the state root of every height in
// roots (0x-prefixed root hashes) and the application log of every block
// and transaction with logs (getapplicationlog results by 0x-prefixed
// hash).
func Compare(cfg config.Blockchain, blocks [][]byte, roots map[uint32]string, logs map[string]json.RawMessage, store storage.Store, opts core.Options) (*Report, error) {
	bc, err := core.New(cfg, store, opts)
	if err != nil {
		return nil, err
	}
	defer bc.Close()
	rep := &Report{}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("no blocks")
	}
	g, err := block.NewBlockFromBytes(blocks[0])
	if err != nil {
		return nil, err
	}
	if g.Index == 0 {
		if g.Hash() != bc.GetHeaderHash(0) {
			return nil, fmt.Errorf("genesis %s, recorded %s", bc.GetHeaderHash(0).StringLE(), g.Hash().StringLE())
		}
		blocks = blocks[1:]
	}
	ch := make(chan *block.Block, 16)
	var decodeErr error // written before close(ch), read after ch drains
	go func() {
		defer close(ch)
		for i, raw := range blocks {
			b, err := block.NewBlockFromBytes(raw)
			if err != nil {
				decodeErr = fmt.Errorf("%w: block #%d of the dump: %w", ErrDecode, i+1, err)
				return
			}
			ch <- b
		}
	}()
	rep.Err = bc.AddBlocks(context.Background(), ch)
	for range ch {
	}
	if decodeErr != nil {
		rep.Err = errors.Join(rep.Err, decodeErr)
	}
	rep.Imported = int(bc.BlockHeight())
	for h := uint32(0); h <= bc.BlockHeight(); h++ {
		if want, ok := roots[h]; ok {
			r, err := bc.GetStateRoot(h)
			rep.Roots++
			if err != nil {
				rep.Mismatches = append(rep.Mismatches, Mismatch{h, "stateroot", "", err.Error()})
			} else if got := "0x" + r.RootHash.StringLE(); got != want {
				rep.Mismatches = append(rep.Mismatches, Mismatch{h, "stateroot", "", fmt.Sprintf("recorded %s, got %s", want, got)})
			}
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

// RecordsFile reads a records file of neo-go answers (a JSON array of
// refchain.Record) into state roots by height and application logs by
// hash.
func RecordsFile(path string) (roots map[uint32]string, logs map[string]json.RawMessage, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var recs []refchain.Record
	if err := json.Unmarshal(raw, &recs); err != nil {
		return nil, nil, err
	}
	roots, logs = map[uint32]string{}, map[string]json.RawMessage{}
	for _, r := range recs {
		switch r.Method {
		case "getstateroot":
			var sr refchain.StateRoot
			if err := json.Unmarshal(r.Result, &sr); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			roots[sr.Index] = sr.RootHash
		case "getapplicationlog":
			var p []string
			if err := json.Unmarshal(r.Params, &p); err != nil || len(p) != 1 {
				return nil, nil, fmt.Errorf("%s: bad params %s", path, r.Params)
			}
			logs[p[0]] = r.Result
		}
	}
	return roots, logs, nil
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
