package clienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

// Client is one SDK's scenario under clients/.
type Client struct {
	Name   string // the directory under clients/ and the argument of clients/install.sh
	Script string // the scenario, relative to clients/<Name>
}

// Clients lists the scenarios.
var Clients = []Client{
	{Name: "neon-js", Script: "scenario.mjs"},
	{Name: "neo-mamba", Script: "scenario.py"},
}

// Steps are the steps every scenario runs, in order; Check requires each.
var Steps = []string{
	"version",             // getversion: magic, protocol fields, sessions on
	"blocks",              // getblockcount, getblockhash, getblock/getblockheader (raw and verbose)
	"contracts",           // getnativecontracts, getcontractstate (NEF checksum, manifest round trip), committee, validators, misc
	"balances",            // getnep17balances and balanceOf of the committee and of a fresh account
	"transfer-multisig",   // NEO and GAS from the committee (1-of-1 multisig), fees, wait, application logs
	"transfer-single-sig", // NEO and GAS from the fresh account to another, getnep17transfers
	"invoke",              // invokefunction (getCandidates, totalSupply, balanceOf) and invokescript
	"session",             // register a candidate, getAllCandidates iterator, traverseiterator, terminatesession
}

// Summary is the JSON line a scenario prints last on stdout.
type Summary struct {
	Client string   `json:"client"`
	SDK    string   `json:"sdk"`
	RPC    string   `json:"rpc"`
	Node   string   `json:"node"`
	OK     bool     `json:"ok"`
	Steps  []Step   `json:"steps"`
	Quirks []string `json:"quirks"` // SDK behaviour worth knowing, found while running
}

// Step is one step of a Summary. Detail holds the step's own fields
// (transaction hashes, fees, heights).
type Step struct {
	Name   string
	OK     bool
	MS     int64
	Error  string
	Detail map[string]json.RawMessage
}

// UnmarshalJSON keeps the fields other than name, ok, ms and error in Detail.
func (s *Step) UnmarshalJSON(b []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for key, dst := range map[string]any{"name": &s.Name, "ok": &s.OK, "ms": &s.MS, "error": &s.Error} {
		if raw, ok := all[key]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return fmt.Errorf("step %s: %w", key, err)
			}
			delete(all, key)
		}
	}
	s.Detail = all
	return nil
}

// ErrSummary is returned when a scenario's output has no valid summary.
var ErrSummary = errors.New("clienttest: bad scenario summary")

// ParseSummary reads the summary from a scenario's stdout: the last
// non-empty line, a JSON object.
func ParseSummary(stdout []byte) (*Summary, error) {
	lines := strings.Split(strings.TrimSpace(string(stdout)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return nil, fmt.Errorf("%w: no output", ErrSummary)
	}
	var s Summary
	if err := json.Unmarshal([]byte(last), &s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSummary, err)
	}
	return &s, nil
}

// Check returns an error unless the summary reports every step in Steps,
// in order and passed, and OK.
func (s *Summary) Check() error {
	var errs []error
	for i, name := range Steps {
		if i >= len(s.Steps) {
			errs = append(errs, fmt.Errorf("step %s did not run", name))
			continue
		}
		st := s.Steps[i]
		switch {
		case st.Name != name:
			errs = append(errs, fmt.Errorf("step %d is %q, want %q", i, st.Name, name))
		case !st.OK:
			errs = append(errs, fmt.Errorf("step %s failed: %s", name, st.Error))
		}
	}
	if len(s.Steps) > len(Steps) {
		errs = append(errs, fmt.Errorf("%d steps, want %d", len(s.Steps), len(Steps)))
	}
	if !s.OK && len(errs) == 0 {
		errs = append(errs, errors.New("summary not ok"))
	}
	return errors.Join(errs...)
}

// Fees lists the fees of the transactions the scenario sent, in order, as
// "step: sysfee/netfee". The scenarios send the same scripts from the same
// kinds of accounts whatever the node, so two nodes that agree give equal
// lists: the system fee is the node's test run of the script, the network
// fee its calculatenetworkfee.
func (s *Summary) Fees() ([]string, error) {
	var out []string
	for _, st := range s.Steps {
		raw, ok := st.Detail["transactions"]
		if !ok {
			continue
		}
		var txs []struct{ SysFee, NetFee string }
		if err := json.Unmarshal(raw, &txs); err != nil {
			return nil, fmt.Errorf("%w: step %s transactions: %w", ErrSummary, st.Name, err)
		}
		for _, tx := range txs {
			out = append(out, fmt.Sprintf("%s: %s/%s", st.Name, tx.SysFee, tx.NetFee))
		}
	}
	return out, nil
}

// Install makes sure the client's SDK is installed in the cache (see
// clients/install.sh; the first run downloads it) and returns the
// interpreter to run its scenario with.
func Install(ctx context.Context, c Client) (string, error) {
	root, err := neogo.RepoRoot()
	if err != nil {
		return "", err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "clients", "install.sh"), c.Name)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("clienttest: install %s: %w\n%s", c.Name, err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}

// Result is what one scenario run produced.
type Result struct {
	Summary *Summary // nil if the output had none
	Stdout  []byte
	Stderr  []byte // the scenario's progress log
	Err     error  // exit status, or why there is no summary
}

// Run runs the client's scenario with interpreter (from Install) against t.
// A scenario that fails still yields its summary when it printed one.
func Run(ctx context.Context, interpreter string, c Client, t Target) Result {
	root, err := neogo.RepoRoot()
	if err != nil {
		return Result{Err: err}
	}
	args := []string{filepath.Join(root, "clients", c.Name, c.Script), t.RPC, "--committee-wif", t.CommitteeWIF}
	if t.Magic != 0 {
		args = append(args, "--magic", strconv.FormatUint(uint64(t.Magic), 10))
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, interpreter, args...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	r := Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	r.Summary, err = ParseSummary(r.Stdout)
	r.Err = errors.Join(runErr, err)
	return r
}
