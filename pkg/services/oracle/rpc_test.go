package oracle_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/services/oracle"
)

// The service is chainrpc's OracleHandler as it is.
var _ chainrpc.OracleHandler = (*oracle.Service)(nil)

// TestSubmitOracleResponseRPC: chainrpc's submitoracleresponse checks the
// message signature and hands the signature to the service.
func TestSubmitOracleResponseRPC(t *testing.T) {
	c := testchain.New(t)
	k := testchain.Keys(t, 5, 1)[0]
	s, err := oracle.New(oracle.Config{Chain: c.BC, Keys: []*keys.PrivateKey{k}})
	require.NoError(t, err)
	s.UpdateOracleNodes([]*keys.PublicKey{k.PublicKey()})
	svc := chainrpc.New(rpcledger.New(c.BC), rpcserver.New(rpcserver.Config{}), chainrpc.Options{Oracle: s})
	pub := k.PublicKey().Bytes()
	txSig := make([]byte, 64)
	b64 := base64.StdEncoding.EncodeToString
	mk := func(vs ...any) neorpc.Params {
		ps := make(neorpc.Params, len(vs))
		for i, v := range vs {
			ps[i], err = neorpc.NewParam(v)
			require.NoError(t, err)
		}
		return ps
	}
	_, rerr := svc.Call("submitoracleresponse", mk(b64(pub), 3, b64(txSig), b64(make([]byte, 64))))
	require.NotNil(t, rerr)
	require.Equal(t, 0, s.Pending())
	msgSig := k.Sign(oracle.ResponseMessage(pub, 3, txSig))
	_, rerr = svc.Call("submitoracleresponse", mk(b64(pub), 3, b64(txSig), b64(msgSig)))
	require.Nil(t, rerr)
	require.Equal(t, 1, s.Pending())
}
