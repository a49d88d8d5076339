package rpcserver

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/neorpc"
)

// Iterator is a server-held iterator of an invoke* result. The VM side
// adapts its iterator stack items to it (including an item already taken
// during in-place expansion, which must come first).
type Iterator interface {
	// Next returns up to n (n > 0) next values, each encoded as the JSON
	// that traverseiterator returns for it (a stack item with types). It
	// returns fewer once the iterator is exhausted. An error is reported to
	// the client as an internal error.
	Next(n int) ([]json.RawMessage, error)
}

// SessionIterator is an iterator registered under an id (a UUID string).
type SessionIterator struct {
	ID   string
	Iter Iterator
}

// SessionStore holds invoke* sessions: sets of iterators that clients page
// through with traverseiterator until they call terminatesession or the
// session is idle for its lifetime. It is safe for concurrent use.
type SessionStore struct {
	lifetime time.Duration
	poolSize int
	clock    Clock
	rand     io.Reader

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool
}

type session struct {
	mu       sync.Mutex // serializes traversal and finalization
	iters    []SessionIterator
	finalize func()
	deadline time.Time // guarded by SessionStore.mu
	done     bool      // guarded by mu
}

// NewSessionStore makes a store. clock and rnd may be nil (wall clock,
// crypto/rand).
func NewSessionStore(lifetime time.Duration, poolSize int, clock Clock, rnd io.Reader) *SessionStore {
	if clock == nil {
		clock = wallClock{}
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	return &SessionStore{lifetime: lifetime, poolSize: poolSize, clock: clock, rand: rnd,
		sessions: make(map[string]*session)}
}

// NewID returns a fresh random (version 4) UUID string for a session or an
// iterator.
func (st *SessionStore) NewID() string {
	u, err := neorpc.NewRandomUUID(st.rand)
	if err != nil {
		panic(fmt.Sprintf("rpcserver: reading random bytes: %v", err))
	}
	return u.String()
}

// Create registers a session holding iters; finalize (may be nil) releases
// what the iterators hold and runs exactly once, when the session ends. If
// the pool is full, finalize runs at once and the error is neo-go's
// "max session capacity reached" internal error.
func (st *SessionStore) Create(iters []SessionIterator, finalize func()) (string, *neorpc.Error) {
	if finalize == nil {
		finalize = func() {}
	}
	id := st.NewID()
	now := st.clock.Now()
	st.mu.Lock()
	expired := st.takeExpiredLocked(now)
	if st.closed || len(st.sessions) >= st.poolSize {
		st.mu.Unlock()
		finalizeAll(expired)
		finalize()
		return "", neorpc.NewInternalServerError("max session capacity reached")
	}
	st.sessions[id] = &session{iters: iters, finalize: finalize, deadline: now.Add(st.lifetime)}
	st.mu.Unlock()
	finalizeAll(expired)
	return id, nil
}

// takeExpiredLocked removes sessions whose deadline has passed.
func (st *SessionStore) takeExpiredLocked(now time.Time) []*session {
	var res []*session
	for id, s := range st.sessions {
		if !now.Before(s.deadline) {
			delete(st.sessions, id)
			res = append(res, s)
		}
	}
	return res
}

func finalizeAll(ss []*session) {
	for _, s := range ss {
		s.end()
	}
}

func (s *session) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		s.done = true
		s.finalize()
	}
}

// lookup returns a live session and extends its deadline, as every
// traverseiterator call resets neo-go's session timer.
func (st *SessionStore) lookup(id string) *session {
	now := st.clock.Now()
	st.mu.Lock()
	s, ok := st.sessions[id]
	if ok && !now.Before(s.deadline) {
		delete(st.sessions, id)
		st.mu.Unlock()
		s.end()
		return nil
	}
	if ok {
		s.deadline = now.Add(st.lifetime)
	}
	st.mu.Unlock()
	return s
}

// Traverse returns up to count values of iterator iterID in session
// sessionID. A count <= 0 returns no values (but still finds the iterator).
func (st *SessionStore) Traverse(sessionID, iterID string, count int) ([]json.RawMessage, *neorpc.Error) {
	s := st.lookup(sessionID)
	if s == nil {
		return nil, neorpc.ErrUnknownSession
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return nil, neorpc.ErrUnknownSession
	}
	for _, it := range s.iters {
		if it.ID != iterID {
			continue
		}
		if count <= 0 {
			return []json.RawMessage{}, nil
		}
		vals, err := it.Iter.Next(count)
		if err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to marshal iterator value: %s", err))
		}
		if vals == nil {
			vals = []json.RawMessage{}
		}
		return vals, nil
	}
	return nil, neorpc.ErrUnknownIterator
}

// Terminate ends a session; it reports whether the session existed.
func (st *SessionStore) Terminate(sessionID string) bool {
	now := st.clock.Now()
	st.mu.Lock()
	s, ok := st.sessions[sessionID]
	if ok {
		delete(st.sessions, sessionID)
	}
	st.mu.Unlock()
	if ok {
		s.end()
	}
	return ok && now.Before(s.deadline)
}

// Sweep ends every session idle for its lifetime. The server calls it
// periodically; expiry is also checked on each access, so clients never see
// a session past its deadline.
func (st *SessionStore) Sweep() {
	st.mu.Lock()
	expired := st.takeExpiredLocked(st.clock.Now())
	st.mu.Unlock()
	finalizeAll(expired)
}

// Len returns the number of sessions, expired ones not yet swept included.
func (st *SessionStore) Len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.sessions)
}

// Close ends all sessions; later Create calls fail.
func (st *SessionStore) Close() {
	st.mu.Lock()
	st.closed = true
	all := make([]*session, 0, len(st.sessions))
	for id, s := range st.sessions {
		delete(st.sessions, id)
		all = append(all, s)
	}
	st.mu.Unlock()
	finalizeAll(all)
}
