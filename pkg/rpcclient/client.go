package rpcclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/neorpc"
)

// Defaults for Options.
const (
	DefaultDialTimeout         = 4 * time.Second // neo-go's
	DefaultRequestTimeout      = 4 * time.Second // neo-go's
	DefaultMaxIdleConnsPerHost = 64
)

// Errors the client returns besides *neorpc.Error.
var (
	ErrNoResult   = errors.New("no result returned")
	ErrIDMismatch = errors.New("response id does not match the request")
)

// Options tune a Client.
type Options struct {
	// DialTimeout bounds connecting (default 4s).
	DialTimeout time.Duration
	// RequestTimeout bounds a whole call when ctx has no deadline (default
	// 4s; negative means none).
	RequestTimeout time.Duration
	// MaxConnsPerHost limits connections to the endpoint (0: no limit).
	MaxConnsPerHost int
	// MaxIdleConnsPerHost is how many keep-alive connections are kept for
	// reuse (default 64; set it to at least the number of workers).
	MaxIdleConnsPerHost int
	// HTTPClient replaces the client built from the options above.
	HTTPClient *http.Client
}

// Client is an HTTP JSON-RPC client.
type Client struct {
	endpoint string
	cli      *http.Client
	ownCli   bool
	timeout  time.Duration
	nextID   atomic.Uint64
}

// New makes a client for an http:// or https:// endpoint.
func New(endpoint string, opts Options) (*Client, error) {
	req, err := http.NewRequest(http.MethodPost, endpoint, nil)
	if err != nil {
		return nil, err
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return nil, fmt.Errorf("rpcclient: unsupported endpoint scheme %q", req.URL.Scheme)
	}
	c := &Client{endpoint: endpoint, cli: opts.HTTPClient, timeout: opts.RequestTimeout}
	if c.timeout == 0 {
		c.timeout = DefaultRequestTimeout
	}
	if c.cli == nil {
		c.ownCli = true
		c.cli = &http.Client{Transport: newTransport(opts)}
	}
	return c, nil
}

func newTransport(opts Options) *http.Transport {
	dial := opts.DialTimeout
	if dial <= 0 {
		dial = DefaultDialTimeout
	}
	idle := opts.MaxIdleConnsPerHost
	if idle <= 0 {
		idle = DefaultMaxIdleConnsPerHost
	}
	if opts.MaxConnsPerHost > 0 {
		idle = min(idle, opts.MaxConnsPerHost)
	}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: dial, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          0,
		MaxIdleConnsPerHost:   idle,
		MaxConnsPerHost:       opts.MaxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   dial,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true,
	}
}

// Close releases idle connections (of the client's own transport).
func (c *Client) Close() {
	if c.ownCli {
		c.cli.CloseIdleConnections()
	}
}

// buffers are pooled request/response scratch space.
type buffers struct {
	req  []byte
	resp bytes.Buffer
	prm  [][]byte
}

var bufPool = sync.Pool{New: func() any { return new(buffers) }}

const maxPooledBuffer = 256 << 10

func putBuffers(b *buffers) {
	if cap(b.req) > maxPooledBuffer || b.resp.Cap() > maxPooledBuffer {
		return
	}
	b.req = b.req[:0]
	b.resp.Reset()
	clear(b.prm)
	b.prm = b.prm[:0]
	bufPool.Put(b)
}

// appendCall appends one request object.
func appendCall(dst []byte, method string, params []any, id uint64) ([]byte, error) {
	dst = append(dst, `{"jsonrpc":"2.0","method":`...)
	dst = neorpc.AppendString(dst, method)
	dst = append(dst, `,"params":[`...)
	for i, p := range params {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = neorpc.AppendValue(dst, p); err != nil {
			return dst, fmt.Errorf("parameter %d: %w", i, err)
		}
	}
	dst = append(dst, `],"id":`...)
	dst = strconv.AppendUint(dst, id, 10)
	return append(dst, '}'), nil
}

