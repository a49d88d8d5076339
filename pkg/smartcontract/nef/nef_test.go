package nef

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
)

// goodFiles are the neo-go test contracts C# accepts; every one must
// round-trip byte for byte.
var goodFiles = []string{"management_helper1.nef", "management_helper2.nef", "oracle.nef"}

func TestTestdataRoundTrip(t *testing.T) {
	ran := 0
	for _, name := range goodFiles {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		f, err := FileFromBytes(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.HasPrefix(f.Compiler, "neo-go") || len(f.Script) == 0 {
			t.Errorf("%s: compiler %q, script %d bytes", name, f.Compiler, len(f.Script))
		}
		if f.CalculateChecksum() != f.Checksum {
			t.Errorf("%s: checksum mismatch", name)
		}
		if f.Size() != len(raw) {
			t.Errorf("%s: Size %d, file %d", name, f.Size(), len(raw))
		}
		out, err := f.Bytes()
		if err != nil || !bytes.Equal(out, raw) {
			t.Errorf("%s: re-encoding differs (%v)", name, err)
		}
		// The io.Decodable path agrees.
		var g File
		if err := nio.FromBytes(raw, &g); err != nil {
			t.Errorf("%s: DecodeBinary: %v", name, err)
		}
		w := nio.NewBufBinWriter()
		g.EncodeBinary(w)
		if w.Err != nil || !bytes.Equal(w.Bytes(), raw) {
			t.Errorf("%s: EncodeBinary differs (%v)", name, w.Err)
		}
		ran++
	}
	if ran == 0 {
		t.Fatal("no files checked")
	}
}

func TestTestdataTokens(t *testing.T) {
	raw, err := os.ReadFile("testdata/management_helper1.nef")
	if err != nil {
		t.Fatal(err)
	}
	f, err := FileFromBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tokens) != 2 {
		t.Fatalf("%d tokens", len(f.Tokens))
	}
	tok := f.Tokens[0]
	// The first token calls balanceOf of the native NEO contract.
	if tok.Hash.StringLE() != "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5" || tok.Method != "balanceOf" ||
		tok.ParamCount != 1 || !tok.HasReturn || tok.CallFlag != callflag.ReadStates {
		t.Errorf("token 0 = %+v", tok)
	}
}

// verify.nef has a non-zero byte after the compiler name's terminator
// ("neo-go\0...0.93.0-pre-..."). neo-go 0.120.0 reads it; C# ReadFixedString
// rejects it, and so do we.
func TestCompilerPaddingRejected(t *testing.T) {
	raw, err := os.ReadFile("testdata/verify.nef")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FileFromBytes(raw); !errors.Is(err, ErrCompilerPadding) {
		t.Fatalf("err = %v, want ErrCompilerPadding", err)
	}
}

func sample() *File {
	f, err := NewFile("best compiler version 1", "https://example.org/src", []MethodToken{{
		Hash:       hash.Uint160{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
		Method:     "method",
		ParamCount: 3,
		HasReturn:  true,
		CallFlag:   callflag.WriteStates,
	}}, []byte{12, 32, 84, 35, 14})
	if err != nil {
		panic(err)
	}
	return f
}

func mustBytes(t *testing.T, f *File) []byte {
	t.Helper()
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	f := sample()
	b := mustBytes(t, f)
	g, err := FileFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	if !equal(f, g) {
		t.Errorf("decoded %+v, want %+v", g, f)
	}
	// Empty tokens decode to a non-nil slice.
	f.Tokens = nil
	f.Checksum = f.CalculateChecksum()
	g, err = FileFromBytes(mustBytes(t, f))
	if err != nil || g.Tokens == nil || len(g.Tokens) != 0 {
		t.Errorf("tokens %#v, %v", g.Tokens, err)
	}
	// Trailing bytes are ignored, as in C#.
	if _, err := FileFromBytes(append(mustBytes(t, f), 1, 2, 3)); err != nil {
		t.Errorf("trailing bytes: %v", err)
	}
}

func equal(a, b *File) bool {
	if a.Compiler != b.Compiler || a.Source != b.Source || !bytes.Equal(a.Script, b.Script) ||
		a.Checksum != b.Checksum || len(a.Tokens) != len(b.Tokens) {
		return false
	}
	for i := range a.Tokens {
		if a.Tokens[i] != b.Tokens[i] {
			return false
		}
	}
	return true
}

// C# UT_NefFile.TestGetSize: 32-space compiler, empty source, no tokens,
// 3-byte script.
func TestSizeCSharp(t *testing.T) {
	f := &File{Compiler: strings.Repeat(" ", 32), Tokens: []MethodToken{}, Script: []byte{1, 2, 3}}
	if got := f.Size(); got != 4+32+32+2+1+2+4+4 {
		t.Errorf("Size = %d", got)
	}
}

// offsets in the encoding of sample() (no source to keep them simple).
func sampleNoSource() (*File, []byte) {
	f := sample()
	f.Source = ""
	f.Checksum = f.CalculateChecksum()
	b, err := f.Bytes()
	if err != nil {
		panic(err)
	}
	return f, b
}

// resum rewrites the checksum of b so that only the mutation is tested.
func resum(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], checksum(b[:len(b)-4]))
	return b
}

