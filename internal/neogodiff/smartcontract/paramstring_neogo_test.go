package smartcontract_test

// Differential test against neo-go 0.120.0 (test-only import).

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/smartcontract"
	ngsc "github.com/nspcc-dev/neo-go/pkg/smartcontract"
)

// paramWords are command-line arguments in neo-go's syntax (its
// ParamsParsingDoc examples and edge cases).
var paramWords = []string{
	"int:42", "42", "-7", "nil", "bad", "dead", "string:dead", "true", "false", "bool:true",
	"NSiVJYZej4XsxG5CUpdwn7VRQk8iiiDMPM", "hash160:NSiVJYZej4XsxG5CUpdwn7VRQk8iiiDMPM",
	"682cca3ebdc66210e5847d7f8115846586079d4a", "hash160:682cca3ebdc66210e5847d7f8115846586079d4a",
	`\4\2`, `\\4\2`, "string:string", `string\:string`, "string:a:b",
	"03b209fd4f53a7170ea4444e0cb0a6bb6a53c2bd016926989cf85f9b0fba17a70c",
	"key:03b209fd4f53a7170ea4444e0cb0a6bb6a53c2bd016926989cf85f9b0fba17a70c",
	"0000000000000000000000000000000000000000000000000000000000000001",
	"hash256:0000000000000000000000000000000000000000000000000000000000000001",
	strings.Repeat("ab", 64), "signature:" + strings.Repeat("ab", 64),
	"bytes:0102", "bytearray:", "ByteString:ff", "Integer:1", "any:whatever", "",
	"115792089237316195423570985008687907853269984665640564039457584007913129639935", // 2^256-1: too big, a string
	"57896044618658097711785492504343953926634992332820282019728792003956564819967",  // 2^255-1
	"héllo", "int:", "int:x", "bool:yes", "signature:00", "hash160:xyz", "array:1", "map:1", "void:1", "unknown:1",
}

// TestParseParameterNeoGo compares every word with neo-go 0.120.0's
// smartcontract.NewParameterFromString: the same type and value (as
// invokefunction JSON), or an error for both.
func TestParseParameterNeoGo(t *testing.T) {
	for _, w := range paramWords {
		ours, err := smartcontract.ParseParameter(w)
		theirs, nerr := ngsc.NewParameterFromString(w)
		if (err != nil) != (nerr != nil) {
			t.Errorf("%q: error %v, neo-go %v", w, err, nerr)
			continue
		}
		if err != nil {
			continue
		}
		got, err := json.Marshal(ours)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(theirs)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%q:\n got %s\nwant %s", w, got, want)
		}
	}
}

// FuzzParseParameterNeoGo: any word is parsed as neo-go parses it.
func FuzzParseParameterNeoGo(f *testing.F) {
	for _, w := range paramWords {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if strings.HasPrefix(strings.ToLower(w), "filebytes:") {
			return // reads files
		}
		ours, err := smartcontract.ParseParameter(w)
		theirs, nerr := ngsc.NewParameterFromString(w)
		if (err != nil) != (nerr != nil) {
			t.Fatalf("%q: error %v, neo-go %v", w, err, nerr)
		}
		if err != nil {
			return
		}
		got, err := json.Marshal(ours)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(theirs)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%q:\n got %s\nwant %s", w, got, want)
		}
	})
}
