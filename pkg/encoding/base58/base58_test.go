package base58_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/encoding/base58"
)

func TestCheck(t *testing.T) {
	for _, b := range [][]byte{{0}, {0x35, 1, 2, 3}, bytes.Repeat([]byte{0xff}, 40)} {
		s := base58.CheckEncode(b)
		got, err := base58.CheckDecode(s)
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%x: %x, %v", b, got, err)
		}
		bad := []byte(s)
		bad[len(bad)-1] ^= 1
		if _, err := base58.CheckDecode(string(bad)); err == nil {
			t.Errorf("%s: corrupt checksum accepted", bad)
		}
	}
	if _, err := base58.CheckDecode("0OIl"); !errors.Is(err, base58.ErrInvalidBase58) {
		t.Errorf("bad alphabet: %v", err)
	}
	if _, err := base58.CheckDecode("11"); !errors.Is(err, base58.ErrTooShort) {
		t.Errorf("short: %v", err)
	}
	// Bitcoin genesis address as a known Base58Check value.
	b, err := base58.CheckDecode("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")
	if err != nil || len(b) != 21 || b[0] != 0 {
		t.Fatalf("known value: %x %v", b, err)
	}
}
