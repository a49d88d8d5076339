package native

import (
	"errors"
	"math/big"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Storage layout shared by the NEP-17 natives (C# FungibleToken).
const (
	// prefixAccount + account script hash holds an account state.
	prefixAccount byte = 20
)

// totalSupplyKey holds the total supply (C# Prefix_TotalSupply = 11).
var totalSupplyKey = []byte{11}

// errInsufficientFunds makes a transfer return false.
var errInsufficientFunds = errors.New("insufficient funds")

// nep17 is the NEP-17 part shared by NeoToken and GasToken (C#
// FungibleToken, neo-go nep17TokenNative): the five standard methods, the
// Transfer event, the storage layout and the mint and burn helpers. The
// token-specific balance logic is called directly (not through function
// values) so that scratch buffers stay on the stack.
type nep17 struct {
	contractBase
	symbol   string
	decimals int64
	// neo is set for NeoToken: its balance changes distribute GAS and move
	// votes.
	neo *NEO
}

// scratchSize fits any account state the tokens write.
const scratchSize = 128

// change applies amount (which may be zero or negative) to the account
// state stored as si (nil: none yet) and returns the value to store (nil:
// delete the account; it may alias buf) and the GAS the change earns the
// account (NEO; nil for none). required, if not nil, is the balance the
// account must have (a zero-amount transfer of required tokens to itself).
// It does not write the account.
func (t *nep17) change(ic *interop.Context, si []byte, amount, required *big.Int, buf []byte) ([]byte, *big.Int, error) {
	if t.neo != nil {
		return t.neo.changeBalance(ic, si, amount, required, buf)
	}
	val, err := gasChangeBalance(si, amount, required, buf)
	return val, nil, err
}

// balance decodes the balance of a stored account state.
func (t *nep17) balance(si []byte) (*big.Int, error) {
	if t.neo != nil {
		var s state.NEOBalance
		if err := state.DecodeNEOBalance(si, &s); err != nil {
			return nil, err
		}
		return &s.Balance, nil
	}
	var s state.NEP17Balance
	if err := state.DecodeNEP17Balance(si, &s); err != nil {
		return nil, err
	}
	return &s.Balance, nil
}

func accountKey(h hash.Uint160) []byte { return makeUint160Key(prefixAccount, h) }

// addMethods adds the NEP-17 methods and the Transfer event (the token's
// first event) to the descriptor and makes the manifest list NEP-17 (and
// whatever extra adds for a hardfork).
func (t *nep17) addMethods(extra func(hf config.Hardfork) []string) {
	md := t.md
	md.SetManifestHook(func(m *manifest.Manifest, hf config.Hardfork) {
		m.SupportedStandards = []string{manifest.NEP17StandardName}
		if extra != nil {
			m.SupportedStandards = append(m.SupportedStandards, extra(hf)...)
		}
	})
	md.AddMethod(Method{Name: "symbol", ReturnType: smartcontract.StringType, Func: t.symbolMethod})
	md.AddMethod(Method{Name: "decimals", ReturnType: smartcontract.IntegerType, Func: t.decimalsMethod})
	md.AddMethod(Method{Name: "totalSupply", ReturnType: smartcontract.IntegerType, Func: t.totalSupplyMethod,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "balanceOf", Params: []manifest.Parameter{NewParam("account", smartcontract.Hash160Type)},
		ReturnType: smartcontract.IntegerType, Func: t.balanceOfMethod, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	transferParams := []manifest.Parameter{
		NewParam("from", smartcontract.Hash160Type),
		NewParam("to", smartcontract.Hash160Type),
		NewParam("amount", smartcontract.IntegerType),
	}
	md.AddMethod(Method{Name: "transfer", Params: append(transferParams[:3:3], NewParam("data", smartcontract.AnyType)),
		ReturnType: smartcontract.BoolType, Deferred: t.transfer, CPUFee: 1 << 17, StorageFee: 50,
		RequiredFlags: callflag.States | callflag.AllowCall | callflag.AllowNotify})
	md.AddEvent(Event{Name: "Transfer", Params: transferParams})
}

func (t *nep17) symbolMethod(*interop.Context, []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewByteString([]byte(t.symbol)), nil
}

func (t *nep17) decimalsMethod(*interop.Context, []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(t.decimals), nil
}

func (t *nep17) totalSupplyMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewBigInteger(t.TotalSupply(ic.DAO)), nil
}

// TotalSupply returns the stored total supply.
func (t *nep17) TotalSupply(d *dao.Simple) *big.Int {
	return bigint.FromBytes(d.GetStorageItem(t.md.ID, totalSupplyKey))
}

func (t *nep17) balanceOfMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := ToUint160(args[0])
	if err != nil {
		return nil, err
	}
	b, err := t.balanceOf(ic.DAO, h)
	if err != nil {
		return nil, err
	}
	return stackitem.NewBigInteger(b), nil
}

func (t *nep17) balanceOf(d *dao.Simple, h hash.Uint160) (*big.Int, error) {
	si := d.GetStorageItem(t.md.ID, accountKey(h))
	if si == nil {
		return new(big.Int), nil
	}
	b, err := t.balance(si)
	if err != nil {
		return nil, errors.Join(errors.New("can not deserialize balance state"), err)
	}
	return b, nil
}

// transfer is the NEP-17 transfer (C# FungibleToken.Transfer): false
// without the witness of from or with too small a balance; a contract
// recipient gets onNEP17Payment; NEO holders get their GAS after that.
func (t *nep17) transfer(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error {
	from, err := ToUint160(args[0])
	if err != nil {
		return err
	}
	to, err := ToUint160(args[1])
	if err != nil {
		return err
	}
	amount, err := ToBigInt(args[2])
	if err != nil {
		return err
	}
	data := args[3]
	if amount.Sign() < 0 {
		return errors.New("negative amount")
	}
	if ok, err := ic.CheckWitness(from); err != nil || !ok {
		return done(stackitem.Bool(false))
	}
	isEmpty := from == to || amount.Sign() == 0
	var inc big.Int
	if !isEmpty {
		inc.Neg(amount)
	}
	dist1, err := t.updateBalance(ic, from, &inc, amount)
	if err != nil {
		return done(stackitem.Bool(false))
	}
	var dist2 *big.Int
	if !isEmpty {
		if dist2, err = t.updateBalance(ic, to, amount, nil); err != nil {
			return done(stackitem.Bool(false))
		}
	}
	if dist1 == nil && dist2 == nil {
		// The common case needs no continuation.
		if err := t.notifyTransfer(ic, &from, &to, amount); err != nil {
			return err
		}
		cs, err := ic.GetContract(to)
		if err != nil {
			return done(stackitem.Bool(true))
		}
		return t.callOnPayment(ic, &from, cs, amount, data, func() error { return done(stackitem.Bool(true)) })
	}
	var dists []gasDistribution
	if dist1 != nil {
		dists = append(dists, gasDistribution{from, dist1})
	}
	if dist2 != nil {
		dists = append(dists, gasDistribution{to, dist2})
	}
	return t.postTransfer(ic, &from, &to, amount, data, true, dists, func() error {
		return done(stackitem.Bool(true))
	})
}

// updateBalance adds amount to the balance of acc (neo-go
// updateAccBalance): an account without state can only receive; required
// is the balance a zero-amount change needs.
func (t *nep17) updateBalance(ic *interop.Context, acc hash.Uint160, amount, required *big.Int) (*big.Int, error) {
	var kb [1 + hash.Uint160Size]byte
	key := append(append(kb[:0], prefixAccount), acc[:]...)
	si := ic.DAO.GetStorageItem(t.md.ID, key)
	if si == nil {
		if amount.Sign() < 0 || required != nil && required.Sign() > 0 {
			return nil, errInsufficientFunds
		}
		if amount.Sign() == 0 {
			return nil, nil
		}
	}
	return t.storeChange(ic, key, si, amount, required)
}

// storeChange applies amount to the balance state si stored under key and
// stores the result (deletes it when change returns none); it returns the
// GAS the change earns.
func (t *nep17) storeChange(ic *interop.Context, key, si []byte, amount, required *big.Int) (*big.Int, error) {
	var buf [scratchSize]byte
	val, dist, err := t.change(ic, si, amount, required, buf[:0])
	if err != nil {
		return nil, err
	}
	if val == nil {
		ic.DAO.DeleteStorageItem(t.md.ID, key)
	} else {
		ic.DAO.PutStorageItem(t.md.ID, key, val)
	}
	return dist, nil
}

// gasDistribution is GAS a NEO balance change earns an account.
type gasDistribution struct {
	to     hash.Uint160
	amount *big.Int
}

func addressItem(h *hash.Uint160) stackitem.Item {
	if h == nil {
		return stackitem.Null{}
	}
	return HashItem(*h)
}

// intItem is an Integer item of x (x is not retained).
func intItem(x *big.Int) stackitem.Item {
	if x.IsInt64() {
		return stackitem.NewInt(x.Int64())
	}
	return stackitem.NewBigInteger(new(big.Int).Set(x))
}

func (t *nep17) notifyTransfer(ic *interop.Context, from, to *hash.Uint160, amount *big.Int) error {
	return ic.AddNotification(t.md.Hash, "Transfer", stackitem.NewArray([]stackitem.Item{
		addressItem(from), addressItem(to), intItem(amount),
	}))
}

// callOnPayment calls onNEP17Payment of contract cs, then then.
func (t *nep17) callOnPayment(ic *interop.Context, from *hash.Uint160, cs *state.Contract, amount *big.Int,
	data stackitem.Item, then func() error) error {
	return ic.CallFromNative(t.md.Hash, cs, manifest.MethodOnNEP17Payment, []stackitem.Item{
		addressItem(from), intItem(amount), data,
	}, false, func(*interop.Context, stackitem.Item) error { return then() })
}

// postTransfer sends the Transfer notification, calls onNEP17Payment of a
// contract recipient (if callOnPayment), then mints the GAS distributions
// (calling onNEP17Payment of contract holders likewise) and finally runs
// then (C# PostTransferAsync; NeoToken's override mints after it).
func (t *nep17) postTransfer(ic *interop.Context, from, to *hash.Uint160, amount *big.Int, data stackitem.Item,
	callOnPayment bool, dists []gasDistribution, then func() error) error {
	if err := t.notifyTransfer(ic, from, to, amount); err != nil {
		return err
	}
	cont := then
	if len(dists) != 0 {
		cont = func() error { return t.cs.GAS.mintAll(ic, dists, callOnPayment, then) }
	}
	if to == nil || !callOnPayment {
		return cont()
	}
	cs, err := ic.GetContract(*to)
	if err != nil {
		return cont()
	}
	return t.callOnPayment(ic, from, cs, amount, data, cont)
}

// addTokens adds amount (negative to remove) to the balance of h and to the
// total supply; it returns the GAS the change earns h.
func (t *nep17) addTokens(ic *interop.Context, h hash.Uint160, amount *big.Int) (*big.Int, error) {
	key := accountKey(h)
	si := ic.DAO.GetStorageItem(t.md.ID, key)
	dist, err := t.storeChange(ic, key, si, amount, nil)
	if err != nil {
		return nil, err
	}
	t.addSupply(ic.DAO, amount)
	return dist, nil
}

func (t *nep17) addSupply(d *dao.Simple, amount *big.Int) {
	supply := t.TotalSupply(d)
	d.PutBigInt(t.md.ID, totalSupplyKey, supply.Add(supply, amount))
}

// mint creates amount tokens for h (C# FungibleToken.Mint): Transfer from
// null, onNEP17Payment of a contract h if callOnPayment, then then. It
// runs then itself (at once or after the contract call).
func (t *nep17) mint(ic *interop.Context, h hash.Uint160, amount *big.Int, callOnPayment bool, then func() error) error {
	if amount.Sign() == 0 {
		return then()
	}
	if _, err := t.addTokens(ic, h, amount); err != nil {
		return err
	}
	return t.postTransfer(ic, nil, &h, amount, stackitem.Null{}, callOnPayment, nil, then)
}

// burn destroys amount tokens of h (C# FungibleToken.Burn); it fails if h
// has less.
func (t *nep17) burn(ic *interop.Context, h hash.Uint160, amount *big.Int) error {
	if amount.Sign() == 0 {
		return nil
	}
	dist, err := t.addTokens(ic, h, new(big.Int).Neg(amount))
	if err != nil {
		return err
	}
	var dists []gasDistribution
	if dist != nil {
		dists = []gasDistribution{{h, dist}}
	}
	return t.postTransfer(ic, &h, nil, amount, stackitem.Null{}, false, dists, func() error { return nil })
}

func noop() error { return nil }
