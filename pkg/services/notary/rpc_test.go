package notary_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"

	nio "github.com/n3node/n3node/pkg/io"
)

func params(t *testing.T, vs ...any) neorpc.Params {
	ps := make(neorpc.Params, len(vs))
	for i, v := range vs {
		p, err := neorpc.NewParam(v)
		require.NoError(t, err)
		ps[i] = p
	}
	return ps
}

// TestRPCMethods: submitnotaryrequest, getrawnotarypool and
// getrawnotarytransaction of chainrpc over the pool adapter.
func TestRPCMethods(t *testing.T) {
	e := newEnv(t, 2)
	svc := chainrpc.New(rpcledger.New(e.c.BC), rpcserver.New(rpcserver.Config{P2PSigExtensions: true}),
		chainrpc.Options{Notary: rpcledger.NewNotary(e.pool)})
	a, b := sigSigner(e.users[0]), sigSigner(e.users[1])
	main := e.mainTx(push1, 2, e.height()+100, a, b)
	req := e.requestFrom(main, []signer{a, b}, 0, e.users[0], e.users[0], e.height()+50)
	raw, err := nio.ToBytes(req)
	require.NoError(t, err)

	res, rerr := svc.Call("submitnotaryrequest", params(t, base64.StdEncoding.EncodeToString(raw)))
	require.Nil(t, rerr)
	require.Equal(t, req.FallbackTransaction.Hash(), res.(*result.RelayResult).Hash)
	require.Equal(t, 1, e.pool.Count())
	// Again: already in the pool (neo-go's -503).
	_, rerr = svc.Call("submitnotaryrequest", params(t, base64.StdEncoding.EncodeToString(raw)))
	require.NotNil(t, rerr)
	require.EqualValues(t, neorpc.ErrAlreadyInPoolCode, rerr.Code)
	// Not a payload.
	_, rerr = svc.Call("submitnotaryrequest", params(t, base64.StdEncoding.EncodeToString(raw[:10])))
	require.NotNil(t, rerr)
	require.EqualValues(t, neorpc.InvalidParamsCode, rerr.Code)

	res, rerr = svc.Call("getrawnotarypool", nil)
	require.Nil(t, rerr)
	pool := res.(*result.RawNotaryPool)
	require.Equal(t, map[string]int{main.Hash().StringLE(): 1}, hashCount(pool))

	res, rerr = svc.Call("getrawnotarytransaction", params(t, req.FallbackTransaction.Hash().StringLE()))
	require.Nil(t, rerr)
	require.Equal(t, req.FallbackTransaction.Bytes(), res)
	res, rerr = svc.Call("getrawnotarytransaction", params(t, main.Hash().StringLE(), true))
	require.Nil(t, rerr)
	require.Equal(t, main.Hash(), res.(*transaction.Transaction).Hash())
	_, rerr = svc.Call("getrawnotarytransaction", params(t, "0000000000000000000000000000000000000000000000000000000000000001"))
	require.NotNil(t, rerr)
	require.EqualValues(t, neorpc.ErrUnknownTransactionCode, rerr.Code)
}

func hashCount(p *result.RawNotaryPool) map[string]int {
	m := make(map[string]int)
	for h, fbs := range p.Hashes {
		m[h.StringLE()] = len(fbs)
	}
	return m
}
