package state

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Fast codecs for the NEO contract's hot records. The NEO account state is
// read and written by every NEO transfer, so it gets a direct encoder and a
// decoder for the exact shape the contract writes (any other valid
// serialization goes through the generic stack item decoder). Both produce
// the bytes stackitem.Serialize produces for ToStackItem's item.

// AppendBytes appends the stored form of s (the StdLib serialization of
// Struct [balance, balanceHeight, voteTo, lastGasPerVote]) to dst.
func (s *NEOBalance) AppendBytes(dst []byte) []byte {
	dst = append(dst, byte(stackitem.StructT), 4)
	dst = appendSerializedInt(dst, &s.Balance)
	dst = append(dst, byte(stackitem.IntegerT), 0)
	n := len(dst)
	dst = bigint.AppendInt64(dst, int64(s.BalanceHeight))
	dst[n-1] = byte(len(dst) - n)
	if s.VoteTo == nil {
		dst = append(dst, byte(stackitem.AnyT))
	} else {
		k := s.VoteTo.Compressed()
		dst = append(dst, byte(stackitem.ByteStringT), keys.CompressedSize)
		dst = append(dst, k[:]...)
	}
	return appendSerializedInt(dst, &s.LastGasPerVote)
}

func appendSerializedInt(dst []byte, x *big.Int) []byte {
	dst = append(dst, byte(stackitem.IntegerT), 0)
	n := len(dst)
	if x.IsInt64() {
		dst = bigint.AppendInt64(dst, x.Int64())
	} else {
		dst = bigint.Append(dst, x)
	}
	dst[n-1] = byte(len(dst) - n)
	return dst
}

// errNotFast tells DecodeNEOBalance's fast path to fall back.
var errNotFast = errors.New("not the fast shape")

// readSerializedInt reads an Integer item (type, one-byte length of at most
// bigint.MaxBytesLen, value) into x and returns the rest.
func readSerializedInt(b []byte, x *big.Int) ([]byte, error) {
	if len(b) < 2 || b[0] != byte(stackitem.IntegerT) || b[1] > bigint.MaxBytesLen || len(b) < 2+int(b[1]) {
		return nil, errNotFast
	}
	v := b[2 : 2+int(b[1])]
	if i, ok := bigint.Int64FromBytes(v); ok {
		x.SetInt64(i)
	} else {
		bigint.SetBytes(x, v)
	}
	return b[2+int(b[1]):], nil
}

// DecodeNEOBalance decodes a stored NEO account state into s (an empty value
// is the zero state). It reads the shape AppendBytes writes directly and
// anything else with the generic decoder, which also reports the errors.
func DecodeNEOBalance(b []byte, s *NEOBalance) error {
	if len(b) == 0 {
		*s = NEOBalance{}
		return nil
	}
	if err := decodeNEOBalanceFast(b, s); err == nil {
		return nil
	}
	v := new(NEOBalance)
	if err := stackitem.DeserializeConvertible(b, v); err != nil {
		return err
	}
	*s = NEOBalance{}
	s.Balance.Set(&v.Balance)
	s.BalanceHeight = v.BalanceHeight
	s.VoteTo = v.VoteTo
	s.LastGasPerVote.Set(&v.LastGasPerVote)
	return nil
}

func decodeNEOBalanceFast(b []byte, s *NEOBalance) error {
	if len(b) < 2 || b[0] != byte(stackitem.StructT) || b[1] != 4 {
		return errNotFast
	}
	rest, err := readSerializedInt(b[2:], &s.Balance)
	if err != nil {
		return err
	}
	// The height: an Integer in [0, 2^32).
	if len(rest) < 2 || rest[0] != byte(stackitem.IntegerT) || rest[1] > 8 || len(rest) < 2+int(rest[1]) {
		return errNotFast
	}
	h, ok := bigint.Int64FromBytes(rest[2 : 2+int(rest[1])])
	if !ok || h < 0 || h > 0xffffffff {
		return errNotFast
	}
	s.BalanceHeight = uint32(h)
	rest = rest[2+int(rest[1]):]
	switch {
	case len(rest) > 0 && rest[0] == byte(stackitem.AnyT):
		s.VoteTo = nil
		rest = rest[1:]
	case len(rest) >= 2+keys.CompressedSize && rest[0] == byte(stackitem.ByteStringT) && rest[1] == keys.CompressedSize:
		var kb [keys.CompressedSize]byte
		copy(kb[:], rest[2:])
		if s.VoteTo, err = keys.DecodeCompressed(&kb); err != nil {
			return errNotFast
		}
		rest = rest[2+keys.CompressedSize:]
	default:
		return errNotFast
	}
	if rest, err = readSerializedInt(rest, &s.LastGasPerVote); err != nil {
		return err
	}
	if len(rest) != 0 {
		return errNotFast
	}
	return nil
}

// Validator is a NEO candidate key with its votes (C# (ECPoint, BigInteger)):
// an element of the stored committee and of getCandidates.
type Validator struct {
	Key   *keys.PublicKey
	Votes big.Int
}

// EncodeValidators returns the stored form of the NEO committee (C#
// CachedCommittee): Array of Struct [key, votes].
func EncodeValidators(vs []Validator) []byte {
	dst := append(make([]byte, 0, 2+len(vs)*(4+keys.CompressedSize+10)), byte(stackitem.ArrayT))
	dst = appendVarUint(dst, uint64(len(vs)))
	for i := range vs {
		k := vs[i].Key.Compressed()
		dst = append(dst, byte(stackitem.StructT), 2, byte(stackitem.ByteStringT), keys.CompressedSize)
		dst = append(dst, k[:]...)
		dst = appendSerializedInt(dst, &vs[i].Votes)
	}
	return dst
}

func appendVarUint(dst []byte, n uint64) []byte {
	switch {
	case n < 0xfd:
		return append(dst, byte(n))
	case n <= 0xffff:
		return append(dst, 0xfd, byte(n), byte(n>>8))
	default:
		return append(dst, 0xfe, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
}

// DecodeValidators decodes the stored NEO committee.
func DecodeValidators(b []byte) ([]Validator, error) {
	item, err := stackitem.Deserialize(b)
	if err != nil {
		return nil, err
	}
	arr, ok := item.(*stackitem.Array)
	if !ok {
		return nil, fmt.Errorf("%w: committee is not an array", ErrInvalidItem)
	}
	res := make([]Validator, arr.Len())
	for i, it := range arr.Items() {
		s, ok := it.(*stackitem.Array)
		if !ok || s.Len() < 2 {
			return nil, fmt.Errorf("%w: committee member %d is not a struct", ErrInvalidItem, i)
		}
		kb, err := s.Get(0).TryBytes()
		if err != nil {
			return nil, fmt.Errorf("%w: committee member %d key: %w", ErrInvalidItem, i, err)
		}
		if res[i].Key, err = keys.NewPublicKeyFromBytes(kb); err != nil {
			return nil, fmt.Errorf("%w: committee member %d key: %w", ErrInvalidItem, i, err)
		}
		v, err := s.Get(1).TryInteger()
		if err != nil {
			return nil, fmt.Errorf("%w: committee member %d votes: %w", ErrInvalidItem, i, err)
		}
		res[i].Votes.Set(v)
	}
	return res, nil
}
