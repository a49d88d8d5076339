package jsonpath_test

import (
	"testing"
)

// FuzzDecodeNeoGo checks Decode and Encode against neo-go's JSON library
// (go-ordered-json) on arbitrary bytes: same acceptance, same output.
func FuzzDecodeNeoGo(f *testing.F) {
	docs, _ := loadVectors(f)
	for _, d := range docs {
		f.Add([]byte(d))
	}
	f.Add([]byte(`"\ud800\u0041"`))
	f.Add([]byte("1e400"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

// FuzzFilterNeoGo checks Filter (decode, path, encode) against neo-go
// 0.120.0's oracle filter. Inputs on which neo-go panics are skipped
// after checking that Filter does not.
func FuzzFilterNeoGo(f *testing.F) {
	docs, cases := loadVectors(f)
	for _, c := range cases {
		f.Add([]byte(docs[c.Doc]), c.Path)
	}
	f.Add([]byte(`[1,2,3]`), "$[-10:]")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		checkFilter(t, data, path)
	})
}
