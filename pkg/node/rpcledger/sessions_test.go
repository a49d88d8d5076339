package rpcledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

// Iterator sessions differ in their random ids only: a session script's
// steps use the placeholders "$session", "$iter0", "$iter1"... for the
// ids of the latest invocation that returned a session, and answers are
// compared with the ids replaced by the same placeholders.

const sessionsFile = "testdata/neogo-sessions.json"

// sessionConfig is one server configuration of the session scripts.
type sessionConfig struct {
	Name                    string `json:"name"`
	SessionExpansionEnabled bool   `json:"sessionexpansionenabled"`
	SessionBackedByMPT      bool   `json:"sessionbackedbympt"`
	MaxIteratorResultItems  int    `json:"maxiteratorresultitems"`
}

func (c sessionConfig) neoGoLines() []string {
	return []string{
		"SessionEnabled: true",
		fmt.Sprintf("SessionExpansionEnabled: %v", c.SessionExpansionEnabled),
		fmt.Sprintf("SessionBackedByMPT: %v", c.SessionBackedByMPT),
		fmt.Sprintf("MaxIteratorResultItems: %d", c.MaxIteratorResultItems),
	}
}

func (c sessionConfig) apply(rc *rpcserver.Config) {
	rc.SessionEnabled = true
	rc.SessionExpansionEnabled = c.SessionExpansionEnabled
	rc.SessionBackedByMPT = c.SessionBackedByMPT
	rc.MaxIteratorResultItems = c.MaxIteratorResultItems
}

var sessionConfigs = []sessionConfig{
	{Name: "sessions", MaxIteratorResultItems: 3},
	{Name: "expansion", SessionExpansionEnabled: true, MaxIteratorResultItems: 2},
	{Name: "mpt", SessionBackedByMPT: true, MaxIteratorResultItems: 3},
}

type sessionRun struct {
	Config  sessionConfig     `json:"config"`
	Records []refchain.Record `json:"records"`
}

// sessionSteps is the session script.
func sessionSteps(t testing.TB) []query {
	twoIters, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.NeoHash, "getAllCandidates", callflag.All)
		emit.AppCall(w, nativenames.PolicyHash, "getBlockedAccounts", callflag.All)
		emit.Int(w, 7)
	})
	require.NoError(t, err)
	return []query{
		q("invokefunction", "NeoToken", "getAllCandidates"),
		q("traverseiterator", "$session", "$iter0", 1),
		q("traverseiterator", "$session", "$iter0", 0),
		q("traverseiterator", "$session", "$iter0", -1),
		q("traverseiterator", "$session", "$iter0", 2),
		q("traverseiterator", "$session", "$iter0", 2),
		q("traverseiterator", "$session", "$iter0", 4),
		q("traverseiterator", "$session", "$iter0", "x"),
		q("traverseiterator", "$session", "$iter0", 4294967296),
		q("traverseiterator", "$session", "00000000-0000-0000-0000-000000000000", 1),
		q("traverseiterator", "00000000-0000-0000-0000-000000000000", "$iter0", 1),
		q("traverseiterator", "bad", "$iter0", 1),
		q("traverseiterator", "$session", "bad", 1),
		q("traverseiterator", "$session"),
		q("terminatesession", "$session"),
		q("terminatesession", "$session"),
		q("traverseiterator", "$session", "$iter0", 1),
		q("terminatesession", "bad"),
		q("terminatesession"),
		q("invokefunctionhistoric", 12, "NeoToken", "getAllCandidates"),
		q("traverseiterator", "$session", "$iter0", 1),
		q("traverseiterator", "$session", "$iter0", 1),
		q("traverseiterator", "$session", "$iter0", 1),
		q("traverseiterator", "$session", "$iter0", 1),
		q("invokescript", b64(twoIters)),
		q("traverseiterator", "$session", "$iter1", 2),
		q("traverseiterator", "$session", "$iter0", 2),
		q("traverseiterator", "$session", "$iter0", 2),
		q("terminatesession", "$session"),
		q("invokefunction", "PolicyContract", "getBlockedAccounts"),
		q("traverseiterator", "$session", "$iter0", 2),
		q("invokefunction", "NeoToken", "getCandidates"),
		q("invokefunction", "NeoToken", "getAllCandidates", raw(`[]`), nil, true),
	}
}

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// sessionIDs are the ids of the latest invocation with a session.
type sessionIDs struct {
	session string
	iters   []string
}

