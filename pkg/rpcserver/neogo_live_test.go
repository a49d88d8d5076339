package rpcserver

// Live differential test against a running neo-go 0.120.0 node: the same raw
// HTTP and WebSocket exchanges go to neo-go and to our server, and status,
// the headers that matter and the bodies must be identical. It runs only
// with N3NODE_NEOGO=1 (`make rpc-live`), like the reference chain tests; the
// binary comes from $NEOGO or scripts/get-neogo.sh.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startNeoGo runs neo-go with the reference chain's config, changed by
// rpcExtra (YAML lines added to the RPC section) and cors.
func startNeoGo(t *testing.T, bin string, cors bool, rpcExtra ...string) string {
	t.Helper()
	root, err := neogo.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := os.ReadFile(filepath.Join(root, "testdata", "refchain", "protocol.yml"))
	if err != nil {
		t.Fatal(err)
	}
	rpcPort, p2pPort := freePort(t), freePort(t)
	cfg, err := neogo.RenderConfig(tmpl, neogo.ConfigOptions{P2PPort: p2pPort, RPCPort: rpcPort})
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(cfg), "EnableCORSWorkaround: false", fmt.Sprintf("EnableCORSWorkaround: %v", cors), 1)
	extra := ""
	for _, l := range rpcExtra {
		extra += "    " + l + "\n"
	}
	s = strings.Replace(s, "    SessionEnabled: false\n", extra, 1)
	dir := t.TempDir()
	for _, f := range []string{"wallet1_solo.json"} {
		b, err := os.ReadFile(filepath.Join(root, "testdata", "refchain", f))
		if err == nil {
			os.WriteFile(filepath.Join(dir, f), b, 0o600)
		}
	}
	n, err := neogo.Start(context.Background(), neogo.StartOptions{Binary: bin, Dir: dir, Config: []byte(s), RPCPort: rpcPort, P2PPort: p2pPort})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	return fmt.Sprintf("127.0.0.1:%d", rpcPort)
}

type exchange struct {
	method, path, body string
	hdr                map[string]string
}

