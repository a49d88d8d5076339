package core_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/n3node/n3node/pkg/core/transferlog"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/stretchr/testify/require"
)

const crashHelperEnv = "N3NODE_CORE_CRASH_HELPER"

const crashSeed = 1_000_000_0000_0000

// TestCrashHelper is the child of TestCrashSafety: it imports the dump into
// the database and is killed somewhere in the middle.
func TestCrashHelper(t *testing.T) {
	spec := os.Getenv(crashHelperEnv)
	if spec == "" {
		t.Skip("only runs as a child of TestCrashSafety")
	}
	dump, dir, _ := strings.Cut(spec, "|")
	c := testchain.New(t, testchain.Options{Store: openPebble(t, dir), Core: core.Options{PersistInterval: 20 * time.Millisecond}})
	if c.BC.BlockHeight() == 0 {
		c.BC.SeedGASForTest(c.Account(), crashSeed)
	}
	blocks := readBlocks(t, dump)
	fmt.Println("ready")
	in := make(chan *block.Block)
	go func() {
		defer close(in)
		for _, b := range blocks[c.BC.BlockHeight():] {
			in <- b
		}
	}()
	require.NoError(t, c.BC.AddBlocks(context.Background(), in))
	fmt.Println("done")
}

func readBlocks(t testing.TB, path string) []*block.Block {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := chaindump.NewReader(f)
	require.NoError(t, err)
	var blocks []*block.Block
	for {
		raw, err := r.Next()
		if errors.Is(err, io.EOF) {
			return blocks
		}
		require.NoError(t, err)
		b, err := block.NewBlockFromOwnedBytes(raw)
		require.NoError(t, err)
		blocks = append(blocks, b)
	}
}

// A node killed with SIGKILL in the middle of an import reopens at a
// consistent height: the state root, block, transaction and transfer records
// of exactly the blocks up to it, nothing of the next; the import then goes
// on from there to the same final state as an uninterrupted one.
func TestCrashSafety(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("process-kill test: skipped with -short and -race")
	}
	const n = 1000
	gen := testchain.New(t)
	blocks, _ := genBlocks(gen, mustHeader(t, gen.BC, 0), n)
	tmp := t.TempDir()
	dump := filepath.Join(tmp, "blocks.acc")
	f, err := os.Create(dump)
	require.NoError(t, err)
	w, err := chaindump.NewWriter(f, 1, n, true)
	require.NoError(t, err)
	for _, b := range blocks {
		require.NoError(t, w.WriteBlock(b.Bytes()))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())

	ref := testchain.New(t)
	ref.BC.SeedGASForTest(gen.Account(), crashSeed)
	require.NoError(t, ref.BC.AddBlocks(context.Background(), streamBlocks(blocks)))

	kills := 0
	for round := range 3 {
		dir := filepath.Join(tmp, fmt.Sprintf("db%d", round))
		var height uint32
		for try := 0; ; try++ {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), crashHelperEnv+"="+dump+"|"+dir)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			sc := bufio.NewScanner(out)
			for sc.Scan() && sc.Text() != "ready" {
			}
			time.Sleep(time.Duration(10+rand.IntN(250)) * time.Millisecond)
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()

			store := openPebble(t, dir)
			bc, err := core.New(testchain.Config(t, testchain.Options{}), store, core.Options{})
			require.NoError(t, err, "round %d: reopen after kill", round)
			height = bc.BlockHeight()
			if height == 0 {
				t.Logf("child output: %s", stderr.String())
			}
			checkConsistent(t, bc, ref.BC, blocks, height)
			require.NoError(t, bc.Close())
			if height < n || try == 5 {
				break
			}
		}
		if height < n {
			kills++
		}
		// Continue the import where it stopped.
		store := openPebble(t, dir)
		bc, err := core.New(testchain.Config(t, testchain.Options{}), store, core.Options{})
		require.NoError(t, err)
		if height == 0 {
			bc.SeedGASForTest(gen.Account(), crashSeed)
		}
		require.NoError(t, bc.AddBlocks(context.Background(), streamBlocks(blocks[height:])))
		checkConsistent(t, bc, ref.BC, blocks, n)
		require.NoError(t, bc.Close())
		t.Logf("round %d: killed at height %d, resumed to %d", round, height, n)
	}
	require.Positive(t, kills, "no import was interrupted")
}

// checkConsistent checks that bc holds exactly blocks[:height] as ref
// does.
func checkConsistent(t *testing.T, bc, ref *core.Blockchain, blocks []*block.Block, height uint32) {
	t.Helper()
	require.GreaterOrEqual(t, bc.HeaderHeight(), height)
	want, err := ref.GetStateRoot(height)
	require.NoError(t, err)
	got, err := bc.GetStateRoot(height)
	require.NoError(t, err)
	require.Equal(t, want, got, "state root at %d", height)
	require.Equal(t, want.RootHash, bc.StateModule().CurrentLocalStateRoot())
	if height > 0 {
		require.Equal(t, blocks[height-1].Hash(), bc.CurrentBlockHash())
		b := blocks[height-1]
		aers, err := bc.GetAppExecResults(b.Transactions[0].Hash(), trigger.All)
		require.NoError(t, err)
		wantAers, err := ref.GetAppExecResults(b.Transactions[0].Hash(), trigger.All)
		require.NoError(t, err)
		require.Equal(t, wantAers[0].GasConsumed, aers[0].GasConsumed)
	}
	if int(height) < len(blocks) {
		_, err := bc.GetAppExecResults(blocks[height].Hash(), trigger.All)
		require.Error(t, err, "results of block %d after a crash at %d", height+1, height)
		_, _, err = bc.GetTransaction(blocks[height].Transactions[0].Hash())
		require.Error(t, err)
	}
	// Transfer logs end at the same block: one xfer per block from 2 on.
	var cnt uint32
	require.NoError(t, bc.ForEachTransfer(hash.Uint160{2}, false, ^uint64(0), func(*transferlog.Transfer) (bool, error) {
		cnt++
		return true, nil
	}))
	require.Equal(t, max(height, 1)-1, cnt)
}
