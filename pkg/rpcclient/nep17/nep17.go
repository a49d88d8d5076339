package nep17

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"

	nio "github.com/n3node/n3node/pkg/io"
)

// Token describes a NEP-17 token.
type Token struct {
	Hash     hash.Uint160
	Name     string // the contract's manifest name
	Symbol   string
	Decimals int
}

// The native tokens.
var (
	NEO = Token{Hash: nativenames.NeoHash, Name: nativenames.Neo, Symbol: "NEO", Decimals: 0}
	GAS = Token{Hash: nativenames.GasHash, Name: nativenames.Gas, Symbol: "GAS", Decimals: 8}
)

// MaxDecimals bounds the decimals accepted from a token (neo-go's
// fixedn works up to 16 quickly and beyond that slowly; a NEP-17 token
// with more than 255 would not fit the byte C# reads it into).
const MaxDecimals = 255

// Errors.
var (
	ErrNotNEP17     = errors.New("not a NEP-17 token")
	ErrNotStandard  = errors.New("not a token of the standard")
	ErrAmountFormat = errors.New("invalid decimal amount")
)

// RPC is what Info needs of a node.
type RPC interface {
	GetContractState(ctx context.Context, h hash.Uint160) (*state.Contract, error)
	InvokeScript(ctx context.Context, script []byte, signers []transaction.Signer) (*rpcclient.InvokeResult, error)
}

// NotStandardError refuses a contract that does not declare the standard
// asked for. Its text is neo-go's ("<hash LE> is not a NEP-11 token"); it
// matches ErrNotStandard, and ErrNotNEP17 when the standard is NEP-17.
type NotStandardError struct {
	Hash     hash.Uint160
	Standard string
}

func (e *NotStandardError) Error() string {
	return fmt.Sprintf("%s is not a %s token", e.Hash.StringLE(), e.Standard)
}

// Is makes errors.Is(err, ErrNotStandard) hold, and errors.Is(err,
// ErrNotNEP17) for NEP-17.
func (e *NotStandardError) Is(target error) bool {
	return target == ErrNotStandard || target == ErrNotNEP17 && e.Standard == manifest.NEP17StandardName
}

// Info fetches a token's description: its contract state (which must
// declare NEP-17) and its symbol and decimals (one test invocation).
func Info(ctx context.Context, rpc RPC, h hash.Uint160) (*Token, error) {
	return InfoStandard(ctx, rpc, h, manifest.NEP17StandardName)
}

// InfoStandard is Info for a token of the given standard (NEP-17 or
// NEP-11: both have symbol and decimals); a contract that does not
// declare it is refused with ErrNotStandard.
func InfoStandard(ctx context.Context, rpc RPC, h hash.Uint160, standard string) (*Token, error) {
	cs, err := rpc.GetContractState(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("contract %s: %w", h.StringLE(), err)
	}
	if !slices.Contains(cs.Manifest.SupportedStandards, standard) {
		return nil, &NotStandardError{Hash: h, Standard: standard}
	}
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, h, "symbol", callflag.ReadOnly)
		emit.AppCall(w, h, "decimals", callflag.ReadOnly)
	})
	if err != nil {
		return nil, err
	}
	r, err := rpc.InvokeScript(ctx, script, nil)
	if err != nil {
		return nil, err
	}
	if err := r.CheckHalt(); err != nil {
		return nil, fmt.Errorf("symbol/decimals of %s: %w", h.StringLE(), err)
	}
	sym, err := r.String(0)
	if err != nil {
		return nil, fmt.Errorf("symbol of %s: %w", h.StringLE(), err)
	}
	dec, err := r.Int(1)
	if err != nil {
		return nil, fmt.Errorf("decimals of %s: %w", h.StringLE(), err)
	}
	if dec.Sign() < 0 || dec.Cmp(big.NewInt(MaxDecimals)) > 0 {
		return nil, fmt.Errorf("decimals of %s: %s out of range", h.StringLE(), dec)
	}
	return &Token{Hash: h, Name: cs.Manifest.Name, Symbol: sym, Decimals: int(dec.Int64())}, nil
}

// Transfer is one NEP-17 transfer of a script.
type Transfer struct {
	Token  hash.Uint160
	From   hash.Uint160
	To     hash.Uint160
	Amount *big.Int
	// Data is passed to onNEP17Payment; any value emit.Any pushes (nil
	// for none).
	Data any
}

// TransferScript returns a script making every transfer in order, each
// followed by ASSERT (the script FAULTs when a transfer returns false), as
// neo-go's nep17 client builds it.
func TransferScript(ts ...Transfer) ([]byte, error) {
	if len(ts) == 0 {
		return nil, errors.New("no transfers")
	}
	return emit.Script(func(w *nio.BinWriter) {
		for _, t := range ts {
			emit.AppCall(w, t.Token, "transfer", callflag.All, t.From, t.To, t.Amount, t.Data)
			emit.Opcodes(w, opcode.ASSERT)
		}
	})
}

// ParseAmount converts a decimal string to an integer amount with the
// given decimals: "12", "-1.5", "0.00000001". At most `decimals`
// fractional digits; no exponent, no sign after the first character, no
// empty parts.
func ParseAmount(s string, decimals int) (*big.Int, error) {
	if decimals < 0 || decimals > MaxDecimals {
		return nil, fmt.Errorf("%w: %d decimals", ErrAmountFormat, decimals)
	}
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	whole, frac, hasDot := strings.Cut(digits, ".")
	if whole == "" || (hasDot && frac == "") || !allDigits(whole) || !allDigits(frac) {
		return nil, fmt.Errorf("%w: %q", ErrAmountFormat, s)
	}
	if len(frac) > decimals {
		return nil, fmt.Errorf("%w: %q has more than %d decimal places", ErrAmountFormat, s, decimals)
	}
	v, ok := new(big.Int).SetString(whole+frac+strings.Repeat("0", decimals-len(frac)), 10)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrAmountFormat, s)
	}
	if neg {
		v.Neg(v)
	}
	return v, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatAmount writes an integer amount with the given decimals, without
// trailing fractional zeros: 150000000 with 8 decimals is "1.5", 100000000
// is "1", -1 is "-0.00000001".
func FormatAmount(v *big.Int, decimals int) string {
	if decimals <= 0 {
		return v.String()
	}
	abs := new(big.Int).Abs(v).String()
	if len(abs) <= decimals {
		abs = strings.Repeat("0", decimals-len(abs)+1) + abs
	}
	whole, frac := abs[:len(abs)-decimals], strings.TrimRight(abs[len(abs)-decimals:], "0")
	out := whole
	if frac != "" {
		out += "." + frac
	}
	if v.Sign() < 0 {
		out = "-" + out
	}
	return out
}
