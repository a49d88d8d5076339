package state

import (
	"fmt"
	"math"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// NEOBalance is the NEO account state (C# NeoToken.NeoAccountState):
// Struct [balance, balanceHeight, voteTo (key or Null), lastGasPerVote].
type NEOBalance struct {
	NEP17Balance
	// BalanceHeight is the height GAS was last distributed at.
	BalanceHeight uint32
	// LastGasPerVote is the candidate's GAS-per-vote at that height (zero
	// when not voting).
	LastGasPerVote big.Int
	// VoteTo is the candidate voted for, nil if none.
	VoteTo *keys.PublicKey
}

// NEP17Balance is the account state of a NEP-17 native token (C#
// AccountState): Struct [balance].
type NEP17Balance struct {
	Balance big.Int
}

// Candidate is a NEO candidate state (C# NeoToken.CandidateState): Struct
// [registered, votes].
type Candidate struct {
	Registered bool
	Votes      big.Int
}

// NEP17BalanceFromBytes decodes a stored NEP-17 balance; empty input is a
// zero balance. It reads the fixed shape Struct [Integer] directly.
func NEP17BalanceFromBytes(b []byte) (*NEP17Balance, error) {
	if len(b) == 0 {
		return new(NEP17Balance), nil
	}
	if len(b) < 4 || b[0] != byte(stackitem.StructT) || b[1] != 1 || b[2] != byte(stackitem.IntegerT) ||
		int(b[3]) != len(b)-4 || b[3] > bigint.MaxBytesLen {
		s := new(NEP17Balance)
		if err := stackitem.DeserializeConvertible(b, s); err != nil {
			return nil, err
		}
		return s, nil
	}
	s := new(NEP17Balance)
	bigint.SetBytes(&s.Balance, b[4:])
	return s, nil
}

// Bytes returns the stored form, appended to buf[:0].
func (s *NEP17Balance) Bytes(buf []byte) []byte {
	buf = append(buf[:0], byte(stackitem.StructT), 1, byte(stackitem.IntegerT), 0)
	buf = bigint.Append(buf, &s.Balance)
	buf[3] = byte(len(buf) - 4)
	return buf
}

// ToStackItem implements stackitem.Convertible.
func (s *NEP17Balance) ToStackItem() (stackitem.Item, error) {
	return stackitem.NewStruct([]stackitem.Item{stackitem.NewBigInteger(new(big.Int).Set(&s.Balance))}), nil
}

// FromStackItem implements stackitem.Convertible.
func (s *NEP17Balance) FromStackItem(item stackitem.Item) error {
	a, ok := item.(*stackitem.Array)
	if !ok || a.Len() < 1 {
		return fmt.Errorf("%w: not a balance struct", ErrInvalidItem)
	}
	b, err := a.Get(0).TryInteger()
	if err != nil {
		return fmt.Errorf("%w: invalid balance: %w", ErrInvalidItem, err)
	}
	s.Balance = *b
	return nil
}

// NEOBalanceFromBytes decodes a stored NEO account state; empty input is a
// zero state.
func NEOBalanceFromBytes(b []byte) (*NEOBalance, error) {
	s := new(NEOBalance)
	if len(b) == 0 {
		return s, nil
	}
	if err := stackitem.DeserializeConvertible(b, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Bytes returns the stored form.
func (s *NEOBalance) Bytes() []byte {
	item, _ := s.ToStackItem()
	b, err := stackitem.Serialize(item)
	if err != nil {
		panic(fmt.Errorf("NEO balance serialization: %w", err)) // fixed small shape, cannot fail
	}
	return b
}

// ToStackItem implements stackitem.Convertible.
func (s *NEOBalance) ToStackItem() (stackitem.Item, error) {
	var vote stackitem.Item = stackitem.Null{}
	if s.VoteTo != nil {
		vote = stackitem.NewByteString(s.VoteTo.Bytes())
	}
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.NewBigInteger(new(big.Int).Set(&s.Balance)),
		stackitem.NewInt(int64(s.BalanceHeight)),
		vote,
		stackitem.NewBigInteger(new(big.Int).Set(&s.LastGasPerVote)),
	}), nil
}

// FromStackItem implements stackitem.Convertible.
func (s *NEOBalance) FromStackItem(item stackitem.Item) error {
	a, ok := item.(*stackitem.Array)
	if !ok || a.Len() < 4 {
		return fmt.Errorf("%w: invalid stackitem length", ErrInvalidItem)
	}
	items := a.Items()
	b, err := items[0].TryInteger()
	if err != nil {
		return fmt.Errorf("%w: invalid balance: %w", ErrInvalidItem, err)
	}
	h, err := itemInt64(items[1], 0, math.MaxUint32)
	if err != nil {
		return fmt.Errorf("invalid height: %w", err)
	}
	var vote *keys.PublicKey
	if _, ok := items[2].(stackitem.Null); !ok {
		kb, err := items[2].TryBytes()
		if err != nil {
			return fmt.Errorf("%w: invalid public key: %w", ErrInvalidItem, err)
		}
		if vote, err = keys.NewPublicKeyFromBytes(kb); err != nil {
			return fmt.Errorf("%w: invalid public key: %w", ErrInvalidItem, err)
		}
	}
	g, err := items[3].TryInteger()
	if err != nil {
		return fmt.Errorf("%w: invalid last GAS per vote: %w", ErrInvalidItem, err)
	}
	s.Balance = *b
	s.BalanceHeight = uint32(h)
	s.VoteTo = vote
	s.LastGasPerVote = *g
	return nil
}

// ToStackItem implements stackitem.Convertible.
func (c *Candidate) ToStackItem() (stackitem.Item, error) {
	return stackitem.NewStruct([]stackitem.Item{stackitem.Bool(c.Registered), stackitem.NewBigInteger(new(big.Int).Set(&c.Votes))}), nil
}

// FromStackItem implements stackitem.Convertible.
func (c *Candidate) FromStackItem(item stackitem.Item) error {
	a, ok := item.(*stackitem.Array)
	if !ok || a.Len() < 2 {
		return fmt.Errorf("%w: invalid candidate", ErrInvalidItem)
	}
	reg, err := a.Get(0).TryBool()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	v, err := a.Get(1).TryInteger()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	c.Registered = reg
	c.Votes = *v
	return nil
}
