package jsonpath_test

import (
	"bytes"
	"testing"

	"github.com/n3node/n3node/pkg/services/oracle/jsonpath"
)

// FuzzDecode: Decode never panics, and what it accepts encodes to JSON
// that decodes and encodes to the same bytes. (internal/neogodiff's
// FuzzDecodeNeoGo compares acceptance and output with neo-go.)
func FuzzDecode(f *testing.F) {
	docs, _ := jsonpath.LoadVectors(f)
	for _, d := range docs {
		f.Add([]byte(d))
	}
	f.Add([]byte(`"\ud800\u0041"`))
	f.Add([]byte("1e400"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonpath.Decode(data)
		if err != nil {
			return
		}
		b, err := jsonpath.Encode(v)
		if err != nil {
			return
		}
		v2, err := jsonpath.Decode(b)
		if err != nil {
			t.Fatalf("%q encodes to %q, which does not decode: %v", data, b, err)
		}
		b2, err := jsonpath.Encode(v2)
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("%q: %q re-encodes to %q (%v)", data, b, b2, err)
		}
	})
}

// FuzzFilter: Filter (decode, path, encode) never panics on any document
// and path. (internal/neogodiff's FuzzFilterNeoGo compares it with neo-go.)
func FuzzFilter(f *testing.F) {
	docs, cases := jsonpath.LoadVectors(f)
	for _, c := range cases {
		f.Add([]byte(docs[c.Doc]), c.Path)
	}
	f.Add([]byte(`[1,2,3]`), "$[-10:]")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		_, _ = jsonpath.Filter(data, path)
	})
}
