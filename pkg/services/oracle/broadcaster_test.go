package oracle_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/services/oracle"
	"github.com/n3node/n3node/pkg/wallet"
)

// TestRPCBroadcaster: responses reach every configured node as
// submitoracleresponse calls whose message signature verifies.
func TestRPCBroadcaster(t *testing.T) {
	type call struct {
		Method string `json:"method"`
		Params []any  `json:"params"`
		ID     any    `json:"id"`
	}
	got := make(chan call, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c call
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		got <- c
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": c.ID, "result": map[string]any{}})
	}))
	defer srv.Close()
	b := oracle.NewRPCBroadcaster(config.OracleConfiguration{Nodes: []string{srv.URL, srv.URL}, ResponseTimeout: 5 * time.Second}, nil)
	done := make(chan struct{})
	go func() { b.Run(); close(done) }()
	k := testchain.Keys(t, 5, 1)[0]
	txSig := k.Sign([]byte("tx"))
	b.SendResponse(k, &transaction.OracleResponse{ID: 77}, txSig)
	for range 2 {
		var c call
		select {
		case c = <-got:
		case <-time.After(20 * time.Second):
			t.Fatal("no call")
		}
		require.Equal(t, "submitoracleresponse", c.Method)
		require.Len(t, c.Params, 4)
		pub, err := base64.StdEncoding.DecodeString(c.Params[0].(string))
		require.NoError(t, err)
		require.Equal(t, k.PublicKey().Bytes(), pub)
		require.EqualValues(t, 77, c.Params[1])
		sig, _ := base64.StdEncoding.DecodeString(c.Params[2].(string))
		require.Equal(t, txSig, sig)
		msgSig, _ := base64.StdEncoding.DecodeString(c.Params[3].(string))
		require.True(t, k.PublicKey().VerifyMessage(msgSig, oracle.ResponseMessage(pub, 77, txSig)))
	}
	b.Shutdown()
	<-done
}

func TestSubmitResponseChecksMessage(t *testing.T) {
	c := testchain.New(t)
	k := testchain.Keys(t, 5, 1)[0]
	s, err := oracle.New(oracle.Config{Chain: c.BC, Keys: []*keys.PrivateKey{k}})
	require.NoError(t, err)
	s.UpdateOracleNodes([]*keys.PublicKey{k.PublicKey()})
	pub := k.PublicKey().Bytes()
	txSig := make([]byte, 64)
	require.ErrorIs(t, s.SubmitResponse(pub, 1, txSig, make([]byte, 64)), oracle.ErrInvalidMessageSignature)
	require.Error(t, s.SubmitResponse([]byte{1, 2}, 1, txSig, nil))
	require.NoError(t, s.SubmitResponse(pub, 1, txSig, k.Sign(oracle.ResponseMessage(pub, 1, txSig))))
	require.Equal(t, 1, s.Pending())
}

func TestUnlockWallet(t *testing.T) {
	c := testchain.New(t)
	w := wallet.NewInMemoryWallet()
	w.Scrypt = keys.ScryptParams{N: 16, R: 1, P: 1}
	acc, err := wallet.NewAccount()
	require.NoError(t, err)
	require.NoError(t, acc.Encrypt("pass", w.Scrypt))
	w.AddAccount(acc)
	path := filepath.Join(t.TempDir(), "w.json")
	data, err := w.JSON()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o600))

	_, err = oracle.New(oracle.Config{Chain: c.BC, Main: config.OracleConfiguration{UnlockWallet: config.Wallet{Path: path, Password: "bad"}}})
	require.ErrorIs(t, err, oracle.ErrNoKeys)
	s, err := oracle.New(oracle.Config{Chain: c.BC, Main: config.OracleConfiguration{UnlockWallet: config.Wallet{Path: path, Password: "pass"}}})
	require.NoError(t, err)
	require.False(t, s.IsAuthorized()) // not designated
	_, err = oracle.New(oracle.Config{Chain: c.BC, Main: config.OracleConfiguration{UnlockWallet: config.Wallet{Path: path + ".missing"}}})
	require.Error(t, err)
}