func TestDecodeErrors(t *testing.T) {
	const (
		srcOff      = headerSize      // source var-int
		reserved1   = headerSize + 1  // reserved byte
		tokCountOff = headerSize + 2  // token count
		tokOff      = headerSize + 3  // first token
		methodOff   = tokOff + 20 + 1 // method name bytes
		boolOff     = methodOff + len("method") + 2
		flagsOff    = boolOff + 1
		reserved2   = flagsOff + 1
		scriptLen   = reserved2 + 2
	)
	cases := []struct {
		name   string
		mutate func(b []byte) []byte
		err    error
	}{
		{"magic", func(b []byte) []byte { b[0] = 0; return resum(b) }, ErrInvalidMagic},
		{"checksum", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }, ErrChecksum},
		{"compiler padding", func(b []byte) []byte { b[4+60] = 'x'; return resum(b) }, ErrCompilerPadding},
		{"compiler utf8", func(b []byte) []byte { b[4] = 0xff; return resum(b) }, nio.ErrInvalidUTF8},
		{"reserved byte", func(b []byte) []byte { b[reserved1] = 1; return resum(b) }, ErrReserved},
		{"reserved u16", func(b []byte) []byte { b[reserved2+1] = 1; return resum(b) }, ErrReserved},
		{"method underscore", func(b []byte) []byte { b[methodOff] = '_'; return resum(b) }, ErrInvalidMethodName},
		{"bool", func(b []byte) []byte { b[boolOff] = 2; return resum(b) }, ErrInvalidBool},
		{"call flags", func(b []byte) []byte { b[flagsOff] = 0x10; return resum(b) }, ErrInvalidCallFlags},
		{"token count", func(b []byte) []byte { b[tokCountOff] = MaxTokens + 1; return resum(b) }, nio.ErrTooLarge},
		{"empty script", func(b []byte) []byte {
			b = append(b[:scriptLen], 0, 0, 0, 0, 0)
			return resum(b)
		}, ErrEmptyScript},
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }, nio.ErrUnexpectedEOF},
		{"empty", func(b []byte) []byte { return nil }, nio.ErrUnexpectedEOF},
		{"source too long", func(b []byte) []byte {
			var src []byte
			src = nio.AppendVarUint(src, MaxSourceURLLength+1)
			src = append(src, bytes.Repeat([]byte{'a'}, MaxSourceURLLength+1)...)
			nb := append(append(append([]byte{}, b[:srcOff]...), src...), b[srcOff+1:]...)
			return resum(nb)
		}, nio.ErrTooLarge},
	}
	for _, c := range cases {
		_, b := sampleNoSource()
		if _, err := FileFromBytes(b); err != nil {
			t.Fatalf("base: %v", err)
		}
		mb := c.mutate(b)
		if _, err := FileFromBytes(mb); !errors.Is(err, c.err) {
			t.Errorf("%s: FileFromBytes err = %v, want %v", c.name, err, c.err)
		}
		var f File
		if err := nio.FromBytes(mb, &f); !errors.Is(err, c.err) && !(c.err == nil && err == nil) {
			// FromBytes additionally rejects trailing bytes; every case
			// here fails before that.
			t.Errorf("%s: DecodeBinary err = %v, want %v", c.name, err, c.err)
		}
	}
}

// A method name of exactly 32 bytes is fine, 33 is not.
func TestMethodNameLimit(t *testing.T) {
	f := sample()
	f.Tokens[0].Method = strings.Repeat("m", MaxMethodNameLength)
	f.Checksum = f.CalculateChecksum()
	b := mustBytes(t, f)
	if _, err := FileFromBytes(b); err != nil {
		t.Fatal(err)
	}
	f.Tokens[0].Method += "m"
	if _, err := f.Bytes(); !errors.Is(err, nio.ErrTooLarge) {
		t.Errorf("encode: %v", err)
	}
	body := f.appendBody(nil)
	b = binary.LittleEndian.AppendUint32(body, checksum(body))
	if _, err := FileFromBytes(b); !errors.Is(err, nio.ErrTooLarge) {
		t.Errorf("decode: %v", err)
	}
}

