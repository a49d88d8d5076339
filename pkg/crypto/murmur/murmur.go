package murmur

import (
	"encoding/binary"

	"github.com/twmb/murmur3"
)

// Sum32 returns MurmurHash3_x86_32 of data with seed as 4 little-endian
// bytes (C# CryptoLib.Murmur32).
func Sum32(data []byte, seed uint32) [4]byte {
	var out [4]byte
	binary.LittleEndian.PutUint32(out[:], murmur3.SeedSum32(seed, data))
	return out
}

// Sum128 returns MurmurHash3_x64_128 of data with seed (used for both
// 64-bit lanes) as h1‖h2, each little-endian (C# Helper.Murmur128).
func Sum128(data []byte, seed uint32) [16]byte {
	var out [16]byte
	h1, h2 := murmur3.SeedSum128(uint64(seed), uint64(seed), data)
	binary.LittleEndian.PutUint64(out[:8], h1)
	binary.LittleEndian.PutUint64(out[8:], h2)
	return out
}
