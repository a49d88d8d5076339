package neotest

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/n3node/n3node/pkg/compiler"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// Contract coverage works as neo-go's neotest does, so that tools reading
// its output see the same thing: when `go test -coverprofile=FILE` runs,
// neotest takes the profile over (it clears the flag so that the go tool
// does not overwrite the file) and writes, in Go's cover profile format,
// one block per sequence point of every deployed contract that has debug
// information; a block counts as covered when a test run (the fee
// estimation of every transaction neotest sends, TestInvoke) executed the
// instruction at its offset. Only -covermode=set is supported;
// DISABLE_NEOTEST_COVER=true turns coverage off.
const (
	coverProfileFlag = "test.coverprofile"
	coverModeFlag    = "test.covermode"
	coverDisableEnv  = "DISABLE_NEOTEST_COVER"
)

// coveredScript is one contract's debug information and the offsets of
// its instructions that ran, with their counts.
type coveredScript struct {
	di   *compiler.DebugInfo
	hits map[int]int
}

// coverage is an executor's collection.
type coverage struct {
	mu      sync.Mutex
	scripts map[hash.Uint160]*coveredScript
	report  sync.Once
}

// Process-wide state: the go tool's flags are read once, and the profile
// holds what every executor collected.
var (
	coverFlagsOnce sync.Once
	coverEnabled   bool
	coverFile      string
	coverFlagsErr  error

	profileMu sync.Mutex
	profile   = map[hash.Uint160]*coveredScript{}
)

func readCoverFlags() {
	if v, ok := os.LookupEnv(coverDisableEnv); ok {
		off, err := strconv.ParseBool(v)
		if err != nil {
			coverFlagsErr = fmt.Errorf("coverage: error when parsing environment variable '%s', expected bool, but got '%s'", coverDisableEnv, v)
			return
		}
		if off {
			return
		}
	}
	mode := "set"
	if f := flag.Lookup(coverModeFlag); f != nil && f.Value.String() != "" {
		mode = f.Value.String()
	}
	f := flag.Lookup(coverProfileFlag)
	if f == nil || f.Value.String() == "" {
		return
	}
	if mode != "set" {
		coverFlagsErr = fmt.Errorf("coverage: only 'set' cover mode is currently supported (#3587), got '%s'", mode)
		return
	}
	coverFile = f.Value.String()
	if err := flag.Set(coverProfileFlag, ""); err != nil {
		coverFlagsErr = fmt.Errorf("coverage: failed to overwrite coverprofile flag: %w", err)
		return
	}
	coverEnabled = true
}

// EnableCoverage turns coverage collection on for this executor if `go
// test` writes a cover profile (and DISABLE_NEOTEST_COVER is not set).
func (e *Executor) EnableCoverage(t testing.TB) {
	t.Helper()
	coverFlagsOnce.Do(readCoverFlags)
	if coverFlagsErr != nil {
		t.Fatal(coverFlagsErr)
	}
	if !coverEnabled {
		return
	}
	e.startCoverage(t, func() { writeProfileFile(t) })
}

// startCoverage makes e collect and calls flush at the end of t after
// merging e's collection into the process-wide profile.
func (e *Executor) startCoverage(t testing.TB, flush func()) {
	if e.cov != nil {
		return
	}
	c := &coverage{scripts: map[hash.Uint160]*coveredScript{}}
	e.cov = c
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		profileMu.Lock()
		for h, s := range c.scripts {
			p := profile[h]
			if p == nil {
				p = &coveredScript{di: s.di, hits: map[int]int{}}
				profile[h] = p
			}
			for off, n := range s.hits {
				p.hits[off] += n
			}
		}
		profileMu.Unlock()
		flush()
	})
}

// DisableCoverage stops coverage collection for this executor (until
// EnableCoverage).
func (e *Executor) DisableCoverage() {
	e.cov = nil
}

// trackCoverage registers a contract about to be deployed.
func (e *Executor) trackCoverage(t testing.TB, c *Contract) {
	if e.cov == nil || c.DebugInfo == nil || c.Hash == (hash.Uint160{}) {
		return
	}
	e.cov.mu.Lock()
	defer e.cov.mu.Unlock()
	if _, ok := e.cov.scripts[c.Hash]; !ok {
		e.cov.scripts[c.Hash] = &coveredScript{di: c.DebugInfo, hits: map[int]int{}}
	}
}

// hookCoverage makes v count the instructions it runs in tracked
// contracts.
func (e *Executor) hookCoverage(v *vm.VM) {
	c := e.cov
	if c == nil {
		return
	}
	h := v.Hooks()
	prev := h.PreStep
	h.PreStep = func(v *vm.VM, ctx *vm.Context, op opcode.Opcode) {
		if prev != nil {
			prev(v, ctx, op)
		}
		c.mu.Lock()
		if s, ok := c.scripts[ctx.ScriptHash()]; ok {
			s.hits[ctx.IP()]++
		}
		c.mu.Unlock()
	}
	v.SetHooks(h)
}

// coverBlock is one line of a cover profile.
type coverBlock struct {
	doc                                  string
	startLine, startCol, endLine, endCol int
	covered                              bool
}

// profileBlocks returns the blocks of scripts, one per distinct source
// span, sorted by document and position.
func profileBlocks(scripts map[hash.Uint160]*coveredScript) []coverBlock {
	type span struct {
		doc            string
		sl, sc, el, ec int
	}
	blocks := map[span]bool{}
	for _, s := range scripts {
		for _, m := range s.di.Methods {
			for _, p := range m.SeqPoints {
				if p.Document < 0 || p.Document >= len(s.di.Documents) {
					continue
				}
				k := span{s.di.Documents[p.Document], p.StartLine, p.StartCol, p.EndLine, p.EndCol}
				blocks[k] = blocks[k] || s.hits[p.Opcode] > 0
			}
		}
	}
	res := make([]coverBlock, 0, len(blocks))
	for _, k := range slices.Collect(maps.Keys(blocks)) {
		res = append(res, coverBlock{k.doc, k.sl, k.sc, k.el, k.ec, blocks[k]})
	}
	slices.SortFunc(res, func(a, b coverBlock) int {
		return cmp.Or(cmp.Compare(a.doc, b.doc), cmp.Compare(a.startLine, b.startLine), cmp.Compare(a.endLine, b.endLine),
			cmp.Compare(a.startCol, b.startCol), cmp.Compare(a.endCol, b.endCol))
	})
	return res
}

// writeProfile writes scripts' coverage in Go's cover profile format
// (mode set; a block's statement count is its number of lines).
func writeProfile(w io.Writer, scripts map[hash.Uint160]*coveredScript) error {
	if _, err := fmt.Fprintln(w, "mode: set"); err != nil {
		return err
	}
	for _, b := range profileBlocks(scripts) {
		n := 0
		if b.covered {
			n = 1
		}
		if _, err := fmt.Fprintf(w, "%s:%d.%d,%d.%d %d %d\n", b.doc, b.startLine, b.startCol, b.endLine, b.endCol,
			1+b.endLine-b.startLine, n); err != nil {
			return err
		}
	}
	return nil
}

// writeProfileFile rewrites the cover profile file with the process-wide
// profile.
func writeProfileFile(t testing.TB) {
	profileMu.Lock()
	defer profileMu.Unlock()
	f, err := os.Create(coverFile)
	if err != nil {
		t.Fatalf("coverage: can't create file '%s' to write coverage report", coverFile)
	}
	defer f.Close()
	if err := writeProfile(f, profile); err != nil {
		t.Fatalf("coverage: %v", err)
	}
}
