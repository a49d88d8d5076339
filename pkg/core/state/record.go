package state

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/fxamacker/cbor/v2"
)

// The CBOR modes of node records: core deterministic encoding, and a decoder
// that rejects what the encoder never writes and bounds allocations.
var (
	recordEnc cbor.UserBufferEncMode
	recordDec cbor.DecMode
)

func init() {
	var err error
	recordEnc, err = cbor.CoreDetEncOptions().UserBufferEncMode()
	if err != nil {
		panic(err)
	}
	recordDec, err = cbor.DecOptions{
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		IndefLength:      cbor.IndefLengthForbidden,
		MaxNestedLevels:  8,
		MaxArrayElements: 1 << 20,
		MaxMapPairs:      1 << 16,
	}.DecMode()
	if err != nil {
		panic(err)
	}
}

// appendRecord appends the CBOR encoding of v to dst. The encoding is made
// in a pooled buffer, so a record costs one allocation (dst's growth).
func appendRecord(dst []byte, v any) ([]byte, error) {
	buf := getScratch()
	defer putScratch(buf)
	if err := recordEnc.MarshalToBuffer(v, buf); err != nil {
		return nil, err
	}
	return append(dst, buf.Bytes()...), nil
}

// maxPooledScratch is the largest buffer put back into scratchPool; a
// larger one (a huge record) is left to the collector.
const maxPooledScratch = 64 << 10

// scratchPool holds buffers for encodings that are copied out before the
// buffer is put back.
var scratchPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getScratch() *bytes.Buffer {
	b := scratchPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func putScratch(b *bytes.Buffer) {
	if b.Cap() <= maxPooledScratch {
		scratchPool.Put(b)
	}
}

// decodeRecord decodes exactly one CBOR value into v.
func decodeRecord(data []byte, v any) error {
	if err := recordDec.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: %w", ErrRecord, err)
	}
	return nil
}

// EncodeRecord returns the stored form of a node record v (a struct with
// the cbor toarray option): the version byte, then deterministic CBOR. Other
// packages (dao) use it for their own records.
func EncodeRecord(version byte, v any) ([]byte, error) {
	return appendRecord([]byte{version}, v)
}

// DecodeRecord checks the version byte and decodes the rest into v.
func DecodeRecord(data []byte, version byte, v any) error {
	if len(data) == 0 || data[0] != version {
		return fmt.Errorf("%w: unknown version", ErrRecord)
	}
	return decodeRecord(data[1:], v)
}