// Non-minimal var-ints are accepted when the checksum matches the canonical
// encoding, as C# recomputes it over ToArray().
func TestNonMinimalVarInt(t *testing.T) {
	f, b := sampleNoSource()
	// Replace the one-byte script length with fd xx xx.
	const scriptLen = headerSize + 3 + 20 + 1 + 6 + 2 + 2 + 2
	if int(b[scriptLen]) != len(f.Script) {
		t.Fatalf("offset: %d", b[scriptLen])
	}
	nb := append([]byte{}, b[:scriptLen]...)
	nb = append(nb, 0xfd, byte(len(f.Script)), 0)
	nb = append(nb, b[scriptLen+1:]...)
	g, err := FileFromBytes(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !equal(f, g) {
		t.Error("decoded differently")
	}
	var h File
	if err := nio.FromBytes(nb, &h); err != nil || !equal(f, &h) {
		t.Errorf("DecodeBinary: %v", err)
	}
}

// C# UT_NefFile.LimitTest, with MaxItemSize = 131070.
func TestLimits(t *testing.T) {
	f := &File{Compiler: strings.Repeat(" ", 255), Tokens: []MethodToken{}, Script: make([]byte, 10)}
	if _, err := f.Bytes(); !errors.Is(err, ErrCompilerTooLong) {
		t.Errorf("long compiler: %v", err)
	}
	f.Compiler = ""
	for _, c := range []struct {
		n   int
		err error
	}{
		{MaxScriptLength + 1, nio.ErrTooLarge},
		{MaxScriptLength, ErrFileTooLarge},
		{MaxFileSize - (headerSize + 1 + 1 + 1 + 2 + 5 + 4), nil},
		{MaxFileSize - (headerSize + 1 + 1 + 1 + 2 + 5 + 4) + 1, ErrFileTooLarge},
	} {
		f.Script = make([]byte, c.n)
		f.Checksum = f.CalculateChecksum()
		body := f.appendBody(nil)
		b := binary.LittleEndian.AppendUint32(body, checksum(body))
		if _, err := FileFromBytes(b); !errors.Is(err, c.err) && !(c.err == nil && err == nil) {
			t.Errorf("script %d: decode err = %v, want %v", c.n, err, c.err)
		}
		if _, err := f.Bytes(); !errors.Is(err, c.err) && !(c.err == nil && err == nil) {
			t.Errorf("script %d: encode err = %v, want %v", c.n, err, c.err)
		}
	}
}

func TestValidate(t *testing.T) {
	f := sample()
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(f *File){
		"zero in compiler": func(f *File) { f.Compiler = "a\x00b" },
		"source":           func(f *File) { f.Source = strings.Repeat("s", 257) },
		"tokens":           func(f *File) { f.Tokens = make([]MethodToken, 129) },
		"flags":            func(f *File) { f.Tokens[0].CallFlag = 0x80 },
		"underscore":       func(f *File) { f.Tokens[0].Method = "_x" },
		"utf8":             func(f *File) { f.Source = "\xff" },
		"empty script":     func(f *File) { f.Script = nil },
	}
	for name, mut := range cases {
		g := sample()
		mut(g)
		if g.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := NewFile(g.Compiler, g.Source, g.Tokens, g.Script); err == nil {
			t.Errorf("%s: NewFile accepted", name)
		}
	}
}

func TestJSON(t *testing.T) {
	f := &File{
		Compiler: "test.compiler-test.ver",
		Tokens: []MethodToken{{
			Hash:       hash.Uint160{0x12, 0x34, 0x56, 0x78, 0x91},
			Method:     "someMethod",
			ParamCount: 3,
			HasReturn:  true,
			CallFlag:   callflag.WriteStates,
		}},
		Script: []byte{1, 2, 3, 4},
	}
	f.Checksum = f.CalculateChecksum()
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"magic":` + strconv.FormatUint(uint64(Magic), 10) +
		`,"compiler":"test.compiler-test.ver","source":"","tokens":[{"hash":"0x` + f.Tokens[0].Hash.StringLE() +
		`","method":"someMethod","paramcount":3,"hasreturnvalue":true,"callflags":"WriteStates"}],"script":"` +
		base64.StdEncoding.EncodeToString(f.Script) + `","checksum":` + strconv.FormatUint(uint64(f.Checksum), 10) + `}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	var g File
	if err := json.Unmarshal(data, &g); err != nil || !equal(f, &g) {
		t.Errorf("round trip: %v", err)
	}
	// Nil tokens print as [].
	data, _ = json.Marshal(File{Compiler: "c", Script: []byte{1}})
	if !strings.Contains(string(data), `"tokens":[]`) {
		t.Errorf("nil tokens: %s", data)
	}
	if err := json.Unmarshal([]byte(`{"magic":1}`), &g); !errors.Is(err, ErrInvalidMagic) {
		t.Errorf("bad magic: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"magic":860243278,"script":"!"}`), &g); err == nil {
		t.Error("bad base64 accepted")
	}
}

func BenchmarkFileFromBytes(b *testing.B) {
	raw, err := os.ReadFile("testdata/management_helper1.nef")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FileFromBytes(raw); err != nil {
			b.Fatal(err)
		}
	}
}
