package rpcledger_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/stretchr/testify/require"
)

const fixtureDir = "../../../testdata/refchain"

// keepOpen is a store whose Close does nothing, so that a closed chain can
// be reopened on it.
type keepOpen struct{ storage.Store }

func (keepOpen) Close() error { return nil }

// restore opens a chain configured as the fixture's protocol.yml over a
// memory store, adds every block of chain.acc, then closes and reopens it,
// as the fixture generator restarted neo-go before recording (native
// caches are then rebuilt from storage). It skips the test if the tree
// has no NEO native contract yet (the chain cannot be replayed without).
func restore(t testing.TB, f *refchain.Fixtures) (*core.Blockchain, config.Config) {
	raw, err := os.ReadFile(filepath.Join(f.Dir, refchain.ProtocolFile))
	require.NoError(t, err)
	cfg, err := config.LoadBytes(refchain.ProtocolFile, raw)
	require.NoError(t, err)
	bcfg, err := cfg.Blockchain()
	require.NoError(t, err)
	st := keepOpen{storage.NewMemoryStore()}
	bc, err := core.New(bcfg, st, core.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	if bc.Natives().ByHash(nativenames.NeoHash) == nil {
		bc.Close()
		t.Skip("no NEO native contract in this tree: the reference chain cannot be replayed")
	}
	for _, rb := range f.Blocks[1:] {
		b, err := block.NewBlockFromBytes(rb)
		require.NoError(t, err)
		require.NoError(t, bc.AddBlock(b))
	}
	require.Equal(t, f.Scenario.Height, bc.BlockHeight())
	require.NoError(t, bc.Close())
	bc, err = core.New(bcfg, st, core.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(func() { bc.Close() })
	return bc, cfg
}

// fakeNet stands for the P2P server: neo-go's port, our user agent; it
// relays by pooling.
type fakeNet struct{ l *rpcledger.Ledger }

func (fakeNet) Port() (uint16, error)                       { return 40333, nil }
func (fakeNet) ID() uint32                                  { return 1 }
func (fakeNet) UserAgent() string                           { return "/n3node:test/" }
func (fakeNet) PeerCount() int                              { return 0 }
func (fakeNet) ConnectedPeers() []result.PeerInfo           { return nil }
func (fakeNet) UnconnectedPeers() []string                  { return nil }
func (fakeNet) BadPeers() []string                          { return nil }
func (n fakeNet) RelayTx(tx *transaction.Transaction) error { return n.l.PoolTx(tx) }

// startServer serves bc with the fixture's RPC settings, changed by opts.
func startServer(t testing.TB, bc *core.Blockchain, cfg config.Config, net_ fakeNet, opts ...func(*rpcserver.Config)) string {
	rc := cfg.ApplicationConfiguration.RPC
	c := rpcserver.Config{
		MaxGasInvoke:   int64(rc.MaxGasInvoke),
		SessionEnabled: rc.SessionEnabled,
		TimePerBlock:   cfg.ProtocolConfiguration.TimePerBlock,
		DirectRelay:    rc.DirectRelay,
	}
	for _, o := range opts {
		o(&c)
	}
	srv := rpcserver.New(c)
	if net_.l == nil {
		net_.l = rpcledger.New(bc)
	}
	l := rpcledger.New(bc)
	svc := chainrpc.New(l, srv, chainrpc.Options{Network: net_})
	require.NoError(t, svc.Register())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv.Serve(ln)
	events, stop := rpcledger.Subscribe(bc, true)
	ctx, cancelFeed := context.WithCancel(context.Background())
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		chainrpc.NewFeeder(srv).Run(ctx, events)
	}()
	t.Cleanup(func() {
		cancelFeed()
		<-fed
		stop()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return "http://" + ln.Addr().String()
}

func httpCaller(url string) refchain.Caller {
	var id int
	return func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, json.RawMessage, error) {
		id++
		if len(params) == 0 {
			params = json.RawMessage("[]")
		}
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
		resp, err := http.Post(url, "application/json", bytes.NewReader([]byte(body)))
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		var r struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			return nil, nil, err
		}
		return r.Result, r.Error, nil
	}
}

// knownDifferences are the recorded answers n3node does not reproduce,
// with the reason (docs/rpc-methods.md lists them). A difference that goes
// away fails the test too, so that this list stays true.
var knownDifferences = map[string]string{
	`invokescript ["ERCh"]`: "VM fault text: neo-go prints Go's big.Int panic 'division by zero', n3node's VM 'invalid operation: Attempted to divide by zero' (pkg/vm, pkg/core/interop FaultMessage)",
}

// TestRefchainRPC restores the reference chain, serves it over HTTP and
// replays every recorded exchange (460), comparing results and errors
// (codes, messages and data) as JSON values. Only the user agent is
// ignored (tcpport is the fake network's, equal to neo-go's; the nonce is
// always ignored by refchain.Replay).
func TestRefchainRPC(t *testing.T) {
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	bc, cfg := restore(t, f)
	url := startServer(t, bc, cfg, fakeNet{})
	recs := f.AllRecords()
	require.Greater(t, len(recs), 400)
	mm, err := refchain.Replay(context.Background(), httpCaller(url), recs, refchain.ReplayOptions{
		Ignore:        map[string][]string{"getversion": {"useragent"}},
		ErrorMessages: true,
	})
	require.NoError(t, err)
	checkMismatches(t, mm, knownDifferences)
	t.Logf("%d records replayed, %d differ", len(recs), len(mm))
}

// checkMismatches fails on every mismatch not in known and on every known
// difference that did not occur.
func checkMismatches(t *testing.T, mm []refchain.Mismatch, known map[string]string) {
	t.Helper()
	seen := make(map[string]bool)
	for _, m := range mm {
		key := m.Record.Method + " " + compactJSON(m.Record.Params)
		if _, ok := known[key]; ok {
			seen[key] = true
			continue
		}
		t.Errorf("%s", m)
	}
	for key, why := range known {
		if !seen[key] {
			t.Errorf("known difference %s (%s) no longer occurs: remove it", key, why)
		}
	}
}

func compactJSON(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return string(b)
	}
	return buf.String()
}
