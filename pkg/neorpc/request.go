package neorpc

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/n3node/n3node/pkg/neorpc/internal/params"
)

// JSONRPCVersion is the only protocol version the server accepts.
const JSONRPCVersion = "2.0"

// MaxBatchSize is the batch limit. Like neo-go 0.120.0, a batch of
// MaxBatchSize+1 calls is still accepted and a bigger one is a parse error.
const MaxBatchSize = params.MaxBatchSize

// Call is one decoded JSON-RPC call.
//
// Params and ID alias the buffer the request was decoded from: they are
// valid only while that buffer is (for the server: during the handler call).
// Copy anything kept longer.
type Call struct {
	JSONRPC string
	Method  string
	Params  Params
	// ID is the raw id value: nil when absent, "null" when null.
	ID json.RawMessage
}

// Incoming is a decoded request body (server side): a single call or a
// batch. An Incoming can be reused after Reset; it keeps its slices'
// capacity.
type Incoming struct {
	Batch bool
	Calls []Call

	params []Param // backing store for all calls' Params
}

// Reset clears r for reuse.
func (r *Incoming) Reset() {
	clear(r.Calls)
	clear(r.params)
	r.Batch = false
	r.Calls = r.Calls[:0]
	r.params = r.params[:0]
}

// DecodeBody decodes an HTTP request body the way neo-go 0.120.0 does: the
// first JSON value of the body is taken (anything after it is ignored) and
// interpreted as a call or a batch. readErr is the error that ended reading
// the body early, if any (e.g. the size limit): it is reported only if the
// first value needed bytes beyond what was read. The returned error is a
// -32700 parse error with neo-go's data text.
//
// r aliases body on success.
func (r *Incoming) DecodeBody(body []byte, readErr error) *Error {
	r.Reset()
	if readErr == nil && r.decodeFast(body) {
		return nil
	}
	r.Reset()
	var src io.Reader = bytes.NewReader(body)
	if readErr != nil {
		src = io.MultiReader(src, errReader{readErr})
	}
	req, err := params.DecodeData(src)
	if err != nil {
		return NewParseError(err.Error())
	}
	r.fromCompat(req)
	return nil
}

