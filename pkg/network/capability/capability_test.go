package capability_test

import (
	"bytes"
	"errors"
	"testing"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/internal/fuzzutil"
)

func sample() capability.Capabilities {
	return capability.Capabilities{
		capability.NewTCPServer(20333),
		{Type: capability.WSServer, Port: 20334},
		capability.NewFullNode(123456),
		{Type: capability.ArchivalNode},
		{Type: capability.DisableCompression},
		{Type: capability.ReservedFirst, Data: []byte{1, 2, 3}},
		{Type: capability.ReservedFirst, Data: []byte{}},
	}
}

func TestRoundTrip(t *testing.T) {
	cs := sample()
	b, err := nio.ToBytes(cs)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{7,
		0x01, 0x6d, 0x4f,
		0x02, 0x6e, 0x4f,
		0x10, 0x40, 0xe2, 0x01, 0x00,
		0x11, 0x00,
		0x03, 0x00,
		0xf0, 0x03, 1, 2, 3,
		0xf0, 0x00,
	}
	if !bytes.Equal(b, want) {
		t.Fatalf("encoding\n got %x\nwant %x", b, want)
	}
	if cs.Size() != len(b) {
		t.Fatalf("Size %d, encoded %d", cs.Size(), len(b))
	}
	if !fuzzutil.RoundTrip[capability.Capabilities](t, b) {
		t.Fatal("does not decode")
	}
	var got capability.Capabilities
	if err := nio.FromBytes(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.TCPPort() != 20333 || !got.Has(capability.ArchivalNode) {
		t.Fatalf("decoded %+v", got)
	}
	if c, ok := got.Find(capability.FullNode); !ok || c.StartHeight != 123456 {
		t.Fatalf("FullNode %+v %v", c, ok)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"duplicate tcp", []byte{2, 0x01, 0, 1, 0x01, 0, 2}, capability.ErrDuplicate},
		{"duplicate fullnode", []byte{2, 0x10, 0, 0, 0, 0, 0x10, 0, 0, 0, 0}, capability.ErrDuplicate},
		{"archival data", []byte{1, 0x11, 0x01}, capability.ErrNonZeroData},
		{"disable compression data", []byte{1, 0x03, 0x05}, capability.ErrNonZeroData},
		{"too many", append([]byte{33}, bytes.Repeat([]byte{0xf0, 0}, 33)...), nio.ErrTooLarge},
		{"unknown too long", append([]byte{1, 0xf1, 0xfd, 0x01, 0x04}, make([]byte, 1025)...), nio.ErrTooLarge},
		{"truncated", []byte{1, 0x10, 0, 0}, nio.ErrUnexpectedEOF},
		{"count beyond input", []byte{20, 0x10}, nio.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		var cs capability.Capabilities
		err := nio.FromBytes(c.in, &cs)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	// Unknown types may repeat, as in C# and neo-go.
	var cs capability.Capabilities
	if err := nio.FromBytes([]byte{2, 0xf0, 0, 0xf0, 0}, &cs); err != nil {
		t.Fatal(err)
	}
	// Unknown data of exactly MaxDataSize is fine.
	if err := nio.FromBytes(append([]byte{1, 0xf1, 0xfd, 0x00, 0x04}, make([]byte, 1024)...), &cs); err != nil {
		t.Fatal(err)
	}
}

func seeds(t testing.TB) [][]byte {
	b, err := nio.ToBytes(sample())
	if err != nil {
		t.Fatal(err)
	}
	out := fuzzutil.Mutations(b)
	return append(out, []byte{0}, []byte{2, 0x01, 0, 1, 0x01, 0, 2}, []byte{1, 0x10, 0xfe, 0, 0, 0, 0}, []byte{1, 0xf0, 0xfd, 1, 0, 9})
}

func TestWriteCorpus(t *testing.T) { fuzzutil.WriteCorpus(t, "FuzzCapabilities", seeds(t)) }

func FuzzCapabilities(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzutil.RoundTrip[capability.Capabilities](t, data)
	})
}
