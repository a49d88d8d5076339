package state

import (
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// DecodeNEP17Balance decodes a stored NEP-17 balance into s without
// allocating the state (an empty value is a zero balance). Like
// NEP17BalanceFromBytes, it reads Struct [Integer] directly and any other
// serialization with the generic decoder.
func DecodeNEP17Balance(b []byte, s *NEP17Balance) error {
	if len(b) == 0 {
		s.Balance.SetInt64(0)
		return nil
	}
	if len(b) < 4 || b[0] != byte(stackitem.StructT) || b[1] != 1 || b[2] != byte(stackitem.IntegerT) ||
		int(b[3]) != len(b)-4 || b[3] > bigint.MaxBytesLen {
		v, err := NEP17BalanceFromBytes(b)
		if err != nil {
			return err
		}
		s.Balance.Set(&v.Balance)
		return nil
	}
	if i, ok := bigint.Int64FromBytes(b[4:]); ok {
		s.Balance.SetInt64(i)
	} else {
		bigint.SetBytes(&s.Balance, b[4:])
	}
	return nil
}