// capture takes the ids of an invocation result (if it has a session).
func (s *sessionIDs) capture(res json.RawMessage) {
	var inv struct {
		Session string `json:"session"`
		Stack   []struct {
			ID string `json:"id"`
		} `json:"stack"`
	}
	if json.Unmarshal(res, &inv) != nil || inv.Session == "" {
		return
	}
	s.session, s.iters = inv.Session, nil
	for _, it := range inv.Stack {
		if it.ID != "" {
			s.iters = append(s.iters, it.ID)
		}
	}
}

// fill replaces the placeholders of params.
func (s *sessionIDs) fill(params []any) []any {
	out := make([]any, len(params))
	for i, p := range params {
		out[i] = p
		str, ok := p.(string)
		if !ok || !strings.HasPrefix(str, "$") {
			continue
		}
		switch {
		case str == "$session" && s.session != "":
			out[i] = s.session
		case strings.HasPrefix(str, "$iter"):
			var n int
			fmt.Sscanf(str, "$iter%d", &n)
			if n < len(s.iters) {
				out[i] = s.iters[n]
			}
		}
	}
	return out
}

// normalize replaces the ids in an answer by their placeholders.
func (s *sessionIDs) normalize(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return json.RawMessage(uuidRe.ReplaceAllStringFunc(string(b), func(id string) string {
		if id == s.session {
			return "$session"
		}
		for i, it := range s.iters {
			if id == it {
				return fmt.Sprintf("$iter%d", i)
			}
		}
		return id
	}))
}

// runSessionSteps sends the steps through call and returns the normalized
// records (params keep their placeholders).
func runSessionSteps(t testing.TB, call refchain.Caller, steps []query) []refchain.Record {
	var (
		ids  sessionIDs
		recs []refchain.Record
		ctx  = context.Background()
	)
	for _, st := range steps {
		params, err := json.Marshal(ids.fill(st.Params))
		require.NoError(t, err)
		res, rerr, err := call(ctx, st.Method, params)
		require.NoError(t, err)
		if strings.HasPrefix(st.Method, "invoke") {
			ids.capture(res)
		}
		shown, err := json.Marshal(st.Params)
		require.NoError(t, err)
		recs = append(recs, refchain.Record{Method: st.Method, Params: shown, Result: ids.normalize(res), Error: ids.normalize(rerr)})
	}
	return recs
}

// TestNeoGoSessionRecords replays the recorded session scripts (three
// server configurations) against our server.
func TestNeoGoSessionRecords(t *testing.T) {
	data, err := os.ReadFile(sessionsFile)
	require.NoError(t, err)
	var runs []sessionRun
	require.NoError(t, json.Unmarshal(data, &runs))
	require.Len(t, runs, len(sessionConfigs))
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	bc, cfg := restore(t, f)
	steps := sessionSteps(t)
	for _, run := range runs {
		t.Run(run.Config.Name, func(t *testing.T) {
			url := startServer(t, bc, cfg, fakeNet{}, run.Config.apply)
			got := runSessionSteps(t, httpCaller(url), steps)
			require.Len(t, run.Records, len(got))
			for i, rec := range run.Records {
				if d := refchain.Compare(rec, got[i].Result, got[i].Error, refchain.ReplayOptions{ErrorMessages: true}); d != "" {
					t.Errorf("step %d %s %s: %s", i, rec.Method, rec.Params, d)
				}
			}
		})
	}
}

// TestNeoGoLiveSessions runs the session scripts against neo-go and us
// (N3NODE_NEOGO=1); N3NODE_NEOGO_UPDATE=1 records neo-go's answers.
func TestNeoGoLiveSessions(t *testing.T) {
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to run against neo-go 0.120.0 (make rpc-live)")
	}
	bc, cfg := restore(t, f)
	steps := sessionSteps(t)
	var runs []sessionRun
	for _, sc := range sessionConfigs {
		ref := startNeoGoChain(t, f, sc.neoGoLines()...)
		want := runSessionSteps(t, func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, json.RawMessage, error) {
			r, err := ref.CallRaw(ctx, method, params)
			return r.Result, r.Error, err
		}, steps)
		url := startServer(t, bc, cfg, fakeNet{}, sc.apply)
		got := runSessionSteps(t, httpCaller(url), steps)
		for i := range want {
			if d := refchain.Compare(want[i], got[i].Result, got[i].Error, refchain.ReplayOptions{ErrorMessages: true}); d != "" {
				t.Errorf("%s step %d %s %s: %s", sc.Name, i, want[i].Method, want[i].Params, d)
			}
		}
		runs = append(runs, sessionRun{Config: sc, Records: want})
	}
	if os.Getenv("N3NODE_NEOGO_UPDATE") != "" {
		data, err := json.MarshalIndent(runs, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(sessionsFile, append(data, '\n'), 0o644))
	}
}
