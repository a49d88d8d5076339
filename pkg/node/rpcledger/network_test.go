package rpcledger_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/stretchr/testify/require"
)

// TestNetworkAdapter serves the restored chain with the node's real P2P
// server behind chainrpc.Network: version data, peers and relaying with
// classified ledger errors.
func TestNetworkAdapter(t *testing.T) {
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	bc, cfg := restore(t, f)
	cfg.ApplicationConfiguration.P2P.Addresses = []string{"127.0.0.1:0"}
	scfg, err := network.NewServerConfig(cfg, "/n3node:test/")
	require.NoError(t, err)
	scfg.Logger = slog.New(slog.DiscardHandler)
	p2p, err := network.NewServer(scfg, p2pLedger{bc}, bc.Mempool())
	require.NoError(t, err)
	require.NoError(t, p2p.Start())
	t.Cleanup(p2p.Shutdown)

	nw := rpcledger.NewNetwork(p2p, "/n3node:test/", 0)
	srv := rpcserver.New(rpcserver.Config{})
	svc := chainrpc.New(rpcledger.New(bc), srv, chainrpc.Options{Network: nw})
	call := func(method, params string) (string, string) {
		res, rerr := svc.Call(method, parseParams(t, params))
		if rerr != nil {
			return "", fmt.Sprint(rerr.Code, " ", rerr.Data)
		}
		b, err := json.Marshal(res)
		require.NoError(t, err)
		return string(b), ""
	}
	port, err := nw.Port()
	require.NoError(t, err)
	require.NotZero(t, port)
	v, _ := call("getversion", `[]`)
	require.True(t, strings.HasPrefix(v, fmt.Sprintf(`{"tcpport":%d,"nonce":%d,"useragent":"/n3node:test/","protocol":{`, port, p2p.ID())), v)
	peers, _ := call("getpeers", `[]`)
	require.Equal(t, `{"unconnected":[],"connected":[],"bad":[]}`, peers)
	n, _ := call("getconnectioncount", `[]`)
	require.Equal(t, "0", n)

	tx := goodTransaction(t, f)
	b64 := base64.StdEncoding.EncodeToString(tx.Bytes())
	res, _ := call("sendrawtransaction", `["`+b64+`"]`)
	require.Equal(t, `{"hash":"0x`+tx.Hash().StringLE()+`"}`, res)
	_, e := call("sendrawtransaction", `["`+b64+`"]`)
	require.Equal(t, "-503 already exists in mempool", e)
}

// p2pLedger completes the chain for the P2P server (the node's own
// wiring is not there yet); no peer connects in the test, so the extra
// methods are never called.
type p2pLedger struct{ *core.Blockchain }

func (p2pLedger) AddHeaders(...*block.Header) error          { return errors.New("not in the test") }
func (p2pLedger) VerifyExtensible(*payload.Extensible) error { return errors.New("not in the test") }
func (l p2pLedger) PoolTx(tx *transaction.Transaction) error { return l.Blockchain.PoolTx(tx) }

// parseParams makes positional parameters of a JSON array.
func parseParams(t testing.TB, params string) neorpc.Params {
	var raws []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(params), &raws))
	p := make(neorpc.Params, len(raws))
	for i := range raws {
		p[i] = neorpc.Param{RawMessage: raws[i]}
	}
	return p
}