// DecodeMessage decodes one WebSocket message. neo-go closes the connection
// on any error here instead of answering, so the error carries no code.
func (r *Incoming) DecodeMessage(msg []byte) error {
	r.Reset()
	if r.decodeFast(msg) {
		return nil
	}
	r.Reset()
	raw, err := params.ReadValue(bytes.NewReader(msg))
	if err != nil {
		return err
	}
	req, err := params.Unmarshal(raw)
	if err != nil {
		return err
	}
	r.fromCompat(req)
	return nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (r *Incoming) fromCompat(req *params.Request) {
	add := func(in *params.In) {
		c := Call{JSONRPC: in.JSONRPC, Method: in.Method, ID: in.RawID}
		if in.RawParams != nil {
			start := len(r.params)
			for _, p := range in.RawParams {
				r.params = append(r.params, Param{p.RawMessage})
			}
			c.Params = r.params[start:len(r.params):len(r.params)]
		}
		r.Calls = append(r.Calls, c)
	}
	if req.In != nil {
		add(req.In)
		return
	}
	r.Batch = true
	for i := range req.Batch {
		add(&req.Batch[i])
	}
}

// decodeFast handles the common shapes without encoding/json: an object, or
// an array of 1..MaxBatchSize objects, whose keys are exactly "jsonrpc",
// "method", "params" and "id" (each at most once), with plain ASCII strings
// for jsonrpc and method and an array or null for params. Anything else
// returns false and the caller falls back to the reference-compatible path.
func (r *Incoming) decodeFast(b []byte) bool {
	i := skipWS(b, 0)
	if i >= len(b) {
		return false
	}
	switch b[i] {
	case '{':
		return r.fastCall(b, i) >= 0
	case '[':
		r.Batch = true
		end := walkArray(b, i, func(v int) int {
			if len(r.Calls) == MaxBatchSize || v >= len(b) || b[v] != '{' {
				return -1
			}
			return r.fastCall(b, v)
		})
		return end >= 0 && len(r.Calls) > 0
	}
	return false
}

const (
	seenJSONRPC = 1 << iota
	seenMethod
	seenParams
	seenID
)

// fastCall parses one call object at b[i] == '{' and appends it; it returns
// the index past the object or -1.
func (r *Incoming) fastCall(b []byte, i int) int {
	var c Call
	var seen int
	end := walkObject(b, i, func(key []byte, plain bool, j int) int {
		if !plain || j >= len(b) {
			return -1
		}
		var bit int
		switch string(key) {
		case "jsonrpc", "method":
			bit = seenJSONRPC
			if key[0] == 'm' {
				bit = seenMethod
			}
			var s string
			switch b[j] {
			case '"':
				e, plain := scanString(b, j)
				if e < 0 || !plain {
					return -1
				}
				s = internString(b[j+1 : e-1])
				j = e
			case 'n':
				j = skipValue(b, j, 0)
			default:
				return -1
			}
			if bit == seenMethod {
				c.Method = s
			} else {
				c.JSONRPC = s
			}
		case "params":
			bit = seenParams
			switch b[j] {
			case '[':
				j = r.fastParams(b, j, &c)
			case 'n':
				j = skipValue(b, j, 0)
			default:
				return -1
			}
		case "id":
			bit = seenID
			e := skipValue(b, j, 1)
			if e < 0 {
				return -1
			}
			c.ID = b[j:e:e]
			j = e
		default:
			return -1
		}
		if seen&bit != 0 {
			return -1
		}
		seen |= bit
		return j
	})
	if end >= 0 {
		r.Calls = append(r.Calls, c)
	}
	return end
}

// fastParams parses the params array at b[j] == '[' into c.Params (never
// nil); it returns the index past the array or -1.
func (r *Incoming) fastParams(b []byte, j int, c *Call) int {
	start := len(r.params)
	end := walkArray(b, j, func(v int) int {
		e := skipValue(b, v, 2)
		if e >= 0 {
			r.params = append(r.params, Param{b[v:e:e]})
		}
		return e
	})
	c.Params = r.params[start:len(r.params):len(r.params)]
	if c.Params == nil {
		c.Params = Params{}
	}
	return end
}

// internString returns a string for b, reusing a constant for the protocol
// version and every known method name so the hot path does not allocate.
func internString(b []byte) string {
	if s, ok := interned[string(b)]; ok {
		return s
	}
	return string(b)
}

var interned = func() map[string]string {
	m := make(map[string]string)
	for _, s := range []string{JSONRPCVersion,
		"calculatenetworkfee", "findstates", "findstorage", "findstoragehistoric",
		"getapplicationlog", "getbestblockhash", "getblock", "getblockcount",
		"getblockhash", "getblockheader", "getblockheadercount", "getblocknotifications",
		"getblocksysfee", "getcandidates", "getcommittee", "getconnectioncount",
		"getcontractstate", "getnativecontracts", "getnep11balances", "getnep11properties",
		"getnep11transfers", "getnep17balances", "getnep17transfers", "getpeers",
		"getproof", "getrawmempool", "getrawnotarypool", "getrawnotarytransaction",
		"getrawtransaction", "getstate", "getstateheight", "getstateroot", "getstorage",
		"getstoragehistoric", "gettransactionheight", "getunclaimedgas",
		"getnextblockvalidators", "getversion", "invokefunction", "invokefunctionhistoric",
		"invokescript", "invokescripthistoric", "invokecontainedscript",
		"invokecontractverify", "invokecontractverifyhistoric", "sendrawtransaction",
		"submitblock", "submitnotaryrequest", "submitoracleresponse", "terminatesession",
		"traverseiterator", "validateaddress", "verifyproof", "subscribe", "unsubscribe",
	} {
		m[s] = s
	}
	return m
}()
