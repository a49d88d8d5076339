package stateroot_test

import (
	"bytes"
	"testing"

	"github.com/n3node/n3node/pkg/services/stateroot"
)

// FuzzDecodeMessage: the decoder of StateService payload data never
// panics, and what it accepts re-encodes to the input (or, for
// non-minimal var-ints, to a shorter stable form).
func FuzzDecodeMessage(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 2, 0, 0, 0, 0})
	f.Add(append([]byte{1, 0, 5, 0, 0, 0}, make([]byte, 33)...))
	f.Add([]byte{2})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := stateroot.DecodeMessage(data)
		if err != nil {
			return
		}
		b, err := m.Bytes()
		if err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		if bytes.Equal(b, data) {
			return
		}
		// Only non-minimal var-ints (accepted like C# does) re-encode
		// differently: shorter, and stable from then on.
		if len(b) >= len(data) {
			t.Fatalf("re-encoding differs:\n%x\n%x", data, b)
		}
		m2, err := stateroot.DecodeMessage(b)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		b2, err := m2.Bytes()
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("re-encoding is not stable:\n%x\n%x", b, b2)
		}
	})
}
