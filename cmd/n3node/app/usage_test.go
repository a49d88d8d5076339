package app

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestUsageErrorOneLine: a missing required flag or a bad flag value is
// one error naming the flags and where the help is; nothing is printed
// (main prints the error once).
func TestUsageErrorOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"wallet", "candidate", "vote", "-w", "x.json"},
		{"wallet", "nep17", "transfer", "-w", "x.json", "--timeout", "soon"},
		{"db", "dump", "--count", "many"},
	} {
		var out, errw bytes.Buffer
		c := New()
		c.Writer, c.ErrWriter = &out, &errw
		err := c.Run(context.Background(), append([]string{"n3node"}, args...))
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "--help')") {
			t.Errorf("%v: error %q", args, err)
		}
		if out.Len() != 0 || errw.Len() != 0 {
			t.Errorf("%v: printed\n%s%s", args, out.String(), errw.String())
		}
		t.Log(err)
	}
}
