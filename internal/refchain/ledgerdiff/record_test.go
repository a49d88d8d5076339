package ledgerdiff_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/stretchr/testify/require"
)

// neoGoDumps are neo-go's own test chain dumps, replayed with the unit
// test network configuration.
var neoGoDumps = []string{"testblocks", "chain50x2"}

const dumpsDir = "../../testdata/vectors/neogo"

// TestRecordNeoGoDumps regenerates testdata/vectors/neogo/<dump>.records.json
// with neo-go 0.120.0: it restores each dump with `neogo db restore` under
// the unit_testnet protocol configuration, starts the node (consensus off)
// and records getstateroot of every height and getapplicationlog of every
// block and transaction. Run with N3NODE_NEOGO_RECORD=1 (needs the neo-go
// binary, see scripts/get-neogo.sh).
func TestRecordNeoGoDumps(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO_RECORD") == "" {
		t.Skip("set N3NODE_NEOGO_RECORD=1 to regenerate the neo-go dump records")
	}
	ctx := context.Background()
	bin, err := neogo.Binary(ctx)
	require.NoError(t, err)
	proto, err := config.EmbeddedConfig("unit_testnet")
	require.NoError(t, err)
	protoPart, _, ok := bytes.Cut(proto, []byte("\nApplicationConfiguration:"))
	require.True(t, ok)
	app := `
ApplicationConfiguration:
  SkipBlockVerification: false
  DBConfiguration:
    Type: leveldb
    LevelDBOptions:
      DataDirectoryPath: chain
  P2P:
    Addresses:
      - "127.0.0.1:40343"
    MinPeers: 0
    MaxPeers: 1
  RPC:
    Enabled: true
    Addresses:
      - "127.0.0.1:40342"
    MaxGasInvoke: 15
`
	for _, name := range neoGoDumps {
		dir := t.TempDir()
		cfg := append(append([]byte{}, protoPart...), app...)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "protocol.yml"), cfg, 0o644))
		in, err := filepath.Abs(filepath.Join(dumpsDir, name+".acc"))
		require.NoError(t, err)
		require.NoError(t, neogo.Restore(ctx, bin, dir, in))
		node, err := neogo.Start(ctx, neogo.StartOptions{Binary: bin, Dir: dir, Config: cfg, RPCPort: 40342, P2PPort: 40343, StartTimeout: time.Minute})
		require.NoError(t, err)
		recs, err := recordDump(ctx, node.RPC, filepath.Join(dumpsDir, name+".acc"))
		require.NoError(t, node.Stop())
		require.NoError(t, err)
		out, err := json.MarshalIndent(recs, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dumpsDir, name+".records.json"), append(out, '\n'), 0o644))
		t.Logf("%s: %d records", name, len(recs))
	}
}

func recordDump(ctx context.Context, c *neogo.Client, file string) ([]refchain.Record, error) {
	var count uint32
	if err := c.Call(ctx, "getblockcount", &count); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	r, err := chaindump.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var recs []refchain.Record
	call := func(method string, params ...any) error {
		p, _ := json.Marshal(params)
		resp, err := c.CallRaw(ctx, method, json.RawMessage(p))
		if err != nil {
			return err
		}
		recs = append(recs, refchain.Record{Method: method, Params: p, Result: resp.Result, Error: resp.Error})
		return nil
	}
	for h := uint32(0); h < count; h++ {
		if err := call("getstateroot", h); err != nil {
			return nil, err
		}
	}
	var g json.RawMessage
	if err := c.Call(ctx, "getblockhash", &g, 0); err != nil {
		return nil, err
	}
	if err := call("getapplicationlog", strings.Trim(string(g), `"`)); err != nil {
		return nil, err
	}
	for {
		raw, err := r.Next()
		if err != nil {
			break
		}
		b, err := block.NewBlockFromOwnedBytes(raw)
		if err != nil {
			return nil, err
		}
		if err := call("getapplicationlog", "0x"+b.Hash().StringLE()); err != nil {
			return nil, err
		}
		for _, tx := range b.Transactions {
			if err := call("getapplicationlog", "0x"+tx.Hash().StringLE()); err != nil {
				return nil, err
			}
		}
	}
	return recs, nil
}
