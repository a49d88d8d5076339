package jsonpath_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/services/oracle/jsonpath"
	ojson "github.com/nspcc-dev/go-ordered-json"
	ngpath "github.com/nspcc-dev/neo-go/pkg/services/oracle/jsonpath"
	"github.com/stretchr/testify/require"
)

// errNeoGoPanic marks inputs on which neo-go 0.120.0 panics.
var errNeoGoPanic = errors.New("neo-go panicked")

// neoGoDecode is neo-go's decoding (pkg/services/oracle filter).
func neoGoDecode(data []byte) (any, error) {
	d := ojson.NewDecoder(bytes.NewReader(data))
	d.UseOrderedObject()
	var v any
	err := d.Decode(&v)
	return v, err
}

// neoGoFilter is neo-go 0.120.0's oracle filter (unexported there).
func neoGoFilter(data []byte, path string) (res []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%w: %v", errNeoGoPanic, r)
		}
	}()
	if !utf8.Valid(data) {
		return nil, errors.New("not an UTF-8")
	}
	v, err := neoGoDecode(data)
	if err != nil {
		return nil, err
	}
	out, ok := ngpath.Get(path, v)
	if !ok {
		return nil, errors.New("invalid filter")
	}
	return ojson.Marshal(out)
}

// TestVectorsNeoGo runs the vector file through neo-go itself: the
// expected results are neo-go's.
func TestVectorsNeoGo(t *testing.T) {
	docs, cases := loadVectors(t)
	for _, c := range cases {
		got, err := neoGoFilter([]byte(docs[c.Doc]), c.Path)
		if c.Result == nil {
			require.Error(t, err, c.Path)
			continue
		}
		require.NoError(t, err, c.Path)
		require.Equal(t, *c.Result, string(got), c.Path)
	}
}

// checkFilter compares Filter with neo-go's on one input.
func checkFilter(t *testing.T, data []byte, path string) {
	want, werr := neoGoFilter(data, path)
	got, err := jsonpath.Filter(data, path)
	if errors.Is(werr, errNeoGoPanic) {
		return // our documented deviation (negative slice start)
	}
	if werr != nil {
		require.Error(t, err, "neo-go: %v; data %q path %q", werr, data, path)
		return
	}
	require.NoError(t, err, "data %q path %q", data, path)
	require.Equal(t, string(want), string(got), "data %q path %q", data, path)
}

// checkDecode compares Decode+Encode with the fork's decoding and
// marshaling.
func checkDecode(t *testing.T, data []byte) {
	want, werr := neoGoDecode(data)
	got, err := jsonpath.Decode(data)
	if werr != nil {
		require.Error(t, err, "neo-go: %v; data %q", werr, data)
		return
	}
	require.NoError(t, err, "data %q", data)
	wb, werr := ojson.Marshal(want)
	gb, err := jsonpath.Encode(got)
	require.NoError(t, werr)
	require.NoError(t, err)
	require.Equal(t, string(wb), string(gb), "data %q", data)
}

func TestDecodeNeoGo(t *testing.T) {
	for _, s := range []string{
		"", " ", "01", "1x", "[01]", "1.", "1.5e", "-", "-0", "-01", "1e400", "-1e400", "1e-400", "[1e400,x]",
		`"a\'b"`, `"\ud800\u0041"`, `"\ud800\udc00"`, `"\udc00\ud800"`, `"\ud800"`, `"\u00e9\u2028"`,
		"truex", "nul", "[1,]", `{"a":1,}`, `{"a":1,"a":2}`, `{"a" : [ 1 , 2 ] }`, "\t\r\n[]", "[]]", "{}}",
		`"\x01"`, "\"\x01\"", "\"a\x7fb\"", "\"\xff\"", `"&<>'+` + "`" + `\\\/\b\f\n\r\t"`,
		"1E+2", "1e-7", "123456789012345678901234", "0.000001", "0.0000001", "1e21", "1e20", "[[[[[[[[[[]]]]]]]]]]",
		"\"é𝄞\u2029\uFFFD\"",
	} {
		checkDecode(t, []byte(s))
	}
}

func TestFilterNeoGo(t *testing.T) {
	docs := []string{`{"a":[1,2,{"b":"c"}],"d":{"a":5}}`, `[[1,2,3],[4,5],{"x":1}]`, `{"a":{"a":{"a":{"a":{"a":{"a":{"a":1}}}}}}}`}
	paths := []string{"$", "$.a", "$..a", "$.*", "$[*]", "$[0]", "$[-1]", "$[-10:]", "$[1:-1]", "$[:]", "$[0:0]", "$['a']",
		"$['a','d']", "$[0,1,0]", "$.a[2].b", "$..b", "$.a.a.a.a.a.a", "$['\\u0061']", "$['a\"']", "$[ 0]", "$.", ""}
	for _, d := range docs {
		for _, p := range paths {
			checkFilter(t, []byte(d), p)
		}
	}
}

// BenchmarkFilterNeoGo is BenchmarkFilter's cases through neo-go
// 0.120.0's filter, for docs/perf.md.
func BenchmarkFilterNeoGo(b *testing.B) {
	docs, _ := loadVectors(b)
	doc := []byte(docs["store"])
	big := []byte("[" + strings.Repeat(`{"name":"x\u00e9","price":12.5,"tags":["a","b"]},`, 1000) + `{}]`)
	for _, c := range []struct {
		name string
		doc  []byte
		path string
	}{
		{"store/author", doc, "$.store.book[*].author"},
		{"store/recursive", doc, "$..price"},
		{"big/all", big, "$"},
		{"big/names", big, "$[:1000].name"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.doc)))
			for b.Loop() {
				if _, err := neoGoFilter(c.doc, c.path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
