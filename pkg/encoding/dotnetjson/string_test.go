package dotnetjson_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/encoding/dotnetjson"
)

// System.Text.Json's output for these strings (JavaScriptEncoder.Default).
var vectors = []struct{ in, want string }{
	{"", `""`},
	{"plain text 123", `"plain text 123"`},
	{`"&'+<>\` + "`", `"\u0022\u0026\u0027\u002B\u003C\u003E\\\u0060"`},
	{"\b\f\n\r\t", `"\b\f\n\r\t"`},
	{"\x00\x1f\x7f", `"\u0000\u001F\u007F"`},
	{"é€", `"\u00E9\u20AC"`},
	{"😀", `"\uD83D\uDE00"`},
	{"a\xffb", `"a\u00FFb"`}, // invalid UTF-8: the byte itself
}

func TestAppendString(t *testing.T) {
	for _, v := range vectors {
		if got := string(dotnetjson.AppendString(nil, v.in)); got != v.want {
			t.Errorf("%q: %s, want %s", v.in, got, v.want)
		}
		if got := string(dotnetjson.AppendString([]byte("x"), []byte(v.in))); got != "x"+v.want {
			t.Errorf("%q as bytes: %s", v.in, got)
		}
	}
}

// FuzzAppendString: the output is JSON that decodes back to valid input,
// and is pure printable ASCII.
func FuzzAppendString(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := dotnetjson.AppendString(nil, s)
		for _, c := range out {
			if c < 0x20 || c >= 0x7f {
				t.Fatalf("raw byte %#x in %s", c, out)
			}
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("%q round-trips to %q", s, back)
		}
	})
}
