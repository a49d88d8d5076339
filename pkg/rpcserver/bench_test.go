package rpcserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"

	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
)

// discardWriter is a minimal http.ResponseWriter.
type discardWriter struct {
	h http.Header
	n int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

// rewindBody is a request body that can be replayed.
type rewindBody struct{ bytes.Reader }

func (*rewindBody) Close() error { return nil }

// BenchmarkServeHTTPSendRaw measures the server's own work for one
// sendrawtransaction request (decode, dispatch, encode, write), without
// net/http's connection handling. The handler decodes the transaction and
// answers with its hash.
func BenchmarkServeHTTPSendRaw(b *testing.B) {
	s := New(Config{})
	s.Register("sendrawtransaction", func(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
		tx, err := p.Value(0).GetBytesBase64()
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(err.Error())
		}
		h := hash.Sha256(tx)
		res, _ := h.MarshalJSON()
		return json.RawMessage(append(append([]byte(`{"hash":`), res...), '}')), nil
	})
	tx := make([]byte, 250)
	body := []byte(`{"jsonrpc":"2.0","method":"sendrawtransaction","params":["` +
		base64.StdEncoding.EncodeToString(tx) + `"],"id":1}`)
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	rb := &rewindBody{}
	req.Body = rb
	req.ContentLength = int64(len(body))
	w := &discardWriter{h: make(http.Header)}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		rb.Reset(body)
		clear(w.h)
		s.ServeHTTP(w, req)
	}
	if w.n == 0 {
		b.Fatal("no output")
	}
}
