package murmur

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"
)

// Vectors from neo-project/neo tests/Neo.UnitTests/Cryptography/UT_Murmur32.cs,
// UT_Murmur128.cs and SmartContract/UT_InteropService.cs (TestMurmur32).
func TestSum32(t *testing.T) {
	le := func(v uint32) string {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], v)
		return hex.EncodeToString(b[:])
	}
	cases := []struct {
		data []byte
		seed uint32
		want string
	}{
		{[]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1}, 10, le(378574820)},
		{[]byte("hello worldhello world"), 10, le(60539726)},
		{[]byte("he"), 10, le(972873329)},
		{[]byte("Hello, world!"), 0, "433e36c0"},
	}
	for _, c := range cases {
		got := Sum32(c.data, c.seed)
		require.Equal(t, c.want, hex.EncodeToString(got[:]), string(c.data))
	}
	require.Len(t, cases, 4)
}

func TestSum128(t *testing.T) {
	bin, _ := hex.DecodeString("718f952132679baa9c5c2aa0d329fd2a")
	cases := []struct {
		data []byte
		want string
	}{
		{[]byte("hello"), "0bc59d0ad25fde2982ed65af61227a0e"},
		{[]byte("world"), "3d3810fed480472bd214a14023bb407f"},
		{[]byte("hello world"), "e0a0632d4f51302c55e3b3e48d28795d"},
		{bin, "9b4aa747ff0cf4e41b3d96251551c8ae"},
		{[]byte("hello worldhello world"), "76f870485d4e69f8302d4b3fad28fd39"},
	}
	for _, c := range cases {
		got := Sum128(c.data, 123)
		require.Equal(t, c.want, hex.EncodeToString(got[:]), string(c.data))
	}
	require.Len(t, cases, 5)
}

func BenchmarkSum32(b *testing.B) {
	data := make([]byte, 64)
	b.ReportAllocs()
	for b.Loop() {
		_ = Sum32(data, 10)
	}
}

func BenchmarkSum128(b *testing.B) {
	data := make([]byte, 16) // GetRandom hashes the 16-byte nonce data.
	b.ReportAllocs()
	for b.Loop() {
		_ = Sum128(data, 860833102)
	}
}
