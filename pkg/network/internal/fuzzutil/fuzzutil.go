// Package fuzzutil holds the round-trip check every payload fuzz target
// of pkg/network runs, and the writer of committed seed corpora.
package fuzzutil

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	nio "github.com/n3node/n3node/pkg/io"
)

// Codec is a wire value with an exact Size.
type Codec interface {
	nio.Encodable
	nio.Decodable
	Size() int
}

// RoundTrip decodes data into a fresh T. If that fails it returns false.
// Otherwise it checks that Size matches the encoding and that the encoding
// equals data, or, when data used non-minimal var-ints (which decoders
// accept like C# does), that it is shorter and itself re-encodes to the
// same bytes.
func RoundTrip[T any, PT interface {
	*T
	Codec
}](t testing.TB, data []byte) bool {
	t.Helper()
	var v T
	if err := nio.FromBytes(data, PT(&v)); err != nil {
		return false
	}
	out, err := nio.ToBytes(PT(&v))
	if err != nil {
		t.Fatalf("decoded value does not encode: %v", err)
	}
	if n := PT(&v).Size(); n != len(out) {
		t.Fatalf("Size() = %d, encoding has %d bytes", n, len(out))
	}
	if bytes.Equal(out, data) {
		return true
	}
	if len(out) >= len(data) {
		t.Fatalf("re-encoding differs and is not shorter:\n in %x\nout %x", data, out)
	}
	var v2 T
	if err := nio.FromBytes(out, PT(&v2)); err != nil {
		t.Fatalf("re-encoding does not decode: %v\n%x", err, out)
	}
	out2, err := nio.ToBytes(PT(&v2))
	if err != nil || !bytes.Equal(out, out2) {
		t.Fatalf("canonical encoding is not a fixed point: %v\n%x\n%x", err, out, out2)
	}
	return true
}

// EnvWriteCorpus names the variable that makes WriteCorpus write files.
const EnvWriteCorpus = "N3NODE_WRITE_CORPUS"

// WriteCorpus writes seeds as testdata/fuzz/<target>/seed-NN files in the
// format `go test` reads, when N3NODE_WRITE_CORPUS=1; otherwise it skips.
// It replaces the old seed-* files and leaves other files alone.
func WriteCorpus(t *testing.T, target string, seeds [][]byte) {
	t.Helper()
	if os.Getenv(EnvWriteCorpus) != "1" {
		t.Skip("set " + EnvWriteCorpus + "=1 to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", target)
	old, err := filepath.Glob(filepath.Join(dir, "seed-*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range old { // other files (reference frames, crashers) stay
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range seeds {
		body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
		name := filepath.Join(dir, fmt.Sprintf("seed-%02d", i))
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Mutations returns s plus a few damaged copies of it: truncated by one
// byte, cut in half, with the first and last byte flipped, and with a
// trailing byte, so the corpus covers the error paths too.
func Mutations(s []byte) [][]byte {
	out := [][]byte{s}
	if len(s) > 0 {
		out = append(out, s[:len(s)-1], s[:len(s)/2])
		f := bytes.Clone(s)
		f[0] ^= 0xff
		out = append(out, f)
		l := bytes.Clone(s)
		l[len(l)-1] ^= 0x80
		out = append(out, l)
	}
	return append(out, append(bytes.Clone(s), 0))
}