// post sends body and reads the whole response into b.resp.
func (c *Client) post(ctx context.Context, b *buffers) (int, error) {
	if _, ok := ctx.Deadline(); !ok && c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(b.req))
	if err != nil {
		return 0, err
	}
	req.Header["Content-Type"] = hdrJSON
	resp, err := c.cli.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.ContentLength > 0 && resp.ContentLength < 64<<20 {
		b.resp.Grow(int(resp.ContentLength))
	}
	if _, err := b.resp.ReadFrom(resp.Body); err != nil {
		return resp.StatusCode, err
	}
	return resp.StatusCode, nil
}

var hdrJSON = []string{"application/json"}

// Call invokes method with positional params and decodes the result into
// result (a pointer, or nil to discard it). An RPC error is returned as
// *neorpc.Error.
func (c *Client) Call(ctx context.Context, method string, params []any, result any) error {
	b := bufPool.Get().(*buffers)
	defer putBuffers(b)
	id := c.nextID.Add(1)
	var err error
	if b.req, err = appendCall(b.req[:0], method, params, id); err != nil {
		return err
	}
	status, err := c.post(ctx, b)
	if err != nil {
		return err
	}
	var resp neorpc.Response
	if derr := neorpc.DecodeResponse(b.resp.Bytes(), &resp); derr != nil {
		if status != http.StatusOK {
			return fmt.Errorf("HTTP %d/%s", status, http.StatusText(status))
		}
		return fmt.Errorf("JSON decoding: %w", derr)
	}
	return finishCall(&resp, id, result)
}

// finishCall checks a decoded response and decodes its result.
func finishCall(resp *neorpc.Response, id uint64, result any) error {
	if resp.Error != nil {
		return resp.Error
	}
	if !idIs(resp.ID, id) {
		return ErrIDMismatch
	}
	if resp.Result == nil {
		return ErrNoResult
	}
	return decodeResult(resp.Result, result)
}

func idIs(raw json.RawMessage, id uint64) bool {
	v, err := strconv.ParseUint(string(raw), 10, 64)
	return err == nil && v == id
}

// decodeResult decodes raw into v with fast paths for common targets.
// Nothing in v aliases raw.
func decodeResult(raw []byte, v any) error {
	switch x := v.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*x = append((*x)[:0], raw...)
		return nil
	case *string:
		if s, ok := neorpc.PlainString(raw); ok {
			*x = string(s)
			return nil
		}
	case *uint32:
		if n, err := strconv.ParseUint(string(raw), 10, 32); err == nil {
			*x = uint32(n)
			return nil
		}
	case *int:
		if n, err := strconv.ParseInt(string(raw), 10, 0); err == nil {
			*x = int(n)
			return nil
		}
	case *int64:
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			*x = n
			return nil
		}
	case *bool:
		switch string(raw) {
		case "true":
			*x = true
			return nil
		case "false":
			*x = false
			return nil
		}
	}
	return json.Unmarshal(raw, v)
}

// BatchCall is one call of a batch. After Batch returns, Error holds the
// call's *neorpc.Error or decoding error, and Result (if not nil) its
// decoded result.
type BatchCall struct {
	Method string
	Params []any
	Result any
	Error  error
}

