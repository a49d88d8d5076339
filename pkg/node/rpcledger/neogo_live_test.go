package rpcledger_test

// Live differential test against neo-go 0.120.0: the reference chain is
// restored into a neo-go node and into ours, and the extra query set goes
// to both; every answer must be equal (results and errors, messages
// included). With N3NODE_NEOGO_UPDATE=1 neo-go's answers are written to
// testdata/neogo-extra.json, which TestNeoGoExtraRecords replays in the
// default suite. It runs only with N3NODE_NEOGO=1 (make rpc-live).

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/stretchr/testify/require"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startNeoGoChain restores the reference chain into a new neo-go node with
// the fixture's config (consensus off) plus rpcExtra lines in its RPC
// section, and starts it. It returns the node's RPC client.
func startNeoGoChain(t *testing.T, f *refchain.Fixtures, rpcExtra ...string) *neogo.Client {
	t.Helper()
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to run against neo-go 0.120.0 (make rpc-live)")
	}
	ctx := context.Background()
	bin, err := neogo.Binary(ctx)
	require.NoError(t, err)
	tmpl, err := os.ReadFile(filepath.Join(f.Dir, refchain.ProtocolFile))
	require.NoError(t, err)
	rpcPort, p2pPort := freePort(t), freePort(t)
	cfg, err := neogo.RenderConfig(tmpl, neogo.ConfigOptions{P2PPort: p2pPort, RPCPort: rpcPort, Consensus: false})
	require.NoError(t, err)
	extra := ""
	for _, l := range rpcExtra {
		extra += "    " + l + "\n"
	}
	s := strings.Replace(string(cfg), "    SessionEnabled: false\n", extra, 1)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "protocol.yml"), []byte(s), 0o600))
	w, err := os.ReadFile(filepath.Join(f.Dir, "wallet1_solo.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wallet1_solo.json"), w, 0o600))
	acc, err := filepath.Abs(filepath.Join(f.Dir, refchain.ChainAccFile))
	require.NoError(t, err)
	require.NoError(t, neogo.Restore(ctx, bin, dir, acc))
	n, err := neogo.Start(ctx, neogo.StartOptions{Binary: bin, Dir: dir, Config: []byte(s), RPCPort: rpcPort, P2PPort: p2pPort})
	require.NoError(t, err)
	t.Cleanup(func() { n.Stop() })
	return n.RPC
}

func TestNeoGoLiveDiff(t *testing.T) {
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	st := defaultExtraSettings
	ref := startNeoGoChain(t, f,
		"SessionEnabled: false",
		fmt.Sprintf("MaxIteratorResultItems: %d", st.MaxIteratorResultItems),
		fmt.Sprintf("MaxFindResultItems: %d", st.MaxFindResultItems),
		fmt.Sprintf("MaxFindStoragePageSize: %d", st.MaxFindStorageResultItems))
	bc, cfg := restore(t, f)
	url := startServer(t, bc, cfg, fakeNet{}, st.apply)
	ours := httpCaller(url)
	roots, err := f.StateRoots()
	require.NoError(t, err)
	ctx := context.Background()
	var recs []refchain.Record
	for _, qr := range extraQueries(t, f, roots) {
		params, err := json.Marshal(qr.Params)
		require.NoError(t, err)
		resp, err := ref.CallRaw(ctx, qr.Method, json.RawMessage(params))
		require.NoError(t, err, "%s %s", qr.Method, params)
		rec := refchain.Record{Method: qr.Method, Params: params, Result: resp.Result, Error: resp.Error}
		recs = append(recs, rec)
		res, rerr, err := ours(ctx, qr.Method, params)
		require.NoError(t, err)
		if _, ok := knownExtraDifferences[qr.Method+" "+compactJSON(params)]; ok {
			continue
		}
		if d := refchain.Compare(rec, res, rerr, extraReplayOptions); d != "" {
			t.Errorf("%s %s: %s", qr.Method, params, d)
		}
	}
	t.Logf("%d queries compared", len(recs))
	if os.Getenv("N3NODE_NEOGO_UPDATE") != "" {
		data, err := encodeExtra(extraRecords{Settings: st, Records: recs})
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(extraFile), 0o755))
		require.NoError(t, os.WriteFile(extraFile, append(data, '\n'), 0o644))
		t.Logf("wrote %s", extraFile)
	}
}

// encodeExtra writes the records one compact record per line.
func encodeExtra(ex extraRecords) ([]byte, error) {
	st, err := json.Marshal(ex.Settings)
	if err != nil {
		return nil, err
	}
	out := append([]byte(`{"settings":`), st...)
	out = append(out, ",\n\"records\":[\n"...)
	for i, r := range ex.Records {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
		if i < len(ex.Records)-1 {
			out = append(out, ',')
		}
		out = append(out, '\n')
	}
	return append(out, "]}"...), nil
}
