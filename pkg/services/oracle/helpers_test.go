package oracle_test

import (
	"crypto/tls"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/services/oracle"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"

	nio "github.com/n3node/n3node/pkg/io"
)

// deployUser deploys a contract whose request(url, filter, callback,
// userData, gas) calls OracleContract.request and whose
// handle(url, userData, code, result) sends Callback [url, userData, code,
// len(result)].
func deployUser(c *testchain.Chain) *state.Contract {
	anyT := smartcontract.AnyType
	p := chaintest.Param
	b := chaintest.NewContractBuilder("OracleUser")
	b.Method("request", []manifest.Parameter{p("url", smartcontract.StringType), p("filter", anyT), p("callback", smartcontract.StringType),
		p("userData", anyT), p("gas", smartcontract.IntegerType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		for i := 4; i >= 0; i-- {
			emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(i))
		}
		emit.Int(w, 5)
		emit.Opcodes(w, opcode.PACK)
		emit.Int(w, int64(callflag.All))
		emit.String(w, "request")
		emit.Bytes(w, nativenames.OracleHash[:])
		emit.Syscall(w, interop.SystemContractCall)
		emit.Opcodes(w, opcode.DROP)
	})
	b.Method("handle", []manifest.Parameter{p("url", smartcontract.StringType), p("userData", anyT), p("code", smartcontract.IntegerType),
		p("result", smartcontract.ByteArrayType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG3, opcode.SIZE) // the result is in the transaction
		for i := 2; i >= 0; i-- {
			emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(i))
		}
		emit.Int(w, 4)
		emit.Opcodes(w, opcode.PACK)
		emit.String(w, "Callback")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	b.Event("Callback", p("url", anyT), p("userData", anyT), p("code", anyT), p("result", anyT))
	return c.Deploy(b)
}

// env is a chain with designated Oracle nodes, the user contract and an
// https test server.
type env struct {
	t     *testing.T
	c     *testchain.Chain
	user  *state.Contract
	keys  []*keys.PrivateKey
	nodes []*keys.PublicKey
	srv   *httptest.Server
	mux   *http.ServeMux

	mu  sync.Mutex
	now time.Time
}

func newEnv(t *testing.T, nNodes int) *env {
	c := testchain.New(t)
	e := &env{t: t, c: c, keys: testchain.Keys(t, 7, nNodes), mux: http.NewServeMux(), now: time.Unix(1_700_000_000, 0)}
	e.nodes = testchain.Pubs(e.keys)
	c.Designate(noderoles.Oracle, e.nodes)
	e.user = deployUser(c)
	e.srv = httptest.NewTLSServer(e.mux)
	t.Cleanup(e.srv.Close)
	return e
}

func (e *env) clock() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

func (e *env) advance(d time.Duration) {
	e.mu.Lock()
	e.now = e.now.Add(d)
	e.mu.Unlock()
}

// handle serves body with status and content type at path.
func (e *env) handle(path string, status int, ctype string, body []byte) string {
	e.mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})
	return e.srv.URL + path
}

// request makes an Oracle request in a new block and returns the
// request transaction.
func (e *env) request(url string, filter any, gas int64) *transaction.Transaction {
	e.t.Helper()
	script := chaintest.CallScript(e.user.Hash, "request", url, filter, "handle", "ud", gas)
	tx := e.c.SignCommittee(e.c.NewTx(script, 10_0000_0000, 1000_0000,
		transaction.Signer{Account: e.c.Account(), Scopes: transaction.CalledByEntry}))
	e.c.AddBlock(tx)
	return tx
}

// pool is an OnTransaction that pools in the chain's memory pool and
// reports each pooled transaction.
type pool struct {
	e   *env
	out chan *transaction.Transaction
}

func newPool(e *env) *pool { return &pool{e: e, out: make(chan *transaction.Transaction, 64)} }

func (p *pool) onTx(tx *transaction.Transaction) error {
	err := p.e.c.BC.PoolTx(tx)
	if err == nil {
		p.out <- tx
	}
	return err
}

func (p *pool) wait(t *testing.T) *transaction.Transaction {
	t.Helper()
	select {
	case tx := <-p.out:
		return tx
	case <-time.After(20 * time.Second):
		t.Fatal("no oracle response transaction pooled")
		return nil
	}
}

// callback adds the pooled transactions in a block, checks the Callback
// notification of response tx and returns the code and result.
func (e *env) callback(tx *transaction.Transaction) (transaction.OracleResponseCode, []byte) {
	e.t.Helper()
	e.c.AddPooled()
	aer := e.c.AppLog(tx.Hash())
	require.Equal(e.t, "HALT", aer.VMState.String(), aer.FaultException)
	var cb stackitem.Item
	for _, ev := range aer.Events {
		if ev.Name == "Callback" {
			cb = ev.Item
		}
	}
	require.NotNil(e.t, cb, "no callback")
	items := cb.Value().([]stackitem.Item)
	code, err := items[2].TryInteger()
	require.NoError(e.t, err)
	size, err := items[3].TryInteger()
	require.NoError(e.t, err)
	resp := tx.Attributes[0].Value.(*transaction.OracleResponse)
	require.EqualValues(e.t, len(resp.Result), size.Int64())
	require.EqualValues(e.t, resp.Code, code.Int64())
	return resp.Code, resp.Result
}

// fakeBroadcaster delivers response signatures to the other services
// through SubmitResponse (as the RPC handler would).
type fakeBroadcaster struct {
	mu    sync.Mutex
	peers []*oracle.Service
	drop  bool
}

func (b *fakeBroadcaster) SendResponse(priv *keys.PrivateKey, resp *transaction.OracleResponse, txSig []byte) {
	b.mu.Lock()
	peers, drop := b.peers, b.drop
	b.mu.Unlock()
	if drop {
		return
	}
	pub := priv.PublicKey().Bytes()
	msg := priv.Sign(oracle.ResponseMessage(pub, resp.ID, txSig))
	for _, p := range peers {
		if err := p.SubmitResponse(pub, resp.ID, txSig, msg); err != nil {
			panic(err)
		}
	}
}
func (b *fakeBroadcaster) setPeers(ps []*oracle.Service) {
	b.mu.Lock()
	b.peers = ps
	b.mu.Unlock()
}

func (b *fakeBroadcaster) Run()      {}
func (b *fakeBroadcaster) Shutdown() {}

// newService makes a started service for key k answering through client.
func (e *env) newService(k *keys.PrivateKey, client oracle.HTTPClient, b oracle.Broadcaster, onTx func(*transaction.Transaction) error, main config.OracleConfiguration) *oracle.Service {
	e.t.Helper()
	main.AllowPrivateHost = true
	s, err := oracle.New(oracle.Config{
		Chain:         e.c.BC,
		Main:          main,
		Keys:          []*keys.PrivateKey{k},
		HTTPClient:    client,
		Broadcaster:   b,
		OnTransaction: onTx,
		Now:           e.clock,
	})
	require.NoError(e.t, err)
	s.Start()
	e.t.Cleanup(s.Shutdown)
	return s
}

// rewriteClient serves every request with a fixed body (per-node
// answers without a server).
type rewriteClient struct{ body string }

func (c rewriteClient) Do(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(c.body))}, nil
}

// tlsClient is the test server's client (trusts its certificate).
func (e *env) tlsClient() *http.Client { return e.srv.Client() }

// tlsConfig is the test server's client TLS configuration.
func (e *env) tlsConfig() *tls.Config {
	return e.srv.Client().Transport.(*http.Transport).TLSClientConfig
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }
