package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/storage"
)

const (
	crashKeys   = 20000
	crashMaxGen = 12
	crashKills  = 3
)

var crashMarker = []byte("\x21gen")

func crashKey(i int) string { return fmt.Sprintf("\x20%06d", i) }

// crashChangeSet is generation gen of the crash test's change set: it
// rewrites every key with a value naming gen, deletes every fifth key in odd
// generations, and sets the marker to gen. After a crash, the marker says
// which generation the store must hold in full.
func crashChangeSet(gen int) map[string][]byte {
	cs := make(map[string][]byte, crashKeys+1)
	for i := range crashKeys {
		cs[crashKey(i)] = crashValue(gen, i)
	}
	cs[string(crashMarker)] = strconv.AppendInt(nil, int64(gen), 10)
	return cs
}

func crashValue(gen, i int) []byte {
	if gen == 0 || (gen%2 == 1 && i%5 == 0) {
		return nil
	}
	return fmt.Appendf(nil, "g%06d|%s", gen, bytes.Repeat([]byte{byte('a' + gen%26)}, 64+i%32))
}

// verifyGeneration checks that s holds exactly one whole generation and
// returns it.
func verifyGeneration(t *testing.T, s storage.Store) int {
	t.Helper()
	gen := 0
	if v, err := s.Get(crashMarker); err == nil {
		gen, err = strconv.Atoi(string(v))
		if err != nil {
			t.Fatalf("marker %q: %v", v, err)
		}
	} else if !errors.Is(err, storage.ErrKeyNotFound) {
		t.Fatal(err)
	}
	seen := 0
	s.Seek(storage.SeekRange{Prefix: []byte{0x20}}, func(k, v []byte) bool {
		i, err := strconv.Atoi(string(k[1:]))
		if err != nil {
			t.Fatalf("key %q", k)
		}
		if want := crashValue(gen, i); !bytes.Equal(v, want) {
			t.Fatalf("torn change set: marker says generation %d, key %d holds %.8q (want %.8q)", gen, i, v, want)
		}
		seen++
		return true
	})
	want := 0
	for i := range crashKeys {
		if crashValue(gen, i) != nil {
			want++
		}
	}
	if seen != want {
		t.Fatalf("torn change set: generation %d should hold %d keys, found %d", gen, want, seen)
	}
	return gen
}

// TestCrashAtomicity kills a child process with SIGKILL while it writes
// large change sets, then checks that each disk backend holds all of the
// change set being written or none of it.
func TestCrashAtomicity(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("spawns processes; skipped with -short and -race (run it without -race)")
	}
	for _, engine := range []storage.Engine{storage.EnginePebble, storage.EngineBolt, storage.EngineLevelDB} {
		t.Run(string(engine), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(len(engine)), 7))
			path := diskPath(t, engine)
			midWrite := 0
			for kill := range crashKills {
				h := startHelper(t, "crash", engine, path)
				target := 2 + r.IntN(3)
				lastBegin, lastDone := 0, 0
				var lastDur time.Duration
				parse := func(l string) {
					f := strings.Fields(l)
					switch {
					case len(f) >= 2 && f[0] == "begin":
						lastBegin, _ = strconv.Atoi(f[1])
					case len(f) == 3 && f[0] == "done":
						lastDone, _ = strconv.Atoi(f[1])
						us, _ := strconv.Atoi(f[2])
						lastDur = time.Duration(us) * time.Microsecond
					case strings.HasPrefix(l, "error"):
						t.Fatalf("child: %s", l)
					}
				}
				for lastBegin < target {
					l := h.line()
					if l == "" {
						t.Fatal("child ended early")
					}
					parse(l)
				}
				// Aim the kill inside the write: a random point of the
				// time the previous generation took.
				time.Sleep(time.Duration(r.Int64N(int64(lastDur) + 1)))
				if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				// Read what the child printed before it died (up to EOF), and
				// only then reap it: Wait closes the pipe.
				for l := h.line(); l != ""; l = h.line() {
					parse(l)
				}
				_ = h.cmd.Wait()
				if lastDone < lastBegin {
					midWrite++
				}

				s := openDisk(t, engine, path)
				gen := verifyGeneration(t, s)
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if gen < lastDone || gen > lastBegin {
					t.Fatalf("kill %d: store holds generation %d; the child had begun %d and finished %d", kill, gen, lastBegin, lastDone)
				}
				t.Logf("kill %d: begun %d, finished %d, store holds %d", kill, lastBegin, lastDone, gen)
			}
			t.Logf("%d of %d kills landed inside PutChangeSet", midWrite, crashKills)
		})
	}
}
