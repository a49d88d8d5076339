package rpcserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// countIter yields "0", "1", ... up to n-1.
type countIter struct{ next, n int }

func (it *countIter) Next(k int) ([]json.RawMessage, error) {
	var res []json.RawMessage
	for ; k > 0 && it.next < it.n; k-- {
		res = append(res, json.RawMessage(fmt.Sprintf(`{"type":"Integer","value":"%d"}`, it.next)))
		it.next++
	}
	return res, nil
}

type seqReader struct{ r *rand.ChaCha8 }

func (s seqReader) Read(p []byte) (int, error) { return s.r.Read(p) }

func newTestStore(clock *fakeClock) *SessionStore {
	return NewSessionStore(10*time.Second, 2, clock, seqReader{rand.NewChaCha8([32]byte{1})})
}

func TestSessionExpiry(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1000, 0)}
	st := newTestStore(clock)
	finalized := map[string]int{}
	fin := func(name string) func() { return func() { finalized[name]++ } }

	itID := st.NewID()
	a, err := st.Create([]SessionIterator{{ID: itID, Iter: &countIter{n: 5}}}, fin("a"))
	if err != nil {
		t.Fatal(err)
	}
	vals, err := st.Traverse(a, itID, 3)
	if err != nil || len(vals) != 3 {
		t.Fatal(vals, err)
	}
	clock.advance(9 * time.Second) // access resets the lifetime
	if vals, err := st.Traverse(a, itID, 0); err != nil || len(vals) != 0 {
		t.Fatal(vals, err)
	}
	clock.advance(9 * time.Second)
	if vals, err := st.Traverse(a, itID, 10); err != nil || len(vals) != 2 {
		t.Fatal(vals, err)
	}
	if _, err := st.Traverse(a, "other", 1); err == nil || err.Code != -108 {
		t.Fatal(err)
	}
	clock.advance(10 * time.Second) // idle for its lifetime: gone
	if _, err := st.Traverse(a, itID, 1); err == nil || err.Code != -107 {
		t.Fatal(err)
	}
	if finalized["a"] != 1 {
		t.Fatal(finalized)
	}

	// Pool size 2: the third session is refused and finalized at once.
	b, _ := st.Create(nil, fin("b"))
	c, _ := st.Create(nil, fin("c"))
	if _, err := st.Create(nil, fin("d")); err == nil || err.Message != "Internal error" || err.Data != "max session capacity reached" {
		t.Fatal(err)
	}
	if finalized["d"] != 1 {
		t.Fatal(finalized)
	}
	if !st.Terminate(b) || st.Terminate(b) || finalized["b"] != 1 {
		t.Fatal("terminate", finalized)
	}
	clock.advance(11 * time.Second)
	st.Sweep()
	if st.Len() != 0 || finalized["c"] != 1 {
		t.Fatal(st.Len(), finalized)
	}
	if st.Terminate(c) {
		t.Fatal("expired session terminated")
	}
	e, _ := st.Create(nil, fin("e"))
	st.Close()
	if finalized["e"] != 1 || st.Terminate(e) {
		t.Fatal(finalized)
	}
	if _, err := st.Create(nil, fin("f")); err == nil || finalized["f"] != 1 {
		t.Fatal("create after close", err)
	}
}

func TestSessionMethods(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1000, 0)}
	s := testServer(t, Config{SessionEnabled: true, SessionLifetime: 10 * time.Second, Clock: clock,
		Rand: seqReader{rand.NewChaCha8([32]byte{2})}})
	defer s.Sessions().Close()
	itID := s.Sessions().NewID()
	sid, rerr := s.Sessions().Create([]SessionIterator{{ID: itID, Iter: &countIter{n: 3}}}, nil)
	if rerr != nil {
		t.Fatal(rerr)
	}
	call := func(method, params string) string {
		return strings.TrimSuffix(post(t, s, fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s,"id":1}`, method, params)), "\n")
	}
	errResp := func(code int, msg, data string) string {
		e := fmt.Sprintf(`{"code":%d,"message":%q`, code, msg)
		if data != "" {
			e += fmt.Sprintf(`,"data":%q`, data)
		}
		return `{"id":1,"jsonrpc":"2.0","error":` + e + `}}`
	}
	upper := strings.ToUpper(sid)
	cases := []struct{ method, params, want string }{
		{"traverseiterator", `[]`, errResp(-32602, "Invalid params", "invalid session ID: parameter is missing")},
		{"traverseiterator", `["x"]`, errResp(-32602, "Invalid params", "invalid session ID: not a valid UUID: invalid UUID length: 1")},
		{"traverseiterator", fmt.Sprintf(`[%q]`, sid), errResp(-32602, "Invalid params", "invalid iterator ID: parameter is missing")},
		{"traverseiterator", fmt.Sprintf(`[%q,%q]`, sid, itID), errResp(-32602, "Invalid params", "invalid iterator items count: parameter is missing")},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,"x"]`, sid, itID), errResp(-32602, "Invalid params", `invalid iterator items count: strconv.Atoi: parsing "x": invalid syntax`)},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,3000000000]`, sid, itID), errResp(-32602, "Invalid params", "invalid iterator items count: not an int32")},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,101]`, sid, itID), errResp(-32602, "Invalid params", "iterator items count (101) is out of range (100 at max)")},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,1]`, itID, itID), errResp(-107, "Unknown session", "")},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,1]`, sid, sid), errResp(-108, "Unknown iterator", "")},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,2]`, upper, itID), `{"id":1,"jsonrpc":"2.0","result":[{"type":"Integer","value":"0"},{"type":"Integer","value":"1"}]}`},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,-1]`, sid, itID), `{"id":1,"jsonrpc":"2.0","result":[]}`},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,"5"]`, "{"+sid+"}", itID), `{"id":1,"jsonrpc":"2.0","result":[{"type":"Integer","value":"2"}]}`},
		{"traverseiterator", fmt.Sprintf(`[%q,%q,5]`, sid, itID), `{"id":1,"jsonrpc":"2.0","result":[]}`},
		{"terminatesession", `[1]`, errResp(-32602, "Invalid params", "invalid session ID: not a valid UUID: invalid UUID length: 1")},
		{"terminatesession", fmt.Sprintf(`[%q]`, "urn:uuid:"+sid), `{"id":1,"jsonrpc":"2.0","result":true}`},
		{"terminatesession", fmt.Sprintf(`[%q]`, sid), errResp(-107, "Unknown session", "")},
	}
	for _, c := range cases {
		if got := call(c.method, c.params); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.method, c.params, got, c.want)
		}
	}
	// Expiry through the clock.
	sid, _ = s.Sessions().Create([]SessionIterator{{ID: itID, Iter: &countIter{n: 3}}}, nil)
	clock.advance(10 * time.Second)
	if got := call("traverseiterator", fmt.Sprintf(`[%q,%q,1]`, sid, itID)); got != errResp(-107, "Unknown session", "") {
		t.Fatal(got)
	}
}
