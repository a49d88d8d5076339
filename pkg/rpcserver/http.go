package rpcserver

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/n3node/n3node/pkg/neorpc"
)

// Pre-built header values, assigned directly to avoid per-request
// allocations (net/http only reads them).
var (
	hdrJSON         = []string{"application/json; charset=utf-8"}
	hdrAllowOrigin  = []string{"*"}
	hdrAllowHeaders = []string{"Content-Type, Access-Control-Allow-Headers, Authorization, X-Requested-With"}
	hdrAllowMethods = []string{"GET, POST"}
	hdrMaxAge       = []string{"21600"}
)

// reqState is the per-request scratch space, pooled.
type reqState struct {
	body bytes.Buffer
	in   neorpc.Incoming
	out  []byte
	res  []byte
}

var reqPool = sync.Pool{New: func() any { return new(reqState) }}

// smallBody is below net/http's buffering size (2048), up to which it
// computes Content-Length by itself.
const smallBody = 2000

// maxPooledBuffer keeps pathological requests from pinning big buffers.
const maxPooledBuffer = 256 << 10

func putReqState(st *reqState) {
	if st.body.Cap() > maxPooledBuffer || cap(st.out) > maxPooledBuffer || cap(st.res) > maxPooledBuffer {
		return
	}
	st.body.Reset()
	st.in.Reset()
	st.out = st.out[:0]
	st.res = st.res[:0]
	reqPool.Put(st)
}

// ServeHTTP implements http.Handler: GET /ws upgrades to WebSocket, OPTIONS
// answers CORS preflight (if enabled), POST to any path is JSON-RPC, and
// anything else is a -32602 error, all as neo-go does.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/ws" && r.Method == http.MethodGet {
		s.serveWS(w, r)
		return
	}
	if r.Method == http.MethodOptions && s.cfg.EnableCORSWorkaround {
		h := w.Header()
		h["Access-Control-Allow-Origin"] = hdrAllowOrigin
		h["Access-Control-Allow-Headers"] = hdrAllowHeaders
		h["Access-Control-Allow-Methods"] = hdrAllowMethods
		h["Access-Control-Max-Age"] = hdrMaxAge
		return
	}
	st := reqPool.Get().(*reqState)
	defer putReqState(st)
	if r.Method != http.MethodPost {
		s.writeHTTPError(w, st, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid method '%s', please retry with 'POST'", r.Method)))
		return
	}
	body := http.MaxBytesReader(w, r.Body, int64(s.cfg.MaxRequestBodyBytes))
	if r.ContentLength > 0 && r.ContentLength <= int64(s.cfg.MaxRequestBodyBytes) {
		st.body.Grow(int(r.ContentLength) + 1)
	}
	_, readErr := st.body.ReadFrom(body)
	if rerr := st.in.DecodeBody(st.body.Bytes(), readErr); rerr != nil {
		s.writeHTTPError(w, st, rerr)
		return
	}
	st.out = s.handleIncoming(r.Context(), &st.in, nil, st.out[:0], &st.res)
	st.out = append(st.out, '\n')
	s.writeHTTP(w, st.out)
}

func (s *Server) writeHTTP(w http.ResponseWriter, out []byte) {
	h := w.Header()
	h["Content-Type"] = hdrJSON
	if s.cfg.EnableCORSWorkaround {
		h["Access-Control-Allow-Origin"] = hdrAllowOrigin
		h["Access-Control-Allow-Headers"] = hdrAllowHeaders
	}
	if len(out) > smallBody {
		// Avoids chunked encoding; net/http sets it itself for small bodies.
		h["Content-Length"] = []string{strconv.Itoa(len(out))}
	}
	_, _ = w.Write(out)
}

// writeHTTPError answers with a single error whose id is null, as neo-go
// does for errors found before a call could be read.
func (s *Server) writeHTTPError(w http.ResponseWriter, st *reqState, e *neorpc.Error) {
	s.logCallError("", e)
	st.out = neorpc.AppendResponse(st.out[:0], nil, neorpc.JSONRPCVersion, nil, e)
	st.out = append(st.out, '\n')
	s.writeHTTP(w, st.out)
}

