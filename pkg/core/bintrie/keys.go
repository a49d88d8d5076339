package bintrie

import (
	"encoding/binary"
	"math/bits"
)

// Account layout constants of EIP-7864 (revision ca51874f1, as implemented
// by go-ethereum v1.17.10).
const (
	BasicDataLeafKey    = 0   // BASIC_DATA_LEAF_KEY
	CodeHashLeafKey     = 1   // CODE_HASH_LEAF_KEY
	HeaderStorageOffset = 64  // HEADER_STORAGE_OFFSET
	CodeOffset          = 128 // CODE_OFFSET
	// MAIN_STORAGE_OFFSET is 256^31 = 2^248.

	// Basic data leaf field offsets (big-endian fields).
	BasicDataVersionOffset  = 0
	BasicDataCodeSizeOffset = 5  // u24
	BasicDataNonceOffset    = 8  // u64
	BasicDataBalanceOffset  = 16 // u128

	// CodeChunkSize is the number of code bytes in one 32-byte chunk.
	CodeChunkSize = 31
	// MaxCodeSize is the largest code size the u24 code_size field holds.
	MaxCodeSize = 1<<24 - 1
)

// Address is a 20-byte account address.
type Address [20]byte

// Keys derives tree keys from account positions with a given hash function.
type Keys struct{ h hashFn }

// NewKeys returns a key deriver using h (nil: SHA256).
func NewKeys(h Hasher) Keys { return Keys{h: newHashFn(h)} }

var defaultKeys = NewKeys(SHA256)

// TreeKey returns H(zero12 || addr || be256(treeIndex))[0:31] || sub.
func (k Keys) TreeKey(addr Address, treeIndex *[32]byte, sub byte) Key {
	var in [64]byte
	copy(in[12:32], addr[:])
	copy(in[32:], treeIndex[:])
	h := k.h.sum64(&in)
	h[StemSize] = sub
	return Key(h)
}

// BasicData returns the key of the account's basic data leaf.
func (k Keys) BasicData(addr Address) Key {
	var ti [32]byte
	return k.TreeKey(addr, &ti, BasicDataLeafKey)
}

// CodeHash returns the key of the account's code hash leaf.
func (k Keys) CodeHash(addr Address) Key {
	var ti [32]byte
	return k.TreeKey(addr, &ti, CodeHashLeafKey)
}

// StorageSlot returns the key of storage slot (a big-endian uint256).
// Slots below 64 live in the account's header stem at 64+slot; the others
// at 2^248 + slot (without wrapping at 256 bits: the carry goes into the
// tree index).
func (k Keys) StorageSlot(addr Address, slot *[32]byte) Key {
	var ti [32]byte
	small := true
	for _, b := range slot[:31] {
		if b != 0 {
			small = false
			break
		}
	}
	if small && slot[31] < CodeOffset-HeaderStorageOffset {
		return k.TreeKey(addr, &ti, HeaderStorageOffset+slot[31])
	}
	// pos = 2^248 + slot; tree_index = pos >> 8 = (slot >> 8) + 2^240.
	copy(ti[1:], slot[:31])
	ti[1]++
	if ti[1] == 0 {
		ti[0]++
	}
	return k.TreeKey(addr, &ti, slot[31])
}

// CodeChunk returns the key of code chunk chunk (pos = 128 + chunk).
func (k Keys) CodeChunk(addr Address, chunk uint64) Key {
	lo, carry := bits.Add64(chunk, CodeOffset, 0)
	// pos = carry:lo (65 bits); tree_index = pos >> 8.
	var ti [32]byte
	binary.BigEndian.PutUint64(ti[24:], lo>>8|carry<<56)
	return k.TreeKey(addr, &ti, byte(lo))
}

// TreeKey derives a key with SHA-256 (see Keys.TreeKey).
func TreeKey(addr Address, treeIndex *[32]byte, sub byte) Key {
	return defaultKeys.TreeKey(addr, treeIndex, sub)
}

// BasicDataKey derives the basic data key with SHA-256.
func BasicDataKey(addr Address) Key { return defaultKeys.BasicData(addr) }

// CodeHashKey derives the code hash key with SHA-256.
func CodeHashKey(addr Address) Key { return defaultKeys.CodeHash(addr) }

// StorageSlotKey derives a storage slot key with SHA-256.
func StorageSlotKey(addr Address, slot *[32]byte) Key { return defaultKeys.StorageSlot(addr, slot) }

// CodeChunkKey derives a code chunk key with SHA-256.
func CodeChunkKey(addr Address, chunk uint64) Key { return defaultKeys.CodeChunk(addr, chunk) }

// BasicData is the content of an account's basic data leaf.
type BasicData struct {
	Version  uint8
	CodeSize uint32 // u24: at most MaxCodeSize
	Nonce    uint64
	Balance  [16]byte // big-endian u128
}

// Encode returns the leaf value: version | 4 reserved | code_size u24 |
// nonce u64 | balance u128, all big-endian. CodeSize above MaxCodeSize is
// truncated to its low 24 bits.
func (b *BasicData) Encode() Value {
	var v Value
	v[BasicDataVersionOffset] = b.Version
	v[BasicDataCodeSizeOffset] = byte(b.CodeSize >> 16)
	v[BasicDataCodeSizeOffset+1] = byte(b.CodeSize >> 8)
	v[BasicDataCodeSizeOffset+2] = byte(b.CodeSize)
	binary.BigEndian.PutUint64(v[BasicDataNonceOffset:], b.Nonce)
	copy(v[BasicDataBalanceOffset:], b.Balance[:])
	return v
}

// DecodeBasicData parses a basic data leaf (reserved bytes are ignored).
func DecodeBasicData(v *Value) BasicData {
	return BasicData{
		Version:  v[BasicDataVersionOffset],
		CodeSize: uint32(v[5])<<16 | uint32(v[6])<<8 | uint32(v[7]),
		Nonce:    binary.BigEndian.Uint64(v[BasicDataNonceOffset:]),
		Balance:  [16]byte(v[BasicDataBalanceOffset:]),
	}
}

// EVM push opcodes, for code chunking.
const (
	opPush1  = 0x60
	opPush32 = 0x7f
)

// ChunkifyCode splits EVM code into 32-byte chunks: the code is zero-padded
// to a multiple of 31 bytes, and chunk i is one byte, the number of leading
// bytes of code[31i:31i+31] that are PUSH data (capped at 31), followed by
// those 31 code bytes. Empty code has no chunks.
func ChunkifyCode(code []byte) []Value {
	n := (len(code) + CodeChunkSize - 1) / CodeChunkSize
	chunks := make([]Value, n)
	// pushLeft is the number of PUSH data bytes still to come at pos.
	pos, pushEnd := 0, 0
	for c := range n {
		start := c * CodeChunkSize
		end := min(start+CodeChunkSize, len(code))
		copy(chunks[c][1:], code[start:end])
		if pushEnd > start {
			chunks[c][0] = byte(min(pushEnd-start, CodeChunkSize))
		}
		for pos = max(pos, pushEnd); pos < end; pos++ {
			if op := code[pos]; op >= opPush1 && op <= opPush32 {
				pushEnd = pos + 1 + int(op-opPush1) + 1
				pos = pushEnd - 1
			}
		}
	}
	return chunks
}
