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

func underflow() error {
	return &vmError{msg: "Out of stack bounds: 0/0", kind: ErrStackUnderflow}
}

// castError is C# InvalidCastException from Pop<T>.
func castError(item stackitem.Item, want string) error {
	return &vmError{msg: fmt.Sprintf("The item can't be casted to type %s (%s)", want, item.Type()), kind: stackitem.ErrInvalidCast}
}
