package vm

import (
	"fmt"

	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// vmError carries the exact message of the C# exception and unwraps to the
// sentinel the caller may branch on.
type vmError struct {
	msg  string
	kind error
}

func (e *vmError) Error() string { return e.msg }
func (e *vmError) Unwrap() error { return e.kind }

// invalidOp returns an ErrInvalidOperation error with the given message.
func invalidOp(format string, args ...any) error {
	return &vmError{msg: fmt.Sprintf(format, args...), kind: ErrInvalidOperation}
}

// popInteger pops the top item and converts it with GetInteger.
func (s *Stack) popInteger() (*stackitem.Integer, error) {
	n := len(s.items)
	if n == 0 {
		return nil, underflow()
	}
	item := s.items[n-1]
	s.items = s.items[:n-1]
	if i, ok := item.(*stackitem.Integer); ok {
		s.refs.Inc(-1)
		return i, nil
	}
	s.refs.Remove(item)
	return stackitem.ToInteger(item)
}

// popInt32 pops an integer and converts it to int as C# (int)BigInteger does.
func (s *Stack) popInt32() (int, error) {
	i, err := s.popInteger()
	if err != nil {
		return 0, err
	}
	return toInt32(i)
}

// popBool pops the top item and converts it with GetBoolean.
func (s *Stack) popBool() (bool, error) {
	n := len(s.items)
	if n == 0 {
		return false, underflow()
	}
	item := s.items[n-1]
	s.items = s.items[:n-1]
	if b, ok := item.(stackitem.Bool); ok {
		s.refs.Inc(-1)
		return bool(b), nil
	}
	s.refs.Remove(item)
	return item.TryBool()
}

// popBytes pops the top item and returns GetSpan.
func (s *Stack) popBytes() ([]byte, error) {
	item, err := s.Pop()
	if err != nil {
		return nil, err
	}
	return item.TryBytes()
}

func underflow() error {
	return &vmError{msg: "Out of stack bounds: 0/0", kind: ErrStackUnderflow}
}

// castError is C# InvalidCastException from Pop<T>.
func castError(item stackitem.Item, want string) error {
	return &vmError{msg: fmt.Sprintf("The item can't be casted to type %s (%s)", want, item.Type()), kind: stackitem.ErrInvalidCast}
}
