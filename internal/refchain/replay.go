package refchain

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Caller sends one JSON-RPC request to the node under test and returns the
// answer's raw result or error member (exactly one of them non-empty). err is
// for transport failures only.
type Caller func(ctx context.Context, method string, params json.RawMessage) (result, rpcErr json.RawMessage, err error)

// ReplayOptions tune the comparison of answers.
type ReplayOptions struct {
	// Ignore lists, per method, paths removed from both answers before they
	// are compared: dot-separated object keys, "*" for every array element,
	// e.g. "nonce" or "protocol.hardforks". The empty path "" ignores the whole
	// result (only result-vs-error is compared).
	Ignore map[string][]string
	// Unordered lists, per method, paths of arrays compared as multisets
	// (in addition to UnorderedFields).
	Unordered map[string][]string
	// ErrorMessages also compares error "message" and "data"; by default only
	// the error code must match, as messages differ between implementations.
	ErrorMessages bool
}

// VolatileFields are answer fields that differ between two runs of the same
// node on the same chain; Replay always ignores them.
var VolatileFields = map[string][]string{
	"getversion": {"nonce"}, // random per process
}

// UnorderedFields are answer arrays whose order is not defined: neo-go
// builds getnep17balances from a Go map, so two calls may list the tokens
// in different orders. Replay always compares them as multisets.
var UnorderedFields = map[string][]string{
	"getnep17balances": {"balance"},
	"getnep11balances": {"balance"},
}

// Mismatch is one replayed request whose answer differs from the record.
type Mismatch struct {
	Record Record
	Result json.RawMessage
	Error  json.RawMessage
	Diff   string // the first difference, as "path: recorded vs got"
}

func (m Mismatch) String() string {
	return fmt.Sprintf("%s %s: %s", m.Record.Method, m.Record.Params, m.Diff)
}

// Replay sends every record's request through call and compares the answer
// with the recorded one as JSON values (key order and number spelling do not
// matter). It returns the mismatches; err is a transport failure.
func Replay(ctx context.Context, call Caller, recs []Record, o ReplayOptions) ([]Mismatch, error) {
	var out []Mismatch
	for _, rec := range recs {
		res, rpcErr, err := call(ctx, rec.Method, rec.Params)
		if err != nil {
			return out, fmt.Errorf("%s %s: %w", rec.Method, rec.Params, err)
		}
		if d := Compare(rec, res, rpcErr, o); d != "" {
			out = append(out, Mismatch{Record: rec, Result: res, Error: rpcErr, Diff: d})
		}
	}
	return out, nil
}

// Compare returns "" if the answer (result or rpcErr) matches rec under o,
// otherwise a description of the first difference.
func Compare(rec Record, result, rpcErr json.RawMessage, o ReplayOptions) string {
	switch {
	case len(rec.Error) != 0 && len(rpcErr) == 0:
		return fmt.Sprintf("recorded error %s, got result %.200s", rec.Error, result)
	case len(rec.Error) == 0 && len(rpcErr) != 0:
		return fmt.Sprintf("recorded a result, got error %s", rpcErr)
	case len(rec.Error) != 0:
		want, err1 := decodeJSON(rec.Error)
		got, err2 := decodeJSON(rpcErr)
		if err1 != nil || err2 != nil {
			return fmt.Sprintf("undecodable error: %v %v", err1, err2)
		}
		if !o.ErrorMessages {
			want = errorCode(want)
			got = errorCode(got)
		}
		return firstDiff(want, got, "error")
	}
	ignore := append(slices.Clone(VolatileFields[rec.Method]), o.Ignore[rec.Method]...)
	if slices.Contains(ignore, "") {
		return ""
	}
	want, err1 := decodeJSON(rec.Result)
	got, err2 := decodeJSON(result)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("undecodable result: %v %v", err1, err2)
	}
	for _, p := range ignore {
		want = dropPath(want, strings.Split(p, "."))
		got = dropPath(got, strings.Split(p, "."))
	}
	for _, p := range append(slices.Clone(UnorderedFields[rec.Method]), o.Unordered[rec.Method]...) {
		sortPath(want, strings.Split(p, "."))
		sortPath(got, strings.Split(p, "."))
	}
	return firstDiff(want, got, "result")
}

func errorCode(v any) any {
	if m, ok := v.(map[string]any); ok {
		return map[string]any{"code": m["code"]}
	}
	return v
}

// dropPath returns v without the value at path (deleting object keys; "*"
// descends into every array element).
func dropPath(v any, path []string) any {
	if len(path) == 0 {
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		if len(path) == 1 {
			delete(x, path[0])
			return x
		}
		if c, ok := x[path[0]]; ok {
			x[path[0]] = dropPath(c, path[1:])
		}
	case []any:
		if path[0] == "*" {
			for i := range x {
				x[i] = dropPath(x[i], path[1:])
			}
		}
	}
	return v
}

// sortPath sorts, in place, the array at path by the canonical JSON of its
// elements.
func sortPath(v any, path []string) {
	switch x := v.(type) {
	case map[string]any:
		if len(path) == 0 {
			return
		}
		c, ok := x[path[0]]
		if !ok {
			return
		}
		if len(path) == 1 {
			if arr, ok := c.([]any); ok {
				slices.SortStableFunc(arr, func(a, b any) int { return strings.Compare(canonical(a), canonical(b)) })
			}
			return
		}
		sortPath(c, path[1:])
	case []any:
		if len(path) > 0 && path[0] == "*" {
			for _, e := range x {
				sortPath(e, path[1:])
			}
		}
	}
}

// canonical is the JSON encoding of a decoded value (object keys sorted).
func canonical(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// firstDiff compares two decoded JSON values and describes the first
// difference (depth first, object keys in sorted order), or returns "".
func firstDiff(want, got any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: recorded object, got %s", path, short(got))
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			wv, wok := w[k]
			gv, gok := g[k]
			switch {
			case !wok:
				return fmt.Sprintf("%s.%s: not recorded, got %s", path, k, short(gv))
			case !gok:
				return fmt.Sprintf("%s.%s: recorded %s, missing", path, k, short(wv))
			}
			if d := firstDiff(wv, gv, path+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("%s: recorded array, got %s", path, short(got))
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			if d := firstDiff(w[i], g[i], path+"["+strconv.Itoa(i)+"]"); d != "" {
				return d
			}
		}
		if len(w) != len(g) {
			return fmt.Sprintf("%s: recorded %d elements, got %d", path, len(w), len(g))
		}
		return ""
	case json.Number:
		if g, ok := got.(json.Number); ok && numEqual(w, g) {
			return ""
		}
	default:
		if reflect.DeepEqual(want, got) {
			return ""
		}
	}
	return fmt.Sprintf("%s: recorded %s, got %s", path, short(want), short(got))
}

func numEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	ra, ok1 := new(big.Rat).SetString(string(a))
	rb, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && ra.Cmp(rb) == 0
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
