package state

import (
	"fmt"

	"github.com/fxamacker/cbor/v2"
)

// The CBOR modes of node records: core deterministic encoding, and a decoder
// that rejects what the encoder never writes and bounds allocations.
var (
	recordEnc cbor.EncMode
	recordDec cbor.DecMode
)

func init() {
	var err error
	recordEnc, err = cbor.CoreDetEncOptions().EncMode()
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

// appendRecord appends the CBOR encoding of v to dst.
func appendRecord(dst []byte, v any) ([]byte, error) {
	b, err := recordEnc.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
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
