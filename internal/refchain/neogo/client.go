package neogo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// maxResponseBytes bounds one JSON-RPC answer read by Client.
const maxResponseBytes = 64 << 20

// Client is a minimal JSON-RPC 2.0 client over HTTP POST.
type Client struct {
	URL  string
	HTTP *http.Client
	id   atomic.Uint64
}

// NewClient returns a client of the JSON-RPC server at url
// (e.g. "http://127.0.0.1:40332").
func NewClient(url string) *Client {
	return &Client{URL: url, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// RPCError is the decoded "error" member of a JSON-RPC answer.
type RPCError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	if e.Data != "" {
		return fmt.Sprintf("rpc error %d: %s (%s)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message)
}

// Response is one JSON-RPC answer: exactly one of Result and Error is set.
// Both hold the server's bytes unchanged.
type Response struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// Err decodes Error; it returns nil when the answer is a result.
func (r Response) Err() *RPCError {
	if len(r.Error) == 0 {
		return nil
	}
	e := new(RPCError)
	if err := json.Unmarshal(r.Error, e); err != nil {
		return &RPCError{Code: -1, Message: "undecodable error: " + string(r.Error)}
	}
	return e
}

// ErrTransport marks failures below JSON-RPC (connection, HTTP status, bad JSON).
var ErrTransport = errors.New("neogo: rpc transport")

// CallRaw sends method with params (marshalled as given; use
// json.RawMessage to send exact bytes) and returns the answer as it came.
func (c *Client) CallRaw(ctx context.Context, method string, params any) (Response, error) {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      uint64 `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", c.id.Add(1), method, params})
	if err != nil {
		return Response{}, fmt.Errorf("neogo: marshal %s params: %w", method, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return Response{}, fmt.Errorf("%w: %w", ErrTransport, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Response{}, fmt.Errorf("%w: %s: %w", ErrTransport, method, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return Response{}, fmt.Errorf("%w: %s: %w", ErrTransport, method, err)
	}
	var r Response
	if err := json.Unmarshal(data, &r); err != nil {
		return Response{}, fmt.Errorf("%w: %s: HTTP %d: %w: %.200s", ErrTransport, method, resp.StatusCode, err, data)
	}
	if len(r.Result) == 0 && len(r.Error) == 0 {
		return Response{}, fmt.Errorf("%w: %s: answer has neither result nor error: %.200s", ErrTransport, method, data)
	}
	return r, nil
}

// Call sends method and unmarshals the result into out (if out is not nil).
// A JSON-RPC error answer is returned as *RPCError.
func (c *Client) Call(ctx context.Context, method string, out any, params ...any) error {
	if params == nil {
		params = []any{}
	}
	r, err := c.CallRaw(ctx, method, params)
	if err != nil {
		return err
	}
	if e := r.Err(); e != nil {
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		return fmt.Errorf("neogo: decode %s result: %w", method, err)
	}
	return nil
}
