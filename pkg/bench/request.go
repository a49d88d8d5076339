package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// Bodies holds the JSON-RPC request bodies of a workload, encoded once
// before the load starts so that sending costs the client no encoding.
// Every body has the same size.
type Bodies struct {
	buf  []byte
	size int
	n    int
}

const (
	bodyPrefix = `{"jsonrpc":"2.0","method":"sendrawtransaction","params":["`
	bodySuffix = `"],"id":1}`
)

// EncodeBodies builds the sendrawtransaction request of every transaction.
func EncodeBodies(w *Workload) *Bodies {
	size := len(bodyPrefix) + base64.StdEncoding.EncodedLen(w.TxSize) + len(bodySuffix)
	b := &Bodies{buf: make([]byte, 0, size*w.Len()), size: size, n: w.Len()}
	for i := range w.Len() {
		b.buf = append(b.buf, bodyPrefix...)
		b.buf = base64.StdEncoding.AppendEncode(b.buf, w.Tx(i))
		b.buf = append(b.buf, bodySuffix...)
	}
	return b
}

// Len returns the number of bodies.
func (b *Bodies) Len() int { return b.n }

// Body returns request i (aliasing the shared buffer).
func (b *Bodies) Body(i int) []byte { return b.buf[i*b.size : (i+1)*b.size : (i+1)*b.size] }

// poster sends one pre-encoded JSON-RPC body and returns the response body,
// valid until the next call.
type poster interface {
	post(ctx context.Context, body []byte) ([]byte, error)
	close()
}

// newPoster returns a raw HTTP/1.1 keep-alive connection for http://
// endpoints (one write and one buffered read per request, no per-request
// allocation) and a net/http client for anything else.
func newPoster(endpoint string, timeout time.Duration) (poster, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "http":
		host := u.Host
		if u.Port() == "" {
			host = net.JoinHostPort(u.Hostname(), "80")
		}
		path := u.RequestURI()
		return &rawPoster{addr: host, host: u.Host, path: path, timeout: timeout}, nil
	case "https":
		return &stdPoster{url: endpoint, cli: &http.Client{Timeout: timeout}}, nil
	}
	return nil, fmt.Errorf("bench: unsupported endpoint scheme %q", u.Scheme)
}

// rawPoster is a minimal HTTP/1.1 client over one keep-alive connection.
type rawPoster struct {
	addr, host, path string
	timeout          time.Duration

	conn net.Conn
	br   *bufio.Reader
	req  []byte
	resp []byte
}

var errHTTP = errors.New("bench: bad HTTP response")

func (p *rawPoster) close() {
	if p.conn != nil {
		p.conn.Close()
		p.conn = nil
	}
}

func (p *rawPoster) post(ctx context.Context, body []byte) ([]byte, error) {
	if p.conn == nil {
		d := net.Dialer{Timeout: p.timeout}
		c, err := d.DialContext(ctx, "tcp", p.addr)
		if err != nil {
			return nil, err
		}
		p.conn = c
		if p.br == nil {
			p.br = bufio.NewReaderSize(c, 16<<10)
		} else {
			p.br.Reset(c)
		}
	}
	if err := p.conn.SetDeadline(time.Now().Add(p.timeout)); err != nil {
		p.close()
		return nil, err
	}
	r := append(p.req[:0], "POST "...)
	r = append(r, p.path...)
	r = append(r, " HTTP/1.1\r\nHost: "...)
	r = append(r, p.host...)
	r = append(r, "\r\nContent-Type: application/json\r\nContent-Length: "...)
	r = strconv.AppendInt(r, int64(len(body)), 10)
	r = append(r, "\r\n\r\n"...)
	r = append(r, body...)
	p.req = r
	if _, err := p.conn.Write(r); err != nil {
		p.close()
		return nil, err
	}
	resp, keep, err := readResponse(p.br, p.resp[:0])
	if err != nil {
		p.close()
		return nil, err
	}
	p.resp = resp
	if !keep {
		p.close()
	}
	return resp, nil
}

// readResponse reads one HTTP/1.1 response (Content-Length or chunked body)
// and appends its body to dst. keep reports whether the connection may be
// reused. The status code is not checked: JSON-RPC servers answer errors
// with a JSON body whatever the status.
func readResponse(br *bufio.Reader, dst []byte) (body []byte, keep bool, err error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return nil, false, err
	}
	if !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return nil, false, fmt.Errorf("%w: status line %q", errHTTP, bytes.TrimSpace(line))
	}
	keep = bytes.HasPrefix(line, []byte("HTTP/1.1"))
	length, chunked := -1, false
	for {
		line, err = br.ReadSlice('\n')
		if err != nil {
			return nil, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil, false, fmt.Errorf("%w: header %q", errHTTP, line)
		}
		v = bytes.TrimSpace(v)
		switch {
		case asciiEqualFold(k, "content-length"):
			n, err := strconv.Atoi(string(v))
			if err != nil || n < 0 {
				return nil, false, fmt.Errorf("%w: Content-Length %q", errHTTP, v)
			}
			length = n
		case asciiEqualFold(k, "transfer-encoding"):
			chunked = asciiEqualFold(v, "chunked")
		case asciiEqualFold(k, "connection"):
			if asciiEqualFold(v, "close") {
				keep = false
			} else if asciiEqualFold(v, "keep-alive") {
				keep = true
			}
		}
	}
	const maxBody = 64 << 20
	switch {
	case chunked:
		for {
			line, err = br.ReadSlice('\n')
			if err != nil {
				return nil, false, err
			}
			sz, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
			n, err := strconv.ParseUint(string(bytes.TrimSpace(sz)), 16, 32)
			if err != nil || len(dst)+int(n) > maxBody {
				return nil, false, fmt.Errorf("%w: chunk size %q", errHTTP, sz)
			}
			if n == 0 {
				for { // trailers up to the empty line
					line, err = br.ReadSlice('\n')
					if err != nil {
						return nil, false, err
					}
					if len(bytes.TrimRight(line, "\r\n")) == 0 {
						return dst, keep, nil
					}
				}
			}
			if dst, err = readN(br, dst, int(n)); err != nil {
				return nil, false, err
			}
			if _, err = br.Discard(2); err != nil { // CRLF
				return nil, false, err
			}
		}
	case length >= 0:
		if length > maxBody {
			return nil, false, fmt.Errorf("%w: body of %d bytes", errHTTP, length)
		}
		dst, err = readN(br, dst, length)
		return dst, keep, err
	default: // body up to EOF
		var buf bytes.Buffer
		buf.Write(dst)
		_, err = buf.ReadFrom(io.LimitReader(br, maxBody))
		return buf.Bytes(), false, err
	}
}

func readN(br *bufio.Reader, dst []byte, n int) ([]byte, error) {
	off := len(dst)
	dst = slices.Grow(dst, n)[:off+n]
	_, err := io.ReadFull(br, dst[off:])
	return dst, err
}

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// stdPoster sends through net/http (https endpoints).
type stdPoster struct {
	url  string
	cli  *http.Client
	resp bytes.Buffer
}

func (p *stdPoster) close() { p.cli.CloseIdleConnections() }

func (p *stdPoster) post(ctx context.Context, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.cli.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	p.resp.Reset()
	if _, err := p.resp.ReadFrom(io.LimitReader(resp.Body, 64<<20)); err != nil {
		return nil, err
	}
	return p.resp.Bytes(), nil
}
