package rpcclient

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcserver"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// countingListener counts accepted connections.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// sendRaw is a sendrawtransaction stand-in: it returns the SHA-256 of the
// decoded bytes as the hash.
func sendRaw(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
	if len(p) < 1 {
		return nil, neorpc.NewInvalidParamsError("not enough parameters")
	}
	b, err := p[0].GetBytesBase64()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError("not a base64: " + err.Error())
	}
	if len(b) == 0 {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrMempoolCapReached, "mempool is full")
	}
	h := hash.Sha256(b)
	return json.RawMessage(`{"hash":"` + h.String() + `"}`), nil
}

func newTestServer(t testing.TB, cfg rpcserver.Config) (*rpcserver.Server, *countingListener) {
	t.Helper()
	s := rpcserver.New(cfg)
	reg := func(m string, h rpcserver.Handler) {
		if err := s.Register(m, h); err != nil {
			t.Fatal(err)
		}
	}
	reg("getblockcount", func(context.Context, neorpc.Params) (any, *neorpc.Error) { return uint32(7), nil })
	reg("getversion", func(context.Context, neorpc.Params) (any, *neorpc.Error) {
		return map[string]any{"useragent": "/n3node/", "nonce": 1}, nil
	})
	reg("getblock", func(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
		n, err := p.Value(0).GetInt()
		if err != nil {
			return nil, neorpc.ErrInvalidParams
		}
		if n > 10 {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownHeight, "too high")
		}
		return []byte{byte(n), 0xaa}, nil
	})
	reg("sendrawtransaction", sendRaw)
	reg("nothing", func(context.Context, neorpc.Params) (any, *neorpc.Error) { return nil, nil })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	s.Serve(cl)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	return s, cl
}

func newClient(t testing.TB, addr string, opts Options) *Client {
	t.Helper()
	c, err := New("http://"+addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestClientCalls(t *testing.T) {
	_, ln := newTestServer(t, rpcserver.Config{})
	c := newClient(t, ln.Addr().String(), Options{})
	ctx := context.Background()

	n, err := c.GetBlockCount(ctx)
	if err != nil || n != 7 {
		t.Fatal(n, err)
	}
	v, err := c.GetVersionRaw(ctx)
	if err != nil || string(v) != `{"nonce":1,"useragent":"/n3node/"}` {
		t.Fatal(string(v), err)
	}
	b, err := c.GetBlockRaw(ctx, uint32(3))
	if err != nil || hex.EncodeToString(b) != "03aa" {
		t.Fatal(b, err)
	}
	_, err = c.GetBlockRaw(ctx, uint32(11))
	var re *neorpc.Error
	if !errors.As(err, &re) || re.Code != neorpc.ErrUnknownHeightCode || re.Data != "too high" || !errors.Is(err, neorpc.ErrUnknownHeight) {
		t.Fatal(err)
	}
	tx := make([]byte, 250)
	h, err := c.SendRawTransaction(ctx, tx)
	if want := hash.Sha256(tx).String(); err != nil || h != want {
		t.Fatal(h, err, want)
	}
	if _, err := c.SendRawTransaction(ctx, []byte{}); !errors.Is(err, neorpc.ErrMempoolCapReached) {
		t.Fatal(err)
	}
	ok, err := c.ValidateAddress(ctx, "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	err = c.Call(ctx, "getfoo", nil, nil)
	if !errors.As(err, &re) || re.Code != neorpc.MethodNotFoundCode {
		t.Fatal(err)
	}
	if err := c.Call(ctx, "nothing", nil, nil); err != ErrNoResult {
		t.Fatal(err)
	}
	var s string
	if err := c.Call(ctx, "getblock", []any{1}, &s); err != nil || s != base64.StdEncoding.EncodeToString([]byte{1, 0xaa}) {
		t.Fatal(s, err)
	}
}

func TestClientBatch(t *testing.T) {
	_, ln := newTestServer(t, rpcserver.Config{})
	c := newClient(t, ln.Addr().String(), Options{})
	var (
		count uint32
		blk   []byte
		h     json.RawMessage
	)
	calls := []BatchCall{
		{Method: "getblockcount", Result: &count},
		{Method: "getblock", Params: []any{20}, Result: &blk},
		{Method: "getblock", Params: []any{"2"}, Result: &blk},
		{Method: "sendrawtransaction", Params: []any{[]byte{1}}, Result: &h},
		{Method: "nope"},
	}
	if err := c.Batch(context.Background(), calls); err != nil {
		t.Fatal(err)
	}
	if calls[0].Error != nil || count != 7 {
		t.Fatal(calls[0].Error, count)
	}
	if !errors.Is(calls[1].Error, neorpc.ErrUnknownHeight) {
		t.Fatal(calls[1].Error)
	}
	if calls[2].Error != nil || hex.EncodeToString(blk) != "02aa" {
		t.Fatal(calls[2].Error, blk)
	}
	if calls[3].Error != nil || !strings.HasPrefix(string(h), `{"hash":"0x`) {
		t.Fatal(calls[3].Error, string(h))
	}
	var re *neorpc.Error
	if !errors.As(calls[4].Error, &re) || re.Code != neorpc.MethodNotFoundCode {
		t.Fatal(calls[4].Error)
	}
	// 102 calls exceed the server's batch limit: one error for the batch.
	many := make([]BatchCall, 102)
	for i := range many {
		many[i].Method = "getblockcount"
	}
	if err := c.Batch(context.Background(), many); !errors.As(err, &re) || re.Code != neorpc.BadRequestCode {
		t.Fatal(err)
	}
}

func TestClientHTTPErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/500":
			http.Error(w, "boom", http.StatusInternalServerError)
		case "/garbage":
			w.Write([]byte("not json"))
		case "/wrongid":
			w.Write([]byte(`{"id":999,"jsonrpc":"2.0","result":1}`))
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	for path, want := range map[string]string{
		"/500":     "HTTP 500/Internal Server Error",
		"/garbage": "JSON decoding: ",
		"/wrongid": ErrIDMismatch.Error(),
	} {
		c, err := New(base+path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Call(context.Background(), "x", nil, nil); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v", path, err)
		}
		c.Close()
	}
	if _, err := New("ftp://x", Options{}); err == nil {
		t.Fatal("ftp accepted")
	}
}

// TestClientReusesConnections sends from several workers and checks that
// connections are kept alive rather than re-dialled.
func TestClientReusesConnections(t *testing.T) {
	_, ln := newTestServer(t, rpcserver.Config{})
	c := newClient(t, ln.Addr().String(), Options{})
	const workers, calls = 10, 100
	var wg sync.WaitGroup
	var failed atomic.Int32
	tx := make([]byte, 250)
	for w := range workers {
		wg.Go(func() {
			for i := range calls {
				tx := append([]byte{byte(w), byte(i)}, tx...)
				if _, err := c.SendRawTransaction(context.Background(), tx); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() != 0 {
		t.Fatalf("%d calls failed", failed.Load())
	}
	// net/http may dial a spare connection when one frees up while a dial
	// is under way; what matters is that 1000 calls do not need ~1000.
	if n := ln.n.Load(); n > 2*workers {
		t.Fatalf("%d connections for %d workers and %d calls", n, workers, workers*calls)
	}
}
