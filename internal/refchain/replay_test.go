package refchain

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func rec(method, params, result, rpcErr string) Record {
	r := Record{Method: method, Params: json.RawMessage(params)}
	if result != "" {
		r.Result = json.RawMessage(result)
	}
	if rpcErr != "" {
		r.Error = json.RawMessage(rpcErr)
	}
	return r
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name           string
		rec            Record
		result, rpcErr string
		o              ReplayOptions
		diff           string // substring of the expected difference; "" = equal
	}{
		{"equal, key order and spacing differ", rec("m", "[]", `{"a":1,"b":[1,2]}`, ""), `{ "b": [1, 2], "a": 1 }`, "", ReplayOptions{}, ""},
		{"number spelling", rec("m", "[]", `{"a":10}`, ""), `{"a":1e1}`, "", ReplayOptions{}, ""},
		{"value differs", rec("m", "[]", `{"a":{"b":"x"}}`, ""), `{"a":{"b":"y"}}`, "", ReplayOptions{}, `result.a.b: recorded "x", got "y"`},
		{"missing key", rec("m", "[]", `{"a":1,"b":2}`, ""), `{"a":1}`, "", ReplayOptions{}, "result.b: recorded 2, missing"},
		{"extra key", rec("m", "[]", `{"a":1}`, ""), `{"a":1,"c":3}`, "", ReplayOptions{}, "result.c: not recorded"},
		{"array length", rec("m", "[]", `[1,2]`, ""), `[1,2,3]`, "", ReplayOptions{}, "recorded 2 elements, got 3"},
		{"result vs error", rec("m", "[]", `1`, ""), "", `{"code":-1,"message":"x"}`, ReplayOptions{}, "got error"},
		{"error vs result", rec("m", "[]", "", `{"code":-1,"message":"x"}`), "1", "", ReplayOptions{}, "got result"},
		{"error code only", rec("m", "[]", "", `{"code":-100,"message":"x"}`), "", `{"code":-100,"message":"y","data":"z"}`, ReplayOptions{}, ""},
		{"error code differs", rec("m", "[]", "", `{"code":-100,"message":"x"}`), "", `{"code":-101,"message":"x"}`, ReplayOptions{}, "error.code"},
		{"error messages compared", rec("m", "[]", "", `{"code":-100,"message":"x"}`), "", `{"code":-100,"message":"y"}`, ReplayOptions{ErrorMessages: true}, "error.message"},
		{"volatile nonce", rec("getversion", "[]", `{"nonce":1,"tcpport":2}`, ""), `{"nonce":7,"tcpport":2}`, "", ReplayOptions{}, ""},
		{"ignored path", rec("m", "[]", `{"a":{"b":1,"c":2}}`, ""), `{"a":{"b":5,"c":2}}`, "", ReplayOptions{Ignore: map[string][]string{"m": {"a.b"}}}, ""},
		{"ignored in every element", rec("m", "[]", `[{"t":1,"v":2},{"t":3,"v":4}]`, ""), `[{"t":9,"v":2},{"t":9,"v":4}]`, "", ReplayOptions{Ignore: map[string][]string{"m": {"*.t"}}}, ""},
		{"ignore whole result", rec("m", "[]", `1`, ""), `2`, "", ReplayOptions{Ignore: map[string][]string{"m": {""}}}, ""},
		{"unordered balances", rec("getnep17balances", "[]", `{"balance":[{"a":1},{"a":2}]}`, ""), `{"balance":[{"a":2},{"a":1}]}`, "", ReplayOptions{}, ""},
		{"ordered elsewhere", rec("m", "[]", `{"balance":[1,2]}`, ""), `{"balance":[2,1]}`, "", ReplayOptions{}, "result.balance[0]"},
		{"unordered option", rec("m", "[]", `{"x":[1,2]}`, ""), `{"x":[2,1]}`, "", ReplayOptions{Unordered: map[string][]string{"m": {"x"}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res, e json.RawMessage
			if tc.result != "" {
				res = json.RawMessage(tc.result)
			}
			if tc.rpcErr != "" {
				e = json.RawMessage(tc.rpcErr)
			}
			d := Compare(tc.rec, res, e, tc.o)
			switch {
			case tc.diff == "" && d != "":
				t.Errorf("unexpected difference: %s", d)
			case tc.diff != "" && !strings.Contains(d, tc.diff):
				t.Errorf("difference %q, want one containing %q", d, tc.diff)
			}
		})
	}
}

// TestReplaySelf replays every committed record against a fake node that
// answers from the records themselves: Replay must find no mismatch, and a
// tampered answer must be reported.
func TestReplaySelf(t *testing.T) {
	f := loadFixtures(t)
	all := f.AllRecords()
	answers := make(map[string]Record, len(all))
	key := func(method string, params json.RawMessage) string {
		v, err := decodeJSON(params)
		if err != nil {
			t.Fatal(err)
		}
		return method + canonical(v)
	}
	for _, r := range all {
		answers[key(r.Method, r.Params)] = r
	}
	tamper := ""
	call := func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, json.RawMessage, error) {
		r := answers[key(method, params)]
		if method == tamper {
			return json.RawMessage(`"tampered"`), nil, nil
		}
		return r.Result, r.Error, nil
	}
	mm, err := Replay(context.Background(), call, all, ReplayOptions{ErrorMessages: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(mm) != 0 {
		t.Fatalf("%d mismatches, first: %s", len(mm), mm[0])
	}
	tamper = "getstateroot"
	mm, err = Replay(context.Background(), call, all, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range all {
		if r.Method == tamper {
			want++
		}
	}
	if len(mm) != want || want == 0 {
		t.Fatalf("%d mismatches for %d tampered answers", len(mm), want)
	}
}

func TestFindNormalisesParams(t *testing.T) {
	f := &Fixtures{Records: map[string][]Record{"x": {rec("getblock", `[ 10, true ]`, `{"index":10}`, "")}}}
	for _, params := range [][]any{{10, true}, {10.0, true}, {json.Number("1e1"), true}} {
		if _, err := f.Find("getblock", params...); err != nil {
			t.Errorf("Find(%v): %v", params, err)
		}
	}
	if _, err := f.Find("getblock", 10, false); err == nil {
		t.Error("Find matched different params")
	}
}
