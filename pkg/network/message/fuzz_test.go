package message_test

import (
	"bytes"
	"testing"

	"github.com/n3node/n3node/pkg/network/internal/fuzzutil"
	"github.com/n3node/n3node/pkg/network/message"
)

func frameSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, m := range samples() {
		for _, c := range []bool{false, true} {
			b, err := m.Bytes(c)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fuzzutil.Mutations(b)...)
		}
	}
	return out
}

func TestWriteCorpus(t *testing.T) {
	frames := frameSeeds(t)
	fuzzutil.WriteCorpus(t, "FuzzDecode", frames)
	var stream []byte
	for _, m := range samples() {
		b, _ := m.Bytes(true)
		stream = append(stream, b...)
	}
	fuzzutil.WriteCorpus(t, "FuzzReader", [][]byte{stream, stream[:len(stream)/2], {0, 1, 0, 0, 0x10, 0}})
	c, _ := message.Compress(bytes.Repeat([]byte("neo"), 100))
	fuzzutil.WriteCorpus(t, "FuzzDecompress", fuzzutil.Mutations(c))
}

// FuzzDecode: a frame that decodes re-encodes (uncompressed) to a frame
// that decodes to the same encoding; an uncompressed input comes back
// byte for byte unless it used non-minimal var-ints (then shorter).
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := message.Decode(in)
		if err != nil {
			return
		}
		out, err := m.Bytes(false)
		if err != nil {
			t.Fatalf("decoded %s does not encode: %v", m.Command, err)
		}
		if m.Flags&message.Compressed == 0 && !bytes.Equal(in, out) && len(out) >= len(in) {
			t.Fatalf("re-encoding differs and is not shorter:\n in %x\nout %x", in, out)
		}
		m2, err := message.Decode(out)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		out2, err := m2.Bytes(false)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("not a fixed point: %v", err)
		}
		// Compressed encoding must decode to the same thing too.
		c, err := m.Bytes(true)
		if err != nil {
			t.Fatal(err)
		}
		m3, err := message.Decode(c)
		if err != nil {
			t.Fatalf("compressed re-encoding does not decode: %v", err)
		}
		if out3, _ := m3.Bytes(false); !bytes.Equal(out3, out) {
			t.Fatal("compressed round trip changed the payload")
		}
	})
}

// FuzzReader reads messages from a stream until an error.
func FuzzReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		r := message.NewReader(bytes.NewReader(in))
		for range 1000 {
			if _, err := r.ReadMessage(); err != nil {
				return
			}
		}
	})
}

// FuzzDecompress: decompression never panics, and what it returns
// compresses and decompresses back.
func FuzzDecompress(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := message.Decompress(in)
		if err != nil {
			return
		}
		c, err := message.Compress(out)
		if err != nil {
			t.Fatal(err)
		}
		back, err := message.Decompress(c)
		if err != nil || !bytes.Equal(back, out) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