// handleIncoming runs all calls of a request and appends the response
// (an object, or an array for a batch). res is scratch space for results.
func (s *Server) handleIncoming(ctx context.Context, in *neorpc.Incoming, c *wsConn, out []byte, res *[]byte) []byte {
	if in.Batch {
		out = append(out, '[')
	}
	for i := range in.Calls {
		if i > 0 {
			out = append(out, ',')
		}
		out = s.handleCall(ctx, &in.Calls[i], c, out, res)
	}
	if in.Batch {
		out = append(out, ']')
	}
	return out
}

// handleCall runs one call and appends its response object.
func (s *Server) handleCall(ctx context.Context, call *neorpc.Call, c *wsConn, out []byte, res *[]byte) []byte {
	method := escapeForLog(call.Method)
	if call.JSONRPC != neorpc.JSONRPCVersion {
		e := neorpc.NewInvalidParamsError(fmt.Sprintf("problem parsing JSON: invalid version, expected 2.0 got '%s'", call.JSONRPC))
		s.logCallError(method, e)
		return neorpc.AppendResponse(out, call.ID, call.JSONRPC, nil, e)
	}
	var (
		result any
		rerr   *neorpc.Error
		found  bool
	)
	if h, ok := s.methods[method]; ok {
		found = true
		result, rerr = s.invoke(ctx, method, h, call.Params)
	} else if c != nil {
		if h, ok := s.wsMethod[method]; ok {
			found = true
			result, rerr = h(ctx, call.Params, c)
		}
	}
	if !found {
		rerr = neorpc.NewMethodNotFoundError(fmt.Sprintf("method %q not supported", method))
	}
	if rerr != nil {
		s.logCallError(method, rerr)
		return neorpc.AppendResponse(out, call.ID, call.JSONRPC, nil, rerr)
	}
	if result == nil {
		return neorpc.AppendResponse(out, call.ID, call.JSONRPC, nil, nil)
	}
	var err error
	*res, err = neorpc.AppendValue((*res)[:0], result)
	if err != nil {
		e := neorpc.NewInternalServerError(fmt.Sprintf("failed to marshal result: %s", err))
		s.logCallError(method, e)
		return neorpc.AppendResponse(out, call.ID, call.JSONRPC, nil, e)
	}
	return neorpc.AppendResponse(out, call.ID, call.JSONRPC, *res, nil)
}

// invoke runs a handler, turning a panic into an internal error so that a
// faulty handler never takes the connection (or the node) down.
func (s *Server) invoke(ctx context.Context, method string, h Handler, p neorpc.Params) (res any, rerr *neorpc.Error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("rpc handler panicked", "method", method, "panic", r)
			res, rerr = nil, neorpc.NewInternalServerError(fmt.Sprintf("%s: internal error", method))
		}
	}()
	return h(ctx, p)
}

// logCallError logs a failed call as neo-go does: internal errors at
// ERROR, the client's (bad parameters, unknown items) at INFO, with the
// code, the cause when there is one, and the method.
func (s *Server) logCallError(method string, e *neorpc.Error) {
	const msg = "Error encountered with rpc request"
	attrs := []any{"code", e.Code}
	if e.Data != "" {
		attrs = append(attrs, "cause", e.Data)
	}
	if method != "" {
		attrs = append(attrs, "method", method)
	}
	if e.Code == neorpc.InternalServerErrorCode {
		s.log.Error(msg, attrs...)
		return
	}
	s.log.Info(msg, attrs...)
}

// escapeForLog drops non-graphic characters from a method name, as neo-go
// does before looking it up (no valid name changes).
func escapeForLog(in string) string {
	for i := 0; i < len(in); i++ {
		if c := in[i]; c < 0x20 || c >= 0x7f {
			return strings.Map(func(r rune) rune {
				if !strconv.IsGraphic(r) {
					return -1
				}
				return r
			}, in)
		}
	}
	return in
}
