package neogo

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderConfig(t *testing.T) {
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "refchain", "protocol.yml"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := RenderConfig(tmpl, ConfigOptions{P2PPort: 1111, RPCPort: 2222, Consensus: false})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`"127.0.0.1:1111"`, `"127.0.0.1:2222"`, "  Consensus:\n    Enabled: false\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("rendered config lacks %q", want)
		}
	}
	if strings.Contains(s, "40332") || strings.Contains(s, "40333") {
		t.Error("default ports left in the rendered config")
	}
	same, err := RenderConfig(tmpl, ConfigOptions{Consensus: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(same) != string(tmpl) {
		t.Error("rendering with the template's own values changed it")
	}
	if _, err := RenderConfig([]byte("ProtocolConfiguration:\n"), ConfigOptions{}); !errors.Is(err, ErrTemplate) {
		t.Errorf("bad template: %v", err)
	}
}

func TestClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body [512]byte
		n, _ := r.Body.Read(body[:])
		switch req := string(body[:n]); {
		case strings.Contains(req, `"method":"good"`):
			w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`))
		case strings.Contains(req, `"method":"bad"`):
			w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-100,"message":"nope","data":"why"}}`))
		default:
			w.Write([]byte(`garbage`))
		}
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	ctx := context.Background()
	var out struct{ A int }
	if err := c.Call(ctx, "good", &out); err != nil || out.A != 1 {
		t.Fatalf("good: %v %+v", err, out)
	}
	err := c.Call(ctx, "bad", nil)
	var re *RPCError
	if !errors.As(err, &re) || re.Code != -100 || re.Data != "why" {
		t.Fatalf("bad: %v", err)
	}
	r, err := c.CallRaw(ctx, "bad", []any{1})
	if err != nil || string(r.Error) != `{"code":-100,"message":"nope","data":"why"}` {
		t.Fatalf("raw error %s %v", r.Error, err)
	}
	if err := c.Call(ctx, "other", nil); !errors.Is(err, ErrTransport) {
		t.Fatalf("garbage: %v", err)
	}
}
