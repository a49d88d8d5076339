package rpcserver

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestCallErrorLogging: a client's error (bad parameters, unknown method)
// is logged at INFO and an internal one at ERROR, with neo-go's message,
// the code, the cause and the method.
func TestCallErrorLogging(t *testing.T) {
	var buf bytes.Buffer
	s := testServer(t, Config{Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	post(t, s, `{"jsonrpc":"2.0","method":"echoint","params":["x"],"id":1}`)
	post(t, s, `{"jsonrpc":"2.0","method":"panics","params":[],"id":2}`)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var client, internal string
	for _, l := range lines {
		switch {
		case strings.Contains(l, "method=echoint"):
			client = l
		case strings.Contains(l, "Error encountered") && strings.Contains(l, "method=panics"):
			internal = l
		}
	}
	if !strings.Contains(client, "level=INFO") || !strings.Contains(client, `msg="Error encountered with rpc request"`) ||
		!strings.Contains(client, "code=-32602") || !strings.Contains(client, "cause=") {
		t.Errorf("client error: %q", client)
	}
	if !strings.Contains(internal, "level=ERROR") || !strings.Contains(internal, "code=-32603") {
		t.Errorf("internal error: %q\n%s", internal, buf.String())
	}
}
