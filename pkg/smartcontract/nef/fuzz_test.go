package nef

import (
	"bytes"
	"testing"
)

// FuzzFileFromBytes checks that decoding never panics and that every
// accepted file re-encodes (to Size bytes) into a file that decodes to the
// same value and encodes to the same bytes.
func FuzzFileFromBytes(f *testing.F) {
	_, b := sampleNoSource()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := FileFromBytes(data)
		if err != nil {
			return
		}
		out, err := file.Bytes()
		if err != nil {
			t.Fatalf("accepted file does not encode: %v", err)
		}
		if len(out) != file.Size() {
			t.Fatalf("Size %d != encoding %d", file.Size(), len(out))
		}
		again, err := FileFromBytes(out)
		if err != nil {
			t.Fatalf("re-encoding rejected: %v", err)
		}
		if !equal(file, again) {
			t.Fatal("re-decoded file differs")
		}
		out2, err := again.Bytes()
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable: %v", err)
		}
	})
}
