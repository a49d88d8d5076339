package neorpc

import (
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

func TestSpecialIn8(t *testing.T) {
	ref := func(x uint64) bool {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], x)
		for _, c := range b {
			if !plainChar[c] {
				return true
			}
		}
		return false
	}
	// Every byte value at every position, over plain and random fillers.
	r := rand.New(rand.NewPCG(1, 2))
	for _, fill := range []uint64{ones * 'a', ones * 0x7f, ones * 0x20} {
		for pos := range 8 {
			for c := range 256 {
				x := fill&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
				if specialIn8(x) != ref(x) {
					t.Fatalf("%016x", x)
				}
			}
		}
	}
	for range 1 << 20 {
		x := r.Uint64()
		if specialIn8(x) != ref(x) {
			t.Fatalf("%016x", x)
		}
	}
}

// TestSkipValueAgreesWithEncodingJSON checks the scanner's verdict on
// single values against json.Valid.
func TestSkipValueAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`1`, `-0`, `-`, `01`, `1.`, `1.5e`, `1e+5`, `"a\u00e9"`, `"\x"`, `"\u12"`, "\"\x01\"",
		`[1,2]`, `[1,]`, `{"a":1}`, `{"a":1,}`, `{a:1}`, `true`, `tru`, `nul`, `[true false]`,
		`"` + "\xff\xfe" + `"`, `[[[[]]]]`, `{"a":[{"b":null}]}`,
	} {
		b := []byte(s)
		end := skipValue(b, 0, 0)
		got := end == len(b)
		if got != json.Valid(b) {
			t.Errorf("%q: scanner %v (end %d), encoding/json %v", s, got, end, json.Valid(b))
		}
	}
}

func FuzzSkipValue(f *testing.F) {
	f.Add([]byte(`{"a":[1,"x",null]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		end := skipValue(b, 0, 0)
		if end == len(b) && !json.Valid(b) {
			t.Fatalf("scanner accepts invalid %q", b)
		}
		if end > 0 && !json.Valid(b[:end]) {
			t.Fatalf("scanner accepts invalid prefix %q", b[:end])
		}
	})
}
