package rpcledger_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/stretchr/testify/require"
)

// benchCalls are typical wallet and explorer queries on the reference
// chain.
var benchCalls = []struct{ name, method, params string }{
	{"getblockcount", "getblockcount", `[]`},
	{"getblock-verbose", "getblock", `[4, true]`},
	{"getrawtransaction-verbose", "getrawtransaction", `["0x85d62555284480da852e9cd3f753afb5c521277136629f6613e2ad750347a82f", true]`},
	{"getapplicationlog", "getapplicationlog", `["0x85d62555284480da852e9cd3f753afb5c521277136629f6613e2ad750347a82f"]`},
	{"invokefunction-balanceOf", "invokefunction", `["0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", "balanceOf", [{"type":"Hash160","value":"0xa8ef80bdb2abba80a51a2d6cfa0096e4be3765ba"}]]`},
	{"getnep17balances", "getnep17balances", `["NcuY8AnCYH2whtGtd7LC6BUEhbCkbeuoSJ"]`},
	{"getnep17transfers", "getnep17transfers", `["NcuY8AnCYH2whtGtd7LC6BUEhbCkbeuoSJ", 0, 32503680000000]`},
	{"getunclaimedgas", "getunclaimedgas", `["NcuY8AnCYH2whtGtd7LC6BUEhbCkbeuoSJ"]`},
	{"getproof", "getproof", `["0x5c0c3f413840d6b4a01d56bf7ff1a904e9e51486d551840d00e5188d8267ceca", "0xa6bea8681690baac1d0959b99dca30823d6bee8b", "YWxwaGE="]`},
	{"calculatenetworkfee", "calculatenetworkfee", `["AD9CDwAA4fUFAAAAAAAAAAAAAAAAiBMAAAG6ZTe+5JYA+mwtGqWAuquyvYDvqAEAWwsCAOH1BQwUP+bPoB8VycjhJD1uJFak2YBn/AAMFLplN77klgD6bC0apYC6q7K9gO+oFMAfDAh0cmFuc2ZlcgwUz3bii9AGLEpHjuNVYQETGfPPpNJBYn1bUjkBQgxA4bXGfREeQC/Lxtt/pEjMReGWipnyo3HnV2fz8xtZi92wJakr9ISQPUQXnXLmF4B2NPcLy8DO5WSuN2EApicHlygMIQLX3lHfiUYgrzDvMNqAalgOUufrhlhZZSJFT3I3GKUEVUFW57Mn"]`},
}

// BenchmarkMethods calls chain methods in process (handler and result
// encoding, no HTTP) on the restored reference chain.
func BenchmarkMethods(b *testing.B) {
	f, err := refchain.Load(fixtureDir)
	require.NoError(b, err)
	bc, cfg := restore(b, f)
	srv := rpcserver.New(rpcserver.Config{MaxGasInvoke: int64(cfg.ApplicationConfiguration.RPC.MaxGasInvoke)})
	svc := chainrpc.New(rpcledger.New(bc), srv, chainrpc.Options{})
	for _, c := range benchCalls {
		p := parseParams(b, c.params)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, rerr := svc.Call(c.method, p)
				if rerr != nil {
					b.Fatal(rerr)
				}
				if _, ok := res.(json.RawMessage); ok {
					continue // the server writes it as it is
				}
				if _, err := json.Marshal(res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHTTP sends the same calls over HTTP, to our server or (with
// N3NODE_BENCH_RPC=http://host:port) to another node, e.g. neo-go holding
// the reference chain; one request at a time.
func BenchmarkHTTP(b *testing.B) {
	url := os.Getenv("N3NODE_BENCH_RPC")
	if url == "" {
		f, err := refchain.Load(fixtureDir)
		require.NoError(b, err)
		bc, cfg := restore(b, f)
		url = startServer(b, bc, cfg, fakeNet{})
	}
	call := httpCaller(url)
	for _, c := range benchCalls {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, rerr, err := call(b.Context(), c.method, json.RawMessage(c.params))
				if err != nil || rerr != nil {
					b.Fatal(fmt.Sprint(err, string(rerr)))
				}
			}
		})
	}
}

// TestNeoGoBenchCompare (N3NODE_NEOGO=1 N3NODE_NEOGO_BENCH=1) measures the
// benchCalls over HTTP, one request at a time, against neo-go 0.120.0 and
// our server, both holding the reference chain, and logs a table.
func TestNeoGoBenchCompare(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO_BENCH") == "" {
		t.Skip("set N3NODE_NEOGO=1 N3NODE_NEOGO_BENCH=1 to compare with neo-go")
	}
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	ref := startNeoGoChain(t, f)
	bc, cfg := restore(t, f)
	ours := startServer(t, bc, cfg, fakeNet{})
	for _, c := range benchCalls {
		var us []float64
		for _, url := range []string{ref.URL, ours} {
			call := httpCaller(url)
			r := testing.Benchmark(func(b *testing.B) {
				for b.Loop() {
					if _, rerr, err := call(b.Context(), c.method, json.RawMessage(c.params)); err != nil || rerr != nil {
						b.Fatal(fmt.Sprint(err, string(rerr)))
					}
				}
			})
			us = append(us, float64(r.NsPerOp())/1000)
		}
		t.Logf("%-28s neo-go %7.1f µs   n3node %7.1f µs", c.name, us[0], us[1])
	}
}
