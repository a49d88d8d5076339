package contractcmd

import (
	"github.com/n3node/n3node/cmd/n3node/app/listing"
	"io"
	"os"
	"testing"
)

// FuzzWriteOps: the listing of any script (a NEF's script is untrusted
// input) never panics, and with source lines it is the plain listing with
// lines inserted.
func FuzzWriteOps(f *testing.F) {
	if raw, err := os.ReadFile("testdata/nep17.nef"); err == nil {
		f.Add(raw)
	}
	for _, s := range [][]byte{
		{}, {0x0c}, {0x0c, 0x05, 'a'}, {0x0e, 0xff, 0xff, 0xff, 0x7f}, {0x22, 0x7f}, {0x3b, 0x00, 0x05},
		{0x41, 0x9b, 0xf6, 0x67, 0xce}, {0xd1, 0x30}, {0x57, 0x01}, {0x03, 0x01}, {0xff},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		if err := listing.Write(io.Discard, script, nil); err != nil {
			t.Fatal(err)
		}
		if err := listing.Write(io.Discard, script, func(off int) string {
			if off%3 == 0 {
				return "; x.go:1"
			}
			return ""
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzParseSeqPoint: debug information is read without panics.
func FuzzParseSeqPoint(f *testing.F) {
	for _, s := range []string{"0[0]4:2-4:14", "12[a/b.go]1:1-2:2", "[", "1[", "1[0]", "x[0]1:1-1:1", "1[5]1:1-1:1", "-1[-1]-1:0-0:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseSeqPoint(s, []string{"a.go"})
	})
}
