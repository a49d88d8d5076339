package oracle_test

import (
	"bytes"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/services/oracle"
	"github.com/n3node/n3node/pkg/smartcontract"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
}

const gas = 1_0000_0000

// TestSingleNodeCodes runs one request per response code through a
// one-node Oracle: the response transaction is pooled by the chain's
// verification, included in a block and calls the user back with the
// code and result.
func TestSingleNodeCodes(t *testing.T) {
	e := newEnv(t, 1)
	p := newPool(e)
	e.newService(e.keys[0], e.tlsClient(), &fakeBroadcaster{}, p.onTx, config.OracleConfiguration{
		AllowedContentTypes: []string{"application/json", "text/plain"},
	})
	const limit = transaction.MaxOracleResultSize
	js := []byte(`{"a":[1,{"b":"é"}],"c":null}`)
	cases := []struct {
		name   string
		url    string
		filter any
		gas    int64
		code   transaction.OracleResponseCode
		result string
	}{
		{"success", e.handle("/ok", 200, "application/json; charset=utf-8", js), nil, gas, transaction.Success, string(js)},
		{"filter", e.handle("/f", 200, "application/json", js), "$.a[1].b", gas, transaction.Success, `["\u00E9"]`},
		{"empty filter", e.srv.URL + "/f", "", gas, transaction.Success, `[{"a":[1,{"b":"\u00E9"}],"c":null}]`},
		{"bad filter", e.srv.URL + "/f", "$.&", gas, transaction.Error, ""},
		{"filter on non-JSON", e.handle("/text", 200, "text/plain", []byte("hello")), "$", gas, transaction.Error, ""},
		{"not found", e.handle("/404", 404, "", nil), nil, gas, transaction.NotFound, ""},
		{"forbidden", e.handle("/403", 403, "", nil), nil, gas, transaction.Forbidden, ""},
		{"timeout status", e.handle("/408", 408, "", nil), nil, gas, transaction.Timeout, ""},
		{"server error", e.handle("/500", 500, "", nil), nil, gas, transaction.Error, ""},
		{"content type", e.handle("/html", 200, "text/html", []byte("<p>")), nil, gas, transaction.ContentTypeNotSupported, ""},
		{"bad content type", e.handle("/ctype", 200, "a;;b", []byte("x")), nil, gas, transaction.ContentTypeNotSupported, ""},
		{"not UTF-8", e.handle("/bin", 200, "text/plain", []byte{0xff, 0xfe}), nil, gas, transaction.Error, ""},
		{"empty body", e.handle("/empty", 200, "text/plain", nil), nil, gas, transaction.Error, ""},
		{"largest", e.handle("/max", 200, "text/plain", bytes.Repeat([]byte("x"), limit)), nil, 2 * gas, transaction.Success, strings.Repeat("x", limit)},
		{"too large", e.handle("/big", 200, "text/plain", bytes.Repeat([]byte("x"), limit+1)), nil, gas, transaction.ResponseTooLarge, ""},
		{"insufficient funds", e.srv.URL + "/max", nil, gas / 10, transaction.InsufficientFunds, ""},
		{"filtered too large", e.handle("/grow", 200, "application/json", []byte(`["`+strings.Repeat("y", 7000)+`"]`)),
			"$[" + strings.Repeat("0,", 9) + "0]", 2 * gas, transaction.ResponseTooLarge, ""},
		{"http", "http://" + strings.TrimPrefix(e.srv.URL, "https://") + "/ok", nil, gas, transaction.ProtocolNotSupported, ""},
		{"neofs", "neofs:Zq2KK8mNbUC7KwJz6jNLLyGQdwwcmYAEvNhXoUDhJTn/3vS43Ez1Fbn9SJDZmBK1fUBAcuB5B8WK7NyJgqaFPLLE", nil, gas, transaction.Error, ""},
		{"relative", "data", nil, gas, transaction.ProtocolNotSupported, ""},
		{"unreachable", "https://127.0.0.1:1/x", nil, gas, transaction.Error, ""},
	}
	ran := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.request(c.url, c.filter, c.gas)
			tx := p.wait(t)
			code, res := e.callback(tx)
			require.Equal(t, c.code, code)
			require.Equal(t, c.result, string(res))
			// The fees are the request's GAS, split as neo-go splits them.
			require.Equal(t, c.gas, tx.NetworkFee+tx.SystemFee)
			ran++
		})
	}
	require.Equal(t, len(cases), ran)
}

