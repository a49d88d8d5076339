package neorpc_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"testing"

	ngrpc "github.com/nspcc-dev/neo-go/pkg/neorpc"
	ngparams "github.com/nspcc-dev/neo-go/pkg/services/rpcsrv/params"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
)

// sendRawBody is a sendrawtransaction request with a 250-byte transaction,
// the size of the neo-bench NEO transfers.
var sendRawBody = func() []byte {
	tx := make([]byte, 250)
	for i := range tx {
		tx[i] = byte(i * 13)
	}
	return []byte(`{"jsonrpc":"2.0","method":"sendrawtransaction","params":["` +
		base64.StdEncoding.EncodeToString(tx) + `"],"id":12345}`)
}()

func BenchmarkDecodeSendRawTransaction(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(sendRawBody)))
	var in neorpc.Incoming
	for b.Loop() {
		if err := in.DecodeBody(sendRawBody, nil); err != nil {
			b.Fatal(err)
		}
		c := &in.Calls[0]
		if c.Method != "sendrawtransaction" || c.JSONRPC != neorpc.JSONRPCVersion {
			b.Fatal(c.Method)
		}
		tx, err := c.Params.Value(0).GetBytesBase64()
		if err != nil || len(tx) != 250 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSendRawTransactionNeoGo is the same work done by neo-go
// 0.120.0's decoder, for comparison.
func BenchmarkDecodeSendRawTransactionNeoGo(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(sendRawBody)))
	for b.Loop() {
		req := ngparams.NewRequest()
		if err := req.DecodeData(io.NopCloser(bytes.NewReader(sendRawBody))); err != nil {
			b.Fatal(err)
		}
		p := ngparams.Params(req.In.RawParams)
		if len(p) < 1 {
			b.Fatal("no params")
		}
		s, err := p[0].GetString()
		if err != nil {
			b.Fatal(err)
		}
		tx, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(tx) != 250 {
			b.Fatal(err)
		}
	}
}

var relayHash = hash.Sha256([]byte("tx"))

func BenchmarkEncodeSendRawTransactionAnswer(b *testing.B) {
	b.ReportAllocs()
	id := json.RawMessage("12345")
	var out, res []byte
	for b.Loop() {
		res = append(res[:0], `{"hash":`...)
		res, _ = appendHash(res, relayHash)
		res = append(res, '}')
		out = neorpc.AppendResponse(out[:0], id, neorpc.JSONRPCVersion, res, nil)
		out = append(out, '\n')
	}
}

func appendHash(dst []byte, h hash.Uint256) ([]byte, error) {
	b, err := h.MarshalJSON()
	return append(dst, b...), err
}

// BenchmarkEncodeSendRawTransactionAnswerNeoGo encodes the same answer as
// neo-go does (json.Encoder over its response struct).
func BenchmarkEncodeSendRawTransactionAnswerNeoGo(b *testing.B) {
	b.ReportAllocs()
	type relayResult struct {
		Hash hash.Uint256 `json:"hash"`
	}
	type abstract struct {
		ngrpc.Header
		Error  *ngrpc.Error `json:"error,omitzero"`
		Result any          `json:"result,omitzero"`
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		resp := abstract{Header: ngrpc.Header{ID: json.RawMessage("12345"), JSONRPC: "2.0"}, Result: relayResult{relayHash}}
		if err := json.NewEncoder(&buf).Encode(resp); err != nil {
			b.Fatal(err)
		}
	}
}
