package rpcserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/n3node/n3node/pkg/neorpc"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testServer is a server with a few test methods.
func testServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	s := New(cfg)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Register("getblockcount", func(context.Context, neorpc.Params) (any, *neorpc.Error) {
		return uint32(42), nil
	}))
	must(s.Register("echoint", func(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
		n, err := p.Value(0).GetInt()
		if err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, err.Error())
		}
		return n, nil
	}))
	must(s.Register("panics", func(context.Context, neorpc.Params) (any, *neorpc.Error) {
		panic("boom")
	}))
	must(s.Register("nilresult", func(context.Context, neorpc.Params) (any, *neorpc.Error) {
		return nil, nil
	}))
	must(s.Register("bytes", func(context.Context, neorpc.Params) (any, *neorpc.Error) {
		return []byte{1, 2, 3}, nil
	}))
	must(s.Register("struct", func(context.Context, neorpc.Params) (any, *neorpc.Error) {
		return struct {
			A string `json:"a"`
		}{"<x>"}, nil
	}))
	return s
}

// do sends one HTTP request to the handler directly.
func do(t testing.TB, s *Server, method, body string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, "/", strings.NewReader(body))
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func post(t testing.TB, s *Server, body string) string {
	t.Helper()
	rec := do(t, s, http.MethodPost, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	return rec.Body.String()
}

func TestHTTPAnswers(t *testing.T) {
	s := testServer(t, Config{})
	cases := []struct{ name, body, want string }{
		{"ok", `{"jsonrpc":"2.0","method":"getblockcount","params":[],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":42}`},
		{"string id and no params", `{"jsonrpc":"2.0","method":"getblockcount","id":"x"}`,
			`{"id":"x","jsonrpc":"2.0","result":42}`},
		{"no id", `{"jsonrpc":"2.0","method":"getblockcount"}`,
			`{"id":null,"jsonrpc":"2.0","result":42}`},
		{"id object compacted", `{"jsonrpc":"2.0","method":"getblockcount","id":{"a": [1, 2]}}`,
			`{"id":{"a":[1,2]},"jsonrpc":"2.0","result":42}`},
		{"malformed", `{"jsonrpc":"2.0",`,
			`{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"error parsing JSON payload: unexpected EOF"}}`},
		{"garbage", `xyz`,
			`{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"error parsing JSON payload: invalid character 'x' looking for beginning of value"}}`},
		{"empty body", ``,
			`{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"error parsing JSON payload: EOF"}}`},
		{"not an object", `"abc"`,
			"{\"id\":null,\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\",\"data\":\"`[` expected, got abc\"}}"},
		{"params object", `{"jsonrpc":"2.0","method":"getblockcount","params":{},"id":1}`,
			"{\"id\":null,\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\",\"data\":\"`[` expected, got {\"}}"},
		{"wrong version", `{"jsonrpc":"1.0","method":"getblockcount","id":1}`,
			`{"id":1,"jsonrpc":"1.0","error":{"code":-32602,"message":"Invalid params","data":"problem parsing JSON: invalid version, expected 2.0 got '1.0'"}}`},
		{"no version", `{"method":"getblockcount","id":1}`,
			`{"id":1,"jsonrpc":"","error":{"code":-32602,"message":"Invalid params","data":"problem parsing JSON: invalid version, expected 2.0 got ''"}}`},
		{"null body", `null`,
			`{"id":null,"jsonrpc":"","error":{"code":-32602,"message":"Invalid params","data":"problem parsing JSON: invalid version, expected 2.0 got ''"}}`},
		{"missing method", `{"jsonrpc":"2.0","id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":"method \"\" not supported"}}`},
		{"unknown method", `{"jsonrpc":"2.0","method":"getfoo","id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":"method \"getfoo\" not supported"}}`},
		{"not yet implemented method", `{"jsonrpc":"2.0","method":"getblock","params":[1],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":"method \"getblock\" not supported"}}`},
		{"control chars dropped from method", "{\"jsonrpc\":\"2.0\",\"method\":\"getblock\\u0000count\",\"id\":1}",
			`{"id":1,"jsonrpc":"2.0","result":42}`},
		{"subscribe over HTTP", `{"jsonrpc":"2.0","method":"subscribe","params":["block_added"],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":"method \"subscribe\" not supported"}}`},
		{"lenient int", `{"jsonrpc":"2.0","method":"echoint","params":["12"],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":12}`},
		{"bool as int", `{"jsonrpc":"2.0","method":"echoint","params":[true],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":1}`},
		{"bad int string", `{"jsonrpc":"2.0","method":"echoint","params":["1x"],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":"strconv.Atoi: parsing \"1x\": invalid syntax"}}`},
		{"float as int", `{"jsonrpc":"2.0","method":"echoint","params":[1.5],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":"not an integer"}}`},
		{"missing param", `{"jsonrpc":"2.0","method":"echoint","params":[],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":"parameter is missing"}}`},
		{"handler panic", `{"jsonrpc":"2.0","method":"panics","id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error","data":"panics: internal error"}}`},
		{"nil result", `{"jsonrpc":"2.0","method":"nilresult","id":1}`,
			`{"id":1,"jsonrpc":"2.0"}`},
		{"bytes result", `{"jsonrpc":"2.0","method":"bytes","id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":"AQID"}`},
		{"struct result", `{"jsonrpc":"2.0","method":"struct","id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":{"a":"\u003cx\u003e"}}`},
		{"validateaddress valid", `{"jsonrpc":"2.0","method":"validateaddress","params":["NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":{"address":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","isvalid":true}}`},
		{"validateaddress invalid", `{"jsonrpc":"2.0","method":"validateaddress","params":["AKkkumHbBipZ46UMZJoFynJMXzSRnBvKcs"],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":{"address":"AKkkumHbBipZ46UMZJoFynJMXzSRnBvKcs","isvalid":false}}`},
		{"validateaddress number", `{"jsonrpc":"2.0","method":"validateaddress","params":[1],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","result":{"address":1,"isvalid":false}}`},
		{"validateaddress null", `{"jsonrpc":"2.0","method":"validateaddress","params":[null],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":"Invalid params"}}`},
		{"validateaddress none", `{"jsonrpc":"2.0","method":"validateaddress","params":[],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":"Invalid params"}}`},
		{"sessions disabled", `{"jsonrpc":"2.0","method":"traverseiterator","params":[],"id":1}`,
			`{"id":1,"jsonrpc":"2.0","error":{"code":-601,"message":"Sessions disabled"}}`},
		{"batch", `[{"jsonrpc":"2.0","method":"getblockcount","id":1},{"jsonrpc":"2.0","method":"nope","id":2},{"jsonrpc":"1","method":"getblockcount","id":3}]`,
			`[{"id":1,"jsonrpc":"2.0","result":42},{"id":2,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":"method \"nope\" not supported"}},{"id":3,"jsonrpc":"1","error":{"code":-32602,"message":"Invalid params","data":"problem parsing JSON: invalid version, expected 2.0 got '1'"}}]`},
		{"empty batch", `[]`,
			`{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"empty request"}}`},
		{"batch with a non-object", `[{"jsonrpc":"2.0","method":"getblockcount","id":1},5]`,
			`{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"json: cannot unmarshal number into Go value of type params.In"}}`},
		{"batch with null", `[null]`,
			`[{"id":null,"jsonrpc":"","error":{"code":-32602,"message":"Invalid params","data":"problem parsing JSON: invalid version, expected 2.0 got ''"}}]`},
		{"trailing data ignored", `{"jsonrpc":"2.0","method":"getblockcount","id":1} {"x"`,
			`{"id":1,"jsonrpc":"2.0","result":42}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := post(t, s, c.body); got != c.want+"\n" {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestBatchLimit(t *testing.T) {
	s := testServer(t, Config{})
	call := `{"jsonrpc":"2.0","method":"getblockcount","id":1}`
	batch := func(n int) string { return "[" + strings.Repeat(call+",", n-1) + call + "]" }
	var res []json.RawMessage
	if err := json.Unmarshal([]byte(post(t, s, batch(101))), &res); err != nil || len(res) != 101 {
		t.Fatalf("101 calls: %d answers, %v", len(res), err)
	}
	want := `{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"the number of requests in batch shouldn't exceed 100"}}` + "\n"
	if got := post(t, s, batch(102)); got != want {
		t.Fatalf("got %s", got)
	}
}

func TestBodyLimit(t *testing.T) {
	s := testServer(t, Config{MaxRequestBodyBytes: 100})
	big := `{"jsonrpc":"2.0","method":"getblockcount","params":["` + strings.Repeat("a", 200) + `"],"id":1}`
	want := `{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error","data":"error parsing JSON payload: http: request body too large"}}` + "\n"
	if got := post(t, s, big); got != want {
		t.Fatalf("got %s", got)
	}
	// A complete value within the limit followed by more bytes is served,
	// as neo-go's streaming decoder never reads past the value.
	ok := `{"jsonrpc":"2.0","method":"getblockcount","id":1}` + strings.Repeat(" ", 200)
	if got := post(t, s, ok); got != `{"id":1,"jsonrpc":"2.0","result":42}`+"\n" {
		t.Fatalf("got %s", got)
	}
	// Default limit: 1 MiB.
	s = testServer(t, Config{})
	huge := `{"jsonrpc":"2.0","method":"getblockcount","params":["` + strings.Repeat("a", 1<<20) + `"],"id":1}`
	if got := post(t, s, huge); got != want {
		t.Fatalf("got %s", got)
	}
}

func TestHTTPMethodsAndCORS(t *testing.T) {
	s := testServer(t, Config{})
	rec := do(t, s, http.MethodGet, "")
	want := `{"id":null,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":"invalid method 'GET', please retry with 'POST'"}}` + "\n"
	if rec.Body.String() != want || rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("GET: %s %v", rec.Body, rec.Header())
	}
	rec = do(t, s, http.MethodOptions, "")
	if !strings.Contains(rec.Body.String(), "invalid method 'OPTIONS'") {
		t.Fatalf("OPTIONS without CORS: %s", rec.Body)
	}

	s = testServer(t, Config{EnableCORSWorkaround: true})
	rec = do(t, s, http.MethodOptions, "")
	h := rec.Header()
	if rec.Code != 200 || rec.Body.Len() != 0 || h.Get("Access-Control-Allow-Origin") != "*" ||
		h.Get("Access-Control-Allow-Methods") != "GET, POST" || h.Get("Access-Control-Max-Age") != "21600" ||
		h.Get("Access-Control-Allow-Headers") != "Content-Type, Access-Control-Allow-Headers, Authorization, X-Requested-With" {
		t.Fatalf("preflight: %d %q %v", rec.Code, rec.Body, h)
	}
	rec = do(t, s, http.MethodPost, `{"jsonrpc":"2.0","method":"getblockcount","id":1}`)
	h = rec.Header()
	if h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Access-Control-Allow-Methods") != "" ||
		h.Get("Access-Control-Allow-Headers") == "" {
		t.Fatalf("CORS response headers: %v", h)
	}
}

func TestHeaderLimit(t *testing.T) {
	s := testServer(t, Config{MaxRequestHeaderBytes: 1024, Addresses: []string{"127.0.0.1:0"}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	url := "http://" + s.Addresses()[0]
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","method":"getblockcount","id":1}`))
	req.Header.Set("X-Big", strings.Repeat("a", 8000))
	cl := &http.Client{Transport: &http.Transport{}}
	defer cl.CloseIdleConnections()
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","method":"getblockcount","id":1}`))
	resp, err = cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != `{"id":1,"jsonrpc":"2.0","result":42}`+"\n" {
		t.Fatalf("after limit: %s", b)
	}
}

func TestRegisterAfterStart(t *testing.T) {
	s := New(Config{Addresses: []string{"127.0.0.1:0"}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	if err := s.Register("x", nil); err != ErrServerStarted {
		t.Fatal(err)
	}
	if err := New(Config{Addresses: []string{"127.0.0.1:0", "bad address"}}).Start(); err == nil {
		t.Fatal("listen error expected")
	}
}

// checkAnswer verifies a JSON-RPC answer's shape.
func checkAnswer(t testing.TB, body []byte) {
	t.Helper()
	var objs []map[string]json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if err := json.Unmarshal(body, &objs); err != nil {
			t.Fatalf("bad batch answer %q: %v", body, err)
		}
	} else {
		var o map[string]json.RawMessage
		if err := json.Unmarshal(body, &o); err != nil {
			t.Fatalf("bad answer %q: %v", body, err)
		}
		objs = append(objs, o)
	}
	for _, o := range objs {
		_, hasRes := o["result"]
		e, hasErr := o["error"]
		if _, ok := o["id"]; !ok || hasRes == hasErr {
			t.Fatalf("bad answer object %q", body)
		}
		if _, ok := o["jsonrpc"]; !ok {
			t.Fatalf("no version in %q", body)
		}
		if hasErr {
			var re neorpc.Error
			if err := json.Unmarshal(e, &re); err != nil || re.Code == 0 || re.Message == "" {
				t.Fatalf("bad error object %q", body)
			}
		}
	}
}

func FuzzServeHTTP(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"getblockcount","params":[],"id":1}`,
		`[{"jsonrpc":"2.0","method":"echoint","params":["5"],"id":1},{"jsonrpc":"2.0","method":"x"}]`,
		`{"jsonrpc":"2.0","method":"validateaddress","params":["NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"],"id":"a"}`,
		`{"jsonrpc":"2.0","method":"traverseiterator","params":["01234567-89ab-cdef-0123-456789abcdef","x",1],"id":1}`,
		`{"jsonrpc":"2.0","method":"terminatesession","params":[1],"id":1}`,
		`[]`, `{`, `null`, `[null]`, `{"id":{"a":"<"}}`,
	} {
		f.Add([]byte(s))
	}
	s := testServer(f, Config{SessionEnabled: true, MaxRequestBodyBytes: 4096})
	s.Register("nilresult", func(context.Context, neorpc.Params) (any, *neorpc.Error) { return 1, nil })
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := do(t, s, http.MethodPost, string(body))
		if rec.Code != http.StatusOK {
			t.Fatalf("status %d", rec.Code)
		}
		checkAnswer(t, rec.Body.Bytes())
	})
	s.Sessions().Close()
}

func ExampleServer_Register() {
	srv := New(Config{})
	_ = srv.Register("getblockcount", func(ctx context.Context, p neorpc.Params) (any, *neorpc.Error) {
		return uint32(1), nil
	})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/", strings.NewReader(`{"jsonrpc":"2.0","method":"getblockcount","params":[],"id":1}`)))
	fmt.Print(rec.Body.String())
	// Output: {"id":1,"jsonrpc":"2.0","result":1}
}

func TestTLSListener(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, pool := writeSelfSigned(t, dir)
	s := testServer(t, Config{TLSConfig: TLSConfig{Enabled: true, Addresses: []string{"127.0.0.1:0"},
		CertFile: certFile, KeyFile: keyFile}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr}
	resp, err := cl.Post("https://"+s.Addresses()[0], "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","method":"getblockcount","id":1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if string(b) != `{"id":1,"jsonrpc":"2.0","result":42}`+"\n" {
		t.Fatal(string(b))
	}
}

// writeSelfSigned writes a certificate for 127.0.0.1 and its key.
func writeSelfSigned(t *testing.T, dir string) (string, string, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "n3node test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}
