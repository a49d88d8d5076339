package native

import (
	"bytes"
	"encoding/base64"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/encoding/base58"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// The StdLib decoders take bytes from scripts: they must return errors,
// never panic, and agree with their encoders. Seeds are in
// testdata/fuzz/<target>.

func FuzzStdAtoi(f *testing.F) {
	for _, s := range []string{"0", "-1", "+1", "12\x00", "ff", "F", "080", "", "1_000", " 1", "٣"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, hex bool) {
		base := 10
		if hex {
			base = 16
		}
		n, err := Atoi(s, base)
		if err != nil {
			return
		}
		str, err := Itoa(n, base)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Atoi(str, base)
		if err != nil || back.Cmp(n) != 0 {
			t.Fatalf("%q (base %d) -> %s -> %q -> %v, %v", s, base, n, str, back, err)
		}
		if base == 10 {
			if _, ok := new(big.Int).SetString(str, 10); !ok {
				t.Fatalf("itoa %q", str)
			}
		}
	})
}

func FuzzStdBase64Decode(f *testing.F) {
	for _, s := range []string{"", "AQIDBA==", "A \r Q \t I \n D", "AQ=", "YQ", "Pz8_", "4oJB", "_w", "Y Q", "===="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if b, err := Base64Decode(s); err == nil {
			again, err := Base64Decode(base64.StdEncoding.EncodeToString(b))
			if err != nil || !bytes.Equal(again, b) {
				t.Fatalf("%q: round trip %x, %v", s, again, err)
			}
		}
		if b, err := Base64URLDecode(s); err == nil {
			again, err := Base64URLDecode(base64.URLEncoding.EncodeToString(b))
			if err != nil || !bytes.Equal(again, b) {
				t.Fatalf("%q: base64url round trip %x, %v", s, again, err)
			}
		}
	})
}

func FuzzStdBase58Decode(f *testing.F) {
	for _, s := range []string{"", "1", "111", "2VfUX", "3DUz7ncyT", "AA", "0OIl", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Base58Decode(s)
		if err != nil {
			return
		}
		if enc := base58.Encode(b); enc != s {
			t.Fatalf("%q decodes to %x, which encodes to %q", s, b, enc)
		}
		if p, err := Base58CheckDecode(s); err == nil {
			if enc := base58.CheckEncode(p); enc != s {
				t.Fatalf("%q check-decodes to %x, which encodes to %q", s, p, enc)
			}
		}
	})
}

func FuzzStdUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\u0303", "👨\u200d👩\u200d👧"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if utf8.Valid(b) {
			n := StrLen(string(b))
			if n != utf8.RuneCount(b) || (len(b) > 0) != (n > 0) {
				t.Fatalf("%q: %d text elements, %d runes", b, n, utf8.RuneCount(b))
			}
		}
	})
}

// FuzzStdDeserialize runs the deserialize and jsonDeserialize methods on
// arbitrary bytes; a binary result must serialize again.
func FuzzStdDeserialize(f *testing.F) {
	for _, s := range []string{"\x21\x01\x64", "\x28\x04test", "\x48\x01\x28\x03key\x28\x05value", "\x40\x02\x20\x01\x00",
		"123", "null", "[1,\"a\",{\"k\":true}]", "4.389364916666667e+34", "{]", "\x20\x02"} {
		f.Add([]byte(s), true)
	}
	s := newStdLib(nil).(*StdLib)
	f.Fuzz(func(t *testing.T, data []byte, basilisk bool) {
		ic := &interop.Context{}
		if basilisk {
			ic.Hardforks = config.HardforkSet(1) << config.HFBasilisk
		}
		arg := []stackitem.Item{stackitem.NewByteString(data)}
		if it, err := s.deserialize(ic, arg); err == nil {
			if _, err := stackitem.Serialize(it); err != nil {
				t.Fatalf("%x: deserialized item does not serialize: %v", data, err)
			}
		}
		if it, err := s.jsonDeserialize(ic, arg); err == nil {
			// Integers beyond 2^53 parse but do not serialize: only no
			// panic is required.
			_, _ = stackitem.ToJSON(it)
		}
	})
}

// FuzzStdLibMethods calls every StdLib method that decodes a string or
// bytes (the contract-facing wrappers, argument conversion included) with
// arbitrary bytes; each must return a result or an error.
func FuzzStdLibMethods(f *testing.F) {
	for _, s := range []string{"", "0", "-1", "ff", "AQIDBA==", "YQ==", "2VfUX", "3DUz7ncyT", "00010203", "a,b",
		"\xff", "🦆", "a\u0303", "12\x00", strings.Repeat("9", 1025)} {
		f.Add([]byte(s), uint8(0))
	}
	s := newStdLib(nil).(*StdLib)
	methods := []MethodFunc{s.atoi10, decoder(Base64Decode), decoder(Base64URLDecode), decoder(Base58Decode),
		decoder(Base58CheckDecode), decoder(HexDecode), s.strLen, s.jsonDeserialize, s.deserialize}
	f.Fuzz(func(t *testing.T, data []byte, extra uint8) {
		ic := &interop.Context{}
		arg := stackitem.NewByteString(data)
		for _, m := range methods {
			res, err := m(ic, []stackitem.Item{arg})
			if err == nil && res == nil {
				t.Fatalf("%x: nil result without an error", data)
			}
		}
		small := stackitem.NewInt(int64(extra))
		_, _ = s.atoi(ic, []stackitem.Item{arg, stackitem.NewInt(16)})
		_, _ = s.itoa(ic, []stackitem.Item{arg, stackitem.NewInt(16)})
		_, _ = s.memorySearch(ic, []stackitem.Item{arg, stackitem.NewByteString(data[:len(data)/2]), small, stackitem.Bool(extra&1 != 0)})
		_, _ = s.memoryCompare(ic, []stackitem.Item{arg, stackitem.NewByteString(data[len(data)/2:])})
		_, _ = s.stringSplit3(ic, []stackitem.Item{arg, stackitem.NewByteString(data[:min(len(data), int(extra%4))]), stackitem.Bool(true)})
	})
}
