package storage_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/storage"
)

// The tests that need a second process (a lock holder, a writer to kill)
// re-run this test binary with helperEnv set; TestHelperProcess then does
// the child's part and exits.
const helperEnv = "N3NODE_STORAGE_HELPER"

// helper is a running child process.
type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
}

// startHelper starts the child with the given mode, engine and path.
func startHelper(t *testing.T, mode string, engine storage.Engine, path string) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%s", helperEnv, mode, engine, path))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout)}
	t.Cleanup(func() {
		_ = h.cmd.Process.Kill()
		_ = h.cmd.Wait()
	})
	return h
}

// line returns the child's next output line ("" at EOF).
func (h *helper) line() string {
	if h.out.Scan() {
		return h.out.Text()
	}
	return ""
}

// await reads lines until one equals want; it fails at EOF.
func (h *helper) await(t *testing.T, want string) {
	t.Helper()
	for {
		l := h.line()
		if l == want {
			return
		}
		if l == "" {
			t.Fatalf("helper ended before printing %q", want)
		}
	}
}

func TestHelperProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("only runs as a child of another test")
	}
	parts := strings.SplitN(spec, "|", 3)
	mode, engine, path := parts[0], storage.Engine(parts[1]), parts[2]
	s, err := storage.Open(storage.Options{Engine: engine, Path: path, Pebble: testPebble, LevelDB: testLevelDB})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	switch mode {
	case "lock":
		// Hold the database open until the parent closes stdin.
		fmt.Println("ready")
		_, _ = io.Copy(io.Discard, os.Stdin)
		_ = s.Close()
	case "crash":
		crashWriter(s)
	}
	os.Exit(0)
}

// crashWriter commits generation after generation of crashChangeSet,
// announcing each on stdout, until the parent kills it.
func crashWriter(s storage.Store) {
	w := bufio.NewWriter(os.Stdout)
	for gen := 1; gen <= crashMaxGen; gen++ {
		cs := crashChangeSet(gen)
		fmt.Fprintf(w, "begin %d\n", gen)
		w.Flush()
		start := time.Now()
		if err := s.PutChangeSet(cs); err != nil {
			fmt.Fprintf(w, "error: %v\n", err)
			w.Flush()
			os.Exit(1)
		}
		fmt.Fprintf(w, "done %d %d\n", gen, time.Since(start).Microseconds())
		w.Flush()
	}
	_ = s.Close()
}
