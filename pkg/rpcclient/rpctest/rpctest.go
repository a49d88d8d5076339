package rpctest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"

	"github.com/n3node/n3node/pkg/neorpc"
)

// Handler answers one call. A returned *neorpc.Error is sent as the JSON-RPC
// error; any other error as -32603 with its text. The result is encoded
// with encoding/json (json.RawMessage is sent verbatim).
type Handler func(params []json.RawMessage) (any, error)

// Call is one recorded request.
type Call struct {
	Method string
	Params []json.RawMessage
}

// Server is a fake JSON-RPC node.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	handlers map[string]Handler
	calls    []Call
}

// NewServer starts a server with no methods. Close it when done.
func NewServer() *Server {
	s := &Server{handlers: make(map[string]Handler)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Handle registers (or replaces) the handler of method.
func (s *Server) Handle(method string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[method] = h
}

// Result makes method always answer v.
func (s *Server) Result(method string, v any) {
	s.Handle(method, func([]json.RawMessage) (any, error) { return v, nil })
}

// Calls returns the recorded calls of method ("" for all of them).
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if method == "" || c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

type request struct {
	JSONRPC string            `json:"jsonrpc"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
	ID      json.RawMessage   `json:"id"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var reqs []request
		if err := json.Unmarshal(body, &reqs); err != nil {
			_, _ = w.Write(neorpc.AppendResponse(nil, json.RawMessage("null"), "2.0", nil, neorpc.NewParseError(err.Error())))
			return
		}
		out := []byte{'['}
		for i := range reqs {
			if i > 0 {
				out = append(out, ',')
			}
			out = s.answer(out, &reqs[i])
		}
		_, _ = w.Write(append(out, ']'))
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		_, _ = w.Write(neorpc.AppendResponse(nil, json.RawMessage("null"), "2.0", nil, neorpc.NewParseError(err.Error())))
		return
	}
	_, _ = w.Write(s.answer(nil, &req))
}

func (s *Server) answer(dst []byte, req *request) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, Call{Method: req.Method, Params: slices.Clone(req.Params)})
	h, ok := s.handlers[req.Method]
	if !ok {
		return neorpc.AppendResponse(dst, req.ID, req.JSONRPC, nil,
			neorpc.NewMethodNotFoundError(fmt.Sprintf("method %q not supported", req.Method)))
	}
	res, err := h(req.Params)
	if err != nil {
		e, ok := err.(*neorpc.Error)
		if !ok {
			e = neorpc.NewInternalServerError(err.Error())
		}
		return neorpc.AppendResponse(dst, req.ID, req.JSONRPC, nil, e)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return neorpc.AppendResponse(dst, req.ID, req.JSONRPC, nil, neorpc.NewInternalServerError(err.Error()))
	}
	return neorpc.AppendResponse(dst, req.ID, req.JSONRPC, b, nil)
}

// Do runs f under the server's lock, so tests can read or change state
// that handlers share.
func (s *Server) Do(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}
