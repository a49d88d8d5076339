package message_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"github.com/n3node/n3node/pkg/consensus/message"
	nio "github.com/n3node/n3node/pkg/io"
)

func messageSeeds(t testing.TB) [][]byte {
	names := make([]string, 0)
	ms := sampleMessages()
	for n := range ms {
		names = append(names, n)
	}
	sort.Strings(names)
	var seeds [][]byte
	for _, n := range names {
		b, err := ms[n].Bytes()
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

func payloadSeeds(t testing.TB) [][]byte {
	k := testKey(t, 1)
	var seeds [][]byte
	for _, b := range messageSeeds(t) {
		m, err := message.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		p := message.NewPayload(m, k.ScriptHash())
		p.Sign(testMagic, k)
		e, err := nio.ToBytes(&p.Extensible)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, e)
	}
	return seeds
}

// FuzzMessage: decoding never panics, and a decoded message re-encodes to
// a fixed point: to the bytes it was read from when they were canonical.
func FuzzMessage(f *testing.F) {
	for _, s := range messageSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, n, err := message.DecodePrefix(b)
		if err != nil {
			return
		}
		enc, err := m.Bytes()
		if err != nil {
			t.Fatalf("decoded message does not encode: %v", err)
		}
		if len(enc) != m.Size() {
			t.Fatalf("Size %d, encoded %d", m.Size(), len(enc))
		}
		if len(enc) == n && !bytes.Equal(enc, b[:n]) {
			t.Fatalf("re-encoding differs:\n%x\n%x", b[:n], enc)
		}
		m2, n2, err := message.DecodePrefix(enc)
		if err != nil || n2 != len(enc) || !reflect.DeepEqual(m, m2) {
			t.Fatalf("re-encoding is not a fixed point: %v", err)
		}
	})
}

// FuzzPayload covers the envelope and the payload checks.
func FuzzPayload(f *testing.F) {
	for _, s := range payloadSeeds(f) {
		f.Add(s)
	}
	pub := testKey(f, 1).PublicKey()
	f.Fuzz(func(t *testing.T, b []byte) {
		var e message.Extensible
		if err := nio.FromBytes(b, &e); err != nil {
			return
		}
		enc, err := nio.ToBytes(&e)
		if err != nil || len(enc) != e.Size() {
			t.Fatalf("re-encoding: %v", err)
		}
		if len(enc) == len(b) && !bytes.Equal(enc, b) {
			t.Fatal("re-encoding differs")
		}
		p, err := message.FromExtensible(&e)
		if err != nil {
			return
		}
		_ = p.VerifyWitness(testMagic, pub)
		if p.Hash() != e.Hash() {
			t.Fatal("hash")
		}
	})
}

// TestWriteFuzzCorpus rewrites the committed seed corpora from the samples
// (N3NODE_WRITE_CORPUS=1 go test -run TestWriteFuzzCorpus).
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("N3NODE_WRITE_CORPUS") == "" {
		t.Skip("set N3NODE_WRITE_CORPUS=1 to rewrite testdata/fuzz")
	}
	write := func(target string, seeds [][]byte) {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
			if err := os.WriteFile(filepath.Join(dir, "seed-"+strconv.Itoa(i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("FuzzMessage", messageSeeds(t))
	write("FuzzPayload", payloadSeeds(t))
}
