package refchain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Files of a fixture directory (testdata/refchain).
const (
	ChainAccFile = "chain.acc"     // the dump, genesis included, C# layout
	ScenarioFile = "scenario.json" // what the chain holds (see Scenario)
	ProtocolFile = "protocol.yml"  // neo-go config the chain was built with
	RPCDir       = "rpc"           // recorded JSON-RPC request/response pairs
)

// Record files under RPCDir.
const (
	BlocksRecords       = "blocks"       // per height: getblockhash, getblock, getblockheader, getstateroot, getapplicationlog
	TransactionsRecords = "transactions" // per tx: getrawtransaction, gettransactionheight, getapplicationlog
	StateRecords        = "state"        // queries at the final height
	ErrorRecords        = "errors"       // malformed or unanswerable requests
)

// Record is one JSON-RPC exchange: the request's method and params and the
// answer's result or error, as the reference node produced them.
type Record struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Account is one account of the scenario.
type Account struct {
	Name       string `json:"name"`
	Address    string `json:"address"`
	ScriptHash string `json:"scripthash"` // 0x-prefixed, reversed (C# ToString) order
	PublicKey  string `json:"publickey,omitempty"`
	WIF        string `json:"wif,omitempty"` // test keys only; never use them elsewhere
	Note       string `json:"note,omitempty"`
}

// Contract is a contract the scenario deployed (or a native one it uses).
type Contract struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
	ID   int32  `json:"id"`
	Note string `json:"note,omitempty"`
}

// TxInfo describes one scenario transaction.
type TxInfo struct {
	Step        string `json:"step"`
	Description string `json:"description"`
	Hash        string `json:"hash"`
	Block       uint32 `json:"block"`
	VMState     string `json:"vmstate"`
	Exception   string `json:"exception,omitempty"`
}

// Scenario is the human- and test-readable summary of the chain.
type Scenario struct {
	NeoGoVersion string     `json:"neogoversion"`
	Network      uint32     `json:"network"`
	Height       uint32     `json:"height"` // index of the last block
	Accounts     []Account  `json:"accounts"`
	Contracts    []Contract `json:"contracts"`
	Transactions []TxInfo   `json:"transactions"`
}

// Fixtures is a loaded fixture directory.
type Fixtures struct {
	Dir      string
	Blocks   [][]byte // raw blocks from chain.acc; Blocks[i] is height i
	Scenario Scenario
	Records  map[string][]Record // by record file name without ".json"

	index map[string]Record // method + canonical params -> first record; built by Find
}

// Load reads a fixture directory written by the generator.
func Load(dir string) (*Fixtures, error) {
	f := &Fixtures{Dir: dir, Records: make(map[string][]Record)}
	acc, err := os.ReadFile(filepath.Join(dir, ChainAccFile))
	if err != nil {
		return nil, err
	}
	start, blocks, err := ReadChainAcc(acc)
	if err != nil {
		return nil, err
	}
	if start != 0 {
		return nil, fmt.Errorf("%w: dump starts at %d, want the genesis", ErrChainAcc, start)
	}
	f.Blocks = blocks
	if err := readJSON(filepath.Join(dir, ScenarioFile), &f.Scenario); err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, RPCDir, "*.json"))
	if err != nil {
		return nil, err
	}
	for _, p := range files {
		var recs []Record
		if err := readJSON(p, &recs); err != nil {
			return nil, err
		}
		f.Records[strings.TrimSuffix(filepath.Base(p), ".json")] = recs
	}
	return f, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// AllRecords returns every record, files in name order.
func (f *Fixtures) AllRecords() []Record {
	names := make([]string, 0, len(f.Records))
	for n := range f.Records {
		names = append(names, n)
	}
	slices.Sort(names)
	var all []Record
	for _, n := range names {
		all = append(all, f.Records[n]...)
	}
	return all
}

// ErrNotRecorded is returned by Find when no record matches.
var ErrNotRecorded = errors.New("refchain: no such record")

// Find returns the first record of method whose params equal params (compared
// as JSON values, so 1 and 1.0 or key order do not matter). It indexes the
// records on first use; do not modify Records afterwards.
func (f *Fixtures) Find(method string, params ...any) (Record, error) {
	if params == nil {
		params = []any{}
	}
	want, err := json.Marshal(params)
	if err != nil {
		return Record{}, err
	}
	wv, err := decodeJSON(want)
	if err != nil {
		return Record{}, err
	}
	if f.index == nil {
		f.index = make(map[string]Record)
		for _, r := range f.AllRecords() {
			pv, err := decodeJSON(r.Params)
			if err != nil {
				continue
			}
			k := r.Method + " " + canonicalNumbers(pv)
			if _, dup := f.index[k]; !dup {
				f.index[k] = r
			}
		}
	}
	if r, ok := f.index[method+" "+canonicalNumbers(wv)]; ok {
		return r, nil
	}
	return Record{}, fmt.Errorf("%w: %s %s", ErrNotRecorded, method, want)
}

// canonicalNumbers is canonical with numbers normalised (1.0 and 1e0 become 1).
func canonicalNumbers(v any) string {
	var norm func(any) any
	norm = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = norm(e)
			}
		case []any:
			for i, e := range x {
				x[i] = norm(e)
			}
		case json.Number:
			if r, ok := new(big.Rat).SetString(string(x)); ok {
				return json.Number(r.RatString())
			}
		}
		return v
	}
	return canonical(norm(v))
}

// StateRoot is the state root neo-go reported for one height.
type StateRoot struct {
	Version  int    `json:"version"`
	Index    uint32 `json:"index"`
	RootHash string `json:"roothash"`
}

// StateRoots returns the recorded state root of every height, indexed by
// height. It fails if a height lacks one.
func (f *Fixtures) StateRoots() ([]StateRoot, error) {
	roots := make([]StateRoot, len(f.Blocks))
	seen := make([]bool, len(f.Blocks))
	for _, r := range f.Records[BlocksRecords] {
		if r.Method != "getstateroot" || len(r.Result) == 0 {
			continue
		}
		var sr StateRoot
		if err := json.Unmarshal(r.Result, &sr); err != nil {
			return nil, fmt.Errorf("getstateroot %s: %w", r.Params, err)
		}
		if int(sr.Index) >= len(roots) {
			return nil, fmt.Errorf("getstateroot %s: index %d beyond the chain", r.Params, sr.Index)
		}
		roots[sr.Index], seen[sr.Index] = sr, true
	}
	for h, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("no state root recorded for height %d", h)
		}
	}
	return roots, nil
}

// AppLogs returns the recorded getapplicationlog results keyed by the
// container hash as sent ("0x"-prefixed block or transaction hash).
func (f *Fixtures) AppLogs() map[string]json.RawMessage {
	logs := make(map[string]json.RawMessage)
	for _, r := range f.AllRecords() {
		if r.Method != "getapplicationlog" || len(r.Result) == 0 {
			continue
		}
		var p []json.RawMessage
		var h string
		if json.Unmarshal(r.Params, &p) != nil || len(p) != 1 || json.Unmarshal(p[0], &h) != nil {
			continue
		}
		logs[normHash(h)] = r.Result
	}
	return logs
}

func normHash(h string) string {
	return "0x" + strings.ToLower(strings.TrimPrefix(h, "0x"))
}

// decodeJSON decodes a JSON value keeping numbers as json.Number.
func decodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}
