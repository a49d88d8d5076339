package refchain

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// blockVersion0 is the only block version (C#: Block.Version must be 0).
const blockVersion0 = 0

// MaxBlockSize bounds one block in a dump (C#: ProtocolSettings.MaxBlockSize
// default 262144; neo-go accepts the configured value, at most 16 MiB here).
const MaxBlockSize = 16 << 20

// ErrChainAcc is wrapped by every chain.acc format error.
var ErrChainAcc = errors.New("refchain: bad chain.acc")

// ReadChainAcc splits a chain dump into raw blocks. Two layouts exist:
//
//   - the C# and neo-go --non-incremental layout: u32 LE count, then count
//     times (u32 LE size, block bytes), starting at the genesis block;
//   - neo-go's default (incremental) layout: u32 LE start index first, then
//     the same count and blocks, starting at block start.
//
// Like neo-go's `db restore`, it tells them apart by the third u32: a block
// begins with its version (0), so a zero there means the first u32 was the
// count. It returns the index of the first block and the blocks (sub-slices
// of data).
func ReadChainAcc(data []byte) (start uint32, blocks [][]byte, err error) {
	if len(data) < 12 {
		return 0, nil, fmt.Errorf("%w: %d bytes", ErrChainAcc, len(data))
	}
	a := binary.LittleEndian.Uint32(data)
	b := binary.LittleEndian.Uint32(data[4:])
	c := binary.LittleEndian.Uint32(data[8:])
	var count uint32
	off := 4
	if c == blockVersion0 {
		count = a // u32 count, u32 size, u32 version...
	} else {
		start, count, off = a, b, 8
	}
	if uint64(count)*4 > uint64(len(data)) {
		return 0, nil, fmt.Errorf("%w: count %d too large for %d bytes", ErrChainAcc, count, len(data))
	}
	blocks = make([][]byte, 0, count)
	for i := uint32(0); i < count; i++ {
		if len(data)-off < 4 {
			return 0, nil, fmt.Errorf("%w: block %d: truncated size", ErrChainAcc, i)
		}
		size := binary.LittleEndian.Uint32(data[off:])
		off += 4
		if size > MaxBlockSize || uint64(size) > uint64(len(data)-off) {
			return 0, nil, fmt.Errorf("%w: block %d: size %d, %d bytes left", ErrChainAcc, i, size, len(data)-off)
		}
		blocks = append(blocks, data[off:off+int(size):off+int(size)])
		off += int(size)
	}
	if off != len(data) {
		return 0, nil, fmt.Errorf("%w: %d trailing bytes", ErrChainAcc, len(data)-off)
	}
	return start, blocks, nil
}

// WriteChainAcc encodes blocks in the C# layout (u32 count, then size-prefixed
// blocks from the genesis on).
func WriteChainAcc(blocks [][]byte) []byte {
	n := 4
	for _, b := range blocks {
		n += 4 + len(b)
	}
	out := make([]byte, 0, n)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(blocks)))
	for _, b := range blocks {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(b)))
		out = append(out, b...)
	}
	return out
}