func doRaw(t *testing.T, cl *http.Client, addr string, e exchange) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(e.method, "http://"+addr+e.path, strings.NewReader(e.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range e.hdr {
		req.Header.Set(k, v)
	}
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

var liveHeaders = []string{"Content-Type", "Access-Control-Allow-Origin", "Access-Control-Allow-Headers",
	"Access-Control-Allow-Methods", "Access-Control-Max-Age", "Sec-Websocket-Version"}

func compareExchanges(t *testing.T, ref, ours string, exchanges []exchange) {
	t.Helper()
	cl := &http.Client{Transport: &http.Transport{}}
	defer cl.CloseIdleConnections()
	for _, e := range exchanges {
		rs, rh, rb := doRaw(t, cl, ref, e)
		os, oh, ob := doRaw(t, cl, ours, e)
		if rs != os || !bytes.Equal(rb, ob) {
			t.Errorf("%s %s %q:\n neo-go %d %s\n ours   %d %s", e.method, e.path, e.body, rs, rb, os, ob)
		}
		for _, h := range liveHeaders {
			if rh.Get(h) != oh.Get(h) {
				t.Errorf("%s %s %q: header %s: neo-go %q, ours %q", e.method, e.path, e.body, h, rh.Get(h), oh.Get(h))
			}
		}
	}
}

func liveCalls() []exchange {
	post := func(body string) exchange { return exchange{method: "POST", path: "/", body: body} }
	big := `{"jsonrpc":"2.0","method":"validateaddress","params":["` + strings.Repeat("a", 2000) + `"],"id":1}`
	ex := []exchange{
		{method: "GET", path: "/"}, {method: "PUT", path: "/x", body: "{}"}, {method: "OPTIONS", path: "/"},
		{method: "GET", path: "/ws"},
		{method: "GET", path: "/ws", hdr: map[string]string{"Connection": "Upgrade", "Upgrade": "websocket"}},
		{method: "GET", path: "/ws", hdr: map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-Websocket-Version": "13", "Origin": "http://evil.example"}},
		{method: "POST", path: "/ws", body: `{"jsonrpc":"2.0","method":"getfoo","id":1}`},
		post(big), post(""), post("   "), post("{"), post("xyz"), post(`"abc"`), post(`5`), post(`null`), post(`[]`), post(`{}`),
		post(`[1]`), post(`[null]`), post(`[{}, {"jsonrpc":"2.0","method":"nope","id":"x"}]`),
		post(`{"jsonrpc":"2.0","method":"getfoo","params":{},"id":1}`),
		post(`{"jsonrpc":"1.0","method":"validateaddress","id":1}`),
		post(`{"jsonrpc":"2.0","id":{"a": [1, "<&>"]}}`),
		post(`{"jsonrpc":"2.0","method":"getfoo\u0000bar","id":1}`),
		post(`{"JSONRPC":"2.0","METHOD":"validateaddress","PARAMS":["NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"],"ID":1}`),
		post(`{"jsonrpc":"2.0","method":"subscribe","params":["block_added"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":[],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":[null],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":[123],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":[true],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":[[1]],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":["NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"],"id":1} trailing`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":["AKkkumHbBipZ46UMZJoFynJMXzSRnBvKcs"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":["213Gqa8BMTf2EBzez"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"validateaddress","params":["<script>"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"traverseiterator","params":[],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"traverseiterator","params":["x"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"traverseiterator","params":["01234567-89ab-cdef-0123-456789abcdef","x"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"traverseiterator","params":["01234567-89ab-cdef-0123-456789abcdef","01234567-89ab-cdef-0123-456789abcdef","x"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"traverseiterator","params":["01234567-89ab-cdef-0123-456789abcdef","01234567-89ab-cdef-0123-456789abcdef",1000],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"traverseiterator","params":["01234567-89ab-cdef-0123-456789abcdef","01234567-89ab-cdef-0123-456789abcdef",5],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"terminatesession","params":["01234567-89ab-cdef-0123-456789abcdef"],"id":1}`),
		post(`{"jsonrpc":"2.0","method":"terminatesession","params":["urn:x"],"id":1}`),
		post(`[` + strings.Repeat(`{"jsonrpc":"2.0","method":"validateaddress","params":["x"],"id":1},`, 101) + `{}]`),
	}
	return ex
}

// wsExchange sends messages over one connection and returns the answers.
func wsExchange(t *testing.T, addr string, msgs []string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Body != nil {
		resp.Body.Close()
	}
	defer c.CloseNow()
	var out []string
	for _, m := range msgs {
		if err := c.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
			out = append(out, "write error")
			break
		}
		rctx, rcancel := context.WithTimeout(ctx, 3*time.Second)
		_, b, err := c.Read(rctx)
		rcancel()
		if err != nil {
			out = append(out, "closed")
			break
		}
		out = append(out, string(b))
	}
	return out
}

var wsMessages = []string{
	`{"jsonrpc":"2.0","method":"validateaddress","params":["NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"],"id":1}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":[],"id":2}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["event_missed"],"id":3}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["notary_request_event"],"id":4}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["mempool_event", {}],"id":5}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["block_added", {"primary": 300}],"id":6}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["block_added", {"foo": 1}],"id":7}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["notification_from_execution", {"parameters":[{"type":"Any"}]}],"id":8}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["notification_from_execution", {"parameters":[{"type":"Array","value":[]}]}],"id":9}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["transaction_executed", {"state":"X"}],"id":10}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["transaction_added", {"sender":"0x01"}],"id":11}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["header_of_added_block"],"id":12}`,
	`{"jsonrpc":"2.0","method":"subscribe","params":["mempool_event"],"id":13}`,
	`{"jsonrpc":"2.0","method":"unsubscribe","params":["0"],"id":14}`,
	`{"jsonrpc":"2.0","method":"unsubscribe","params":[0],"id":15}`,
	`{"jsonrpc":"2.0","method":"unsubscribe","params":[99],"id":16}`,
	`[{"jsonrpc":"2.0","method":"subscribe","params":["block_added"],"id":17},{"jsonrpc":"2.0","method":"getfoo","id":18}]`,
	`{"jsonrpc":"1.0","method":"subscribe","id":19}`,
	`{"jsonrpc":`,
	`{"jsonrpc":"2.0","method":"validateaddress","id":20}`,
}

func TestNeoGoLiveWire(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") != "1" {
		t.Skip("set N3NODE_NEOGO=1 (make rpc-live) to compare with a live neo-go node")
	}
	bin, err := neogo.Binary(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	variants := []struct {
		name  string
		cors  bool
		extra []string
		cfg   Config
	}{
		{"defaults", false, nil, Config{}},
		{"cors, small body, sessions", true,
			[]string{"SessionEnabled: true", "MaxRequestBodyBytes: 1000", "MaxIteratorResultItems: 10"},
			Config{EnableCORSWorkaround: true, SessionEnabled: true, MaxRequestBodyBytes: 1000, MaxIteratorResultItems: 10}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			ref := startNeoGo(t, bin, v.cors, v.extra...)
			s := New(v.cfg)
			ours := startServer(t, s)
			compareExchanges(t, ref, ours, liveCalls())
			r, o := wsExchange(t, ref, wsMessages), wsExchange(t, ours, wsMessages)
			if len(r) != len(o) {
				t.Errorf("websocket: neo-go %d answers, ours %d\n%q\n%q", len(r), len(o), r, o)
			}
			for i := range min(len(r), len(o)) {
				if r[i] != o[i] {
					t.Errorf("websocket message %d:\n neo-go %s\n ours   %s", i, r[i], o[i])
				}
			}
		})
	}
}