// Batch sends calls in one request. The returned error concerns the whole
// request (transport, a batch-level error answer, malformed JSON);
// per-call outcomes are in each BatchCall.Error.
func (c *Client) Batch(ctx context.Context, calls []BatchCall) error {
	if len(calls) == 0 {
		return nil
	}
	b := bufPool.Get().(*buffers)
	defer putBuffers(b)
	first := c.nextID.Add(uint64(len(calls))) - uint64(len(calls)) + 1
	b.req = append(b.req[:0], '[')
	for i := range calls {
		if i > 0 {
			b.req = append(b.req, ',')
		}
		var err error
		if b.req, err = appendCall(b.req, calls[i].Method, calls[i].Params, first+uint64(i)); err != nil {
			return err
		}
	}
	b.req = append(b.req, ']')
	status, err := c.post(ctx, b)
	if err != nil {
		return err
	}
	data := b.resp.Bytes()
	var elems [][]byte
	if !neorpc.ForEachElement(data, func(v []byte) bool { elems = append(elems, v); return true }) {
		// A single error object answers a malformed batch.
		var resp neorpc.Response
		if derr := neorpc.DecodeResponse(data, &resp); derr == nil && resp.Error != nil {
			return resp.Error
		}
		var raws []json.RawMessage
		if jerr := json.Unmarshal(data, &raws); jerr != nil {
			if status != http.StatusOK {
				return fmt.Errorf("HTTP %d/%s", status, http.StatusText(status))
			}
			return fmt.Errorf("JSON decoding: %w", jerr)
		}
		elems = elems[:0]
		for _, r := range raws {
			elems = append(elems, r)
		}
	}
	seen := make([]bool, len(calls))
	for _, e := range elems {
		var resp neorpc.Response
		if err := neorpc.DecodeResponse(e, &resp); err != nil {
			return fmt.Errorf("JSON decoding: %w", err)
		}
		n, err := strconv.ParseUint(string(resp.ID), 10, 64)
		if err != nil || n < first || n-first >= uint64(len(calls)) || seen[n-first] {
			return ErrIDMismatch
		}
		i := n - first
		seen[i] = true
		calls[i].Error = finishCall(&resp, n, calls[i].Result)
	}
	for i := range calls {
		if !seen[i] {
			calls[i].Error = ErrNoResult
		}
	}
	return nil
}

// CallRaw returns the raw result (a copy).
func (c *Client) CallRaw(ctx context.Context, method string, params []any) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.Call(ctx, method, params, &res)
	return res, err
}

// GetBlockCount returns the number of blocks (height + 1).
func (c *Client) GetBlockCount(ctx context.Context) (uint32, error) {
	var n uint32
	err := c.Call(ctx, "getblockcount", nil, &n)
	return n, err
}

// GetVersionRaw returns the getversion result as JSON.
func (c *Client) GetVersionRaw(ctx context.Context) (json.RawMessage, error) {
	return c.CallRaw(ctx, "getversion", nil)
}

// GetBlockRaw returns the serialized block at an index (uint32) or with a
// hash (reversed hex string, as StringLE prints it).
func (c *Client) GetBlockRaw(ctx context.Context, indexOrHash any) ([]byte, error) {
	var b []byte
	err := c.Call(ctx, "getblock", []any{indexOrHash}, &b)
	return b, err
}

// SendRawTransaction sends a serialized transaction and returns the hash
// the node reports ("0x..." display form).
func (c *Client) SendRawTransaction(ctx context.Context, tx []byte) (string, error) {
	var raw json.RawMessage
	if err := c.Call(ctx, "sendrawtransaction", []any{tx}, &raw); err != nil {
		return "", err
	}
	return relayHash(raw)
}

// relayHash extracts "hash" from a {"hash":"0x..."} relay result.
func relayHash(raw []byte) (string, error) {
	var h string
	ok := neorpc.ForEachField(raw, func(k, v []byte) bool {
		if string(k) == "hash" {
			s, plain := neorpc.PlainString(v)
			if !plain {
				return false
			}
			h = string(s)
		}
		return true
	})
	if ok && h != "" {
		return h, nil
	}
	var r struct {
		Hash string `json:"hash"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", err
	}
	if r.Hash == "" {
		return "", errors.New("no hash in relay result")
	}
	return r.Hash, nil
}

// ValidateAddress reports whether the node considers addr valid.
func (c *Client) ValidateAddress(ctx context.Context, addr string) (bool, error) {
	var r struct {
		IsValid bool `json:"isvalid"`
	}
	err := c.Call(ctx, "validateaddress", []any{addr}, &r)
	return r.IsValid, err
}
