package nep11

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"

	nio "github.com/n3node/n3node/pkg/io"
)

// DefaultMaxItems is how many iterator values the CLI reads (neo-go's
// config.DefaultMaxIteratorResultItems).
const DefaultMaxItems = 100

// maxExpand bounds ExpandScript's max so that its loop keeps short jumps.
const maxExpand = 1 << 15

// ErrBadResult: a method returned something of the wrong shape.
var ErrBadResult = errors.New("unexpected NEP-11 method result")

// FaultError is a method's test run that did not HALT. Its text is
// neo-go's ("invocation failed: <exception>"), which the CLI prints; it
// matches rpcclient.ErrFault.
type FaultError struct {
	Method, Exception string
}

func (e *FaultError) Error() string { return "invocation failed: " + e.Exception }

// Unwrap makes errors.Is(err, rpcclient.ErrFault) hold.
func (e *FaultError) Unwrap() error { return rpcclient.ErrFault }

// RPC is what a Reader needs of a node.
type RPC interface {
	InvokeScriptHistoric(ctx context.Context, at rpcclient.Historic, script []byte, signers []transaction.Signer) (*rpcclient.InvokeResult, error)
}

// Reader test-invokes the read-only methods of one NEP-11 contract
// against a chosen state (the zero Historic: the current one).
type Reader struct {
	RPC   RPC
	Token hash.Uint160
	At    rpcclient.Historic
}

// run test-invokes script and returns its only result item.
func (r Reader) run(ctx context.Context, method string, script []byte) (stackitem.Item, error) {
	res, err := r.RPC.InvokeScriptHistoric(ctx, r.At, script, nil)
	if err != nil {
		return nil, err
	}
	if res.CheckHalt() != nil {
		return nil, &FaultError{Method: method, Exception: res.FaultException}
	}
	return res.Item(0)
}

// call test-invokes method with call flags All (as neo-go's invoker does).
func (r Reader) call(ctx context.Context, method string, args ...any) (stackitem.Item, error) {
	script, err := emit.Script(func(w *nio.BinWriter) { emit.AppCall(w, r.Token, method, callflag.All, args...) })
	if err != nil {
		return nil, err
	}
	return r.run(ctx, method, script)
}

// expand calls an iterator-returning method and returns up to max values.
func (r Reader) expand(ctx context.Context, max int, method string, args ...any) ([][]byte, error) {
	script, err := ExpandScript(r.Token, method, max, args...)
	if err != nil {
		return nil, err
	}
	it, err := r.run(ctx, method, script)
	if err != nil {
		return nil, err
	}
	arr, ok := it.Value().([]stackitem.Item)
	if !ok {
		return nil, fmt.Errorf("%w: %s returned %s, not an array", ErrBadResult, method, it.Type())
	}
	out := make([][]byte, len(arr))
	for i, v := range arr {
		if out[i], err = v.TryBytes(); err != nil {
			return nil, fmt.Errorf("%w: %s value %d: %w", ErrBadResult, method, i, err)
		}
	}
	return out, nil
}

// Properties returns properties(id) (a Map, as NEP-11 says).
func (r Reader) Properties(ctx context.Context, id []byte) (stackitem.Item, error) {
	return r.call(ctx, "properties", id)
}

// OwnerOf returns the owner of a non-divisible token.
func (r Reader) OwnerOf(ctx context.Context, id []byte) (hash.Uint160, error) {
	it, err := r.call(ctx, "ownerOf", id)
	if err != nil {
		return hash.Uint160{}, err
	}
	b, err := it.TryBytes()
	if err != nil {
		return hash.Uint160{}, fmt.Errorf("%w: ownerOf: %w", ErrBadResult, err)
	}
	return hash.Uint160DecodeBytesBE(b)
}

// OwnersOf returns up to max owners of a divisible token (ownerOf's
// iterator).
func (r Reader) OwnersOf(ctx context.Context, id []byte, max int) ([]hash.Uint160, error) {
	bs, err := r.expand(ctx, max, "ownerOf", id)
	if err != nil {
		return nil, err
	}
	out := make([]hash.Uint160, len(bs))
	for i, b := range bs {
		if out[i], err = hash.Uint160DecodeBytesBE(b); err != nil {
			return nil, fmt.Errorf("%w: ownerOf value %d: %w", ErrBadResult, i, err)
		}
	}
	return out, nil
}

// TokensOf returns up to max token ids of owner.
func (r Reader) TokensOf(ctx context.Context, owner hash.Uint160, max int) ([][]byte, error) {
	return r.expand(ctx, max, "tokensOf", owner)
}

// Tokens returns up to max ids of the (optional) tokens method.
func (r Reader) Tokens(ctx context.Context, max int) ([][]byte, error) {
	return r.expand(ctx, max, "tokens")
}

// ExpandScript returns a script that calls method of contract and leaves
// an array of at most max values of the iterator it returns:
//
//	<max> the call NEWARRAY0              max it arr
//	loop: OVER Iterator.Next              max it arr more
//	      JMPIFNOT end
//	      DUP PUSH2 PICK Iterator.Value   max it arr arr v
//	      APPEND                          max it arr    (v appended to arr)
//	      DUP SIZE PUSH3 PICK JMPLT loop  while len(arr) < max
//	end:  NIP NIP                         arr
//
// The limit comes first and the call's flags are All, as in neo-go's
// script: a FAULT of the call (a destroyed contract) names the same
// instruction in both CLIs' messages.
func ExpandScript(contract hash.Uint160, method string, max int, args ...any) ([]byte, error) {
	if max < 1 || max > maxExpand {
		return nil, fmt.Errorf("iterator expansion of %d items out of range", max)
	}
	const (
		nextLen   = 1 + 5     // OVER SYSCALL
		appendLen = 3 + 5 + 1 // DUP PUSH2 PICK SYSCALL APPEND
		countLen  = 4         // DUP SIZE PUSH3 PICK
		jumpLen   = 2         // a short jump
		toEnd     = jumpLen + appendLen + countLen + jumpLen
		toLoop    = -(nextLen + jumpLen + appendLen + countLen)
	)
	return emit.Script(func(w *nio.BinWriter) {
		emit.Int(w, int64(max))
		emit.AppCall(w, contract, method, callflag.All, args...)
		emit.Opcodes(w, opcode.NEWARRAY0, opcode.OVER)
		emit.Syscall(w, "System.Iterator.Next")
		emit.Jmp(w, opcode.JMPIFNOT, toEnd)
		emit.Opcodes(w, opcode.DUP, opcode.PUSH2, opcode.PICK)
		emit.Syscall(w, "System.Iterator.Value")
		emit.Opcodes(w, opcode.APPEND, opcode.DUP, opcode.SIZE, opcode.PUSH3, opcode.PICK)
		emit.Jmp(w, opcode.JMPLT, toLoop)
		emit.Opcodes(w, opcode.NIP, opcode.NIP)
	})
}

// TransferScript is a non-divisible transfer(to, id, data) + ASSERT.
func TransferScript(token, to hash.Uint160, id []byte, data any) ([]byte, error) {
	return callWithAssert(token, to, id, data)
}

// TransferDScript is a divisible transfer(from, to, amount, id, data) +
// ASSERT.
func TransferDScript(token, from, to hash.Uint160, amount *big.Int, id []byte, data any) ([]byte, error) {
	return callWithAssert(token, from, to, amount, id, data)
}

func callWithAssert(token hash.Uint160, args ...any) ([]byte, error) {
	return emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, token, "transfer", callflag.All, args...)
		emit.Opcodes(w, opcode.ASSERT)
	})
}