// TestResponseTxFees checks the network fee of a completed response: the
// Oracle contract's verify, the multisig check and the size, exactly.
func TestResponseTxFees(t *testing.T) {
	for _, n := range []int{1, 4, 7} {
		e := newEnv(t, n)
		e.t = t
		b := &fakeBroadcaster{}
		p := newPool(e)
		var svcs []*oracle.Service
		for _, k := range e.keys {
			svcs = append(svcs, e.newService(k, rewriteClient{body: `{"x":1}`}, b, p.onTx, config.OracleConfiguration{}))
		}
		b.setPeers(svcs)
		e.request("https://example.com/x", nil, gas)
		tx := p.wait(t)

		bc := e.c.BC
		script, err := smartcontract.CreateDefaultMultiSigRedeemScript(e.nodes)
		require.NoError(t, err)
		require.Equal(t, []transaction.Signer{{Account: nativenames.OracleHash, Scopes: transaction.None},
			{Account: hash.Hash160(script), Scopes: transaction.None}}, tx.Signers)
		require.Equal(t, uint32(0), tx.Nonce) // the request id
		require.Equal(t, bc.Natives().Oracle().ResponseScript(), tx.Script)
		verify, err := bc.VerifyWitness(nativenames.OracleHash, tx, &transaction.Witness{}, bc.GetMaxVerificationGAS())
		require.NoError(t, err)
		m, _, _ := smartcontract.ParseMultiSigContractMN(script)
		require.Len(t, tx.Witnesses[1].InvocationScript, 66*m)
		multisig, _, _ := oracle.MultisigNetFee(bc.GetBaseExecFee(), script)
		require.Equal(t, verify+multisig+int64(tx.Size())*bc.FeePerByte(), tx.NetworkFee, "nodes %d", n)
		code, res := e.callback(tx)
		require.Equal(t, transaction.Success, code)
		require.Equal(t, `{"x":1}`, string(res))
	}
}

// TestFourNodes: four Oracle nodes agree through their signature
// exchange; the response needs 3 of them.
func TestFourNodes(t *testing.T) {
	e := newEnv(t, 4)
	e.handle("/v", 200, "application/json", []byte(`{"v":42}`))
	b := &fakeBroadcaster{}
	p := newPool(e)
	var svcs []*oracle.Service
	for _, k := range e.keys {
		svcs = append(svcs, e.newService(k, e.tlsClient(), b, p.onTx, config.OracleConfiguration{}))
	}
	b.setPeers(svcs)
	for _, s := range svcs {
		require.True(t, s.IsAuthorized())
	}
	e.request(e.srv.URL+"/v", "$.v", gas)
	tx := p.wait(t)
	code, res := e.callback(tx)
	require.Equal(t, transaction.Success, code)
	require.Equal(t, "[42]", string(res))
	// The answered request is forgotten by every node (by the next block
	// for a node that was late).
	require.Eventually(t, func() bool {
		e.c.AddBlock()
		for _, s := range svcs {
			if s.Pending() != 0 {
				return false
			}
		}
		return true
	}, 20*time.Second, 10*time.Millisecond)
}

// TestBackupResponse: two nodes see one answer and two another, so no
// response gets 3 signatures; after RefreshInterval every node signs the
// backup (ConsensusUnreachable), which completes.
func TestBackupResponse(t *testing.T) {
	e := newEnv(t, 4)
	b := &fakeBroadcaster{}
	p := newPool(e)
	var svcs []*oracle.Service
	for i, k := range e.keys {
		body := `"A"`
		if i%2 == 1 {
			body = `"B"`
		}
		svcs = append(svcs, e.newService(k, rewriteClient{body: body}, b, p.onTx, config.OracleConfiguration{}))
	}
	b.setPeers(svcs)
	e.request("https://example.com/split", nil, gas)
	require.Eventually(t, func() bool {
		for _, s := range svcs {
			if s.Pending() != 1 || !s.Processed(0) {
				return false
			}
		}
		return true
	}, 20*time.Second, 10*time.Millisecond)
	select {
	case tx := <-p.out:
		t.Fatalf("unexpected response %s", tx.Hash().StringLE())
	default:
	}
	e.advance(oracle.DefaultRefreshInterval + time.Second)
	for _, s := range svcs {
		s.Refresh()
	}
	tx := p.wait(t)
	code, res := e.callback(tx)
	require.Equal(t, transaction.ConsensusUnreachable, code)
	require.Empty(t, res)
}

// TestMaxTaskTimeout: a request nobody answers is dropped after
// MaxTaskTimeout.
func TestMaxTaskTimeout(t *testing.T) {
	e := newEnv(t, 4)
	b := &fakeBroadcaster{drop: true}
	s := e.newService(e.keys[0], rewriteClient{body: `1`}, b, func(*transaction.Transaction) error { return nil }, config.OracleConfiguration{})
	e.request("https://example.com/lonely", nil, gas)
	require.Eventually(t, func() bool { return s.Processed(0) }, 20*time.Second, 10*time.Millisecond)
	e.advance(oracle.DefaultMaxTaskTimeout + time.Second)
	s.Refresh()
	require.Equal(t, 0, s.Pending())
	// A late signature for the dropped request does not bring it back
	// until the next refresh.
	pub := e.keys[1].PublicKey()
	s.AddResponse(pub, 0, make([]byte, 64))
	require.Equal(t, 0, s.Pending())
}

// TestStartLoadsPending: requests made before the service starts are
// answered at Start.
func TestStartLoadsPending(t *testing.T) {
	e := newEnv(t, 1)
	p := newPool(e)
	url := e.handle("/early", 200, "application/json", []byte(`[1]`))
	e.request(url, nil, gas)
	e.request(url, "$[0]", gas)
	e.newService(e.keys[0], e.tlsClient(), &fakeBroadcaster{}, p.onTx, config.OracleConfiguration{})
	got := map[string]bool{}
	for range 2 {
		tx := p.wait(t)
		got[string(tx.Attributes[0].Value.(*transaction.OracleResponse).Result)] = true
	}
	require.Equal(t, map[string]bool{"[1]": true}, got)
}

// TestNotDesignated: a node whose key is not designated does nothing.
func TestNotDesignated(t *testing.T) {
	e := newEnv(t, 1)
	p := newPool(e)
	s := e.newService(testchain.Keys(t, 99, 1)[0], e.tlsClient(), &fakeBroadcaster{}, p.onTx, config.OracleConfiguration{})
	require.False(t, s.IsAuthorized())
	e.request("https://example.com/x", nil, gas)
	e.c.AddBlock()
	require.Equal(t, 0, s.Pending())
}

// TestPrivateHost: the default client refuses loopback addresses unless
// AllowPrivateHost, and bounds redirections.
func TestPrivateHost(t *testing.T) {
	e := newEnv(t, 1)
	url := e.handle("/p", 200, "text/plain", []byte("p"))
	e.mux.HandleFunc("/r0", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/p", http.StatusFound) })
	e.mux.HandleFunc("/r1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/r0", http.StatusFound) })
	e.mux.HandleFunc("/r2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/r1", http.StatusFound) })
	e.mux.HandleFunc("/insecure", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+r.Host+"/p", http.StatusFound)
	})
	p := newPool(e)

	private := oracle.NewHTTPClient(config.OracleConfiguration{RequestTimeout: 5 * time.Second})
	allowed := oracle.NewHTTPClient(config.OracleConfiguration{AllowPrivateHost: true, RequestTimeout: 5 * time.Second})
	allowed.Transport.(*http.Transport).TLSClientConfig = e.tlsConfig()
	cases := []struct {
		name   string
		client oracle.HTTPClient
		url    string
		code   transaction.OracleResponseCode
	}{
		{"private refused", private, url, transaction.Forbidden},
		{"private allowed", allowed, url, transaction.Success},
		{"two redirections", allowed, e.srv.URL + "/r1", transaction.Success},
		{"three redirections", allowed, e.srv.URL + "/r2", transaction.Forbidden},
		{"to http", allowed, e.srv.URL + "/insecure", transaction.Forbidden},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			s := e.newService(e.keys[0], c.client, &fakeBroadcaster{}, p.onTx, config.OracleConfiguration{})
			e.request(c.url, nil, gas)
			tx := p.wait(t)
			s.Shutdown()
			code, _ := e.callback(tx)
			require.Equal(t, c.code, code, "case %d", i)
		})
	}
}

func TestIsReserved(t *testing.T) {
	for s, want := range map[string]bool{
		"8.8.8.8": false, "1.1.1.1": false, "2001:4860:4860::8888": false,
		"10.1.2.3": true, "100.64.0.1": true, "127.0.0.1": true, "169.254.1.1": true, "172.16.5.4": true,
		"172.32.0.1": false, "192.0.0.8": true, "192.168.1.1": true, "198.18.0.1": true, "198.20.0.1": false,
		"0.0.0.0": true, "255.255.255.255": true, "224.0.0.1": true, "::1": true, "::": true,
		"fc00::1": true, "fd12::1": true, "fe80::1": true, "fec0::1": true, "ff02::1": true,
		"2002:0a00:0001::1": true, "2002:0808:0808::1": false, "::ffff:10.0.0.1": true, "::ffff:8.8.8.8": false,
	} {
		require.Equal(t, want, oracle.IsReserved(net.ParseIP(s)), s)
	}
}
