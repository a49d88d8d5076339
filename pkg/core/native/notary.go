package native

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Notary defaults (C# Notary).
const (
	// DefaultMaxNotValidBeforeDelta is the initial maximum NotValidBefore
	// delta (C# DefaultMaxNotValidBeforeDelta: 20 rounds of 7 validators).
	DefaultMaxNotValidBeforeDelta = 140
	// DefaultDepositDeltaTill is the lock of a first deposit made for
	// another account (C# DefaultDepositDeltaTill).
	DefaultDepositDeltaTill = 5760
)

// Notary storage prefixes and keys (C# Prefix_*).
const notaryDepositPrefix = 1

var notaryMaxNVBDeltaKey = []byte{10}

// Notary errors.
var (
	ErrNotaryOnlyGAS    = errors.New("only GAS can be accepted for deposit")
	ErrNotaryBadData    = errors.New("`data` parameter should be an array of 2 elements")
	ErrNotaryTill       = errors.New("invalid deposit lock height")
	ErrNotaryFirstDepo  = errors.New("first deposit is too small")
	ErrNotaryWithdrawal = errors.New("failed to transfer GAS from Notary account")
	ErrNotaryNVBDelta   = errors.New("invalid MaxNotValidBeforeDelta")
)

// Notary is the Notary native contract (C# Notary, deployed at HF_Echidna):
// GAS deposits that pay for notary-assisted transactions, and the witness
// of the notary nodes (P2PNotary role) on them. It follows neo-go 0.120.0
// (see docs/native.md for where C# differs); neo-go deploys it whether or
// not P2PSigExtensions is on.
type Notary struct {
	contractBase
}

// NotaryCache holds the maximum NotValidBefore delta per DAO layer.
type NotaryCache struct {
	maxNVBDelta uint32
}

// Copy implements dao.NativeContractCache.
func (c *NotaryCache) Copy() dao.NativeContractCache { return shallowCopy(c) }

func newNotary(cs *Contracts) Contract {
	n := &Notary{contractBase: newBase(nativenames.Notary, config.HFEchidna, cs)}
	md := n.md
	md.RegisterHardfork(config.HFFaun) // supported standards
	md.SetManifestHook(func(m *manifest.Manifest, hf config.Hardfork) {
		m.SupportedStandards = []string{"NEP-27"}
		if hf >= config.HFFaun {
			m.SupportedStandards = append(m.SupportedStandards, "NEP-30")
		}
	})
	h160, intT, boolT := smartcontract.Hash160Type, smartcontract.IntegerType, smartcontract.BoolType
	account := []manifest.Parameter{NewParam("account", h160)}
	md.AddMethod(Method{Name: "onNEP17Payment", Params: []manifest.Parameter{NewParam("from", h160), NewParam("amount", intT),
		NewParam("data", smartcontract.AnyType)}, ReturnType: smartcontract.VoidType, Func: n.onPayment, CPUFee: 1 << 15,
		RequiredFlags: callflag.States})
	md.AddMethod(Method{Name: "lockDepositUntil", Params: []manifest.Parameter{NewParam("account", h160), NewParam("till", intT)},
		ReturnType: boolT, Func: n.lockDepositUntil, CPUFee: 1 << 15, RequiredFlags: callflag.States})
	md.AddMethod(Method{Name: "withdraw", Params: []manifest.Parameter{NewParam("from", h160), NewParam("to", h160)},
		ReturnType: boolT, Deferred: n.withdraw, CPUFee: 1 << 15, RequiredFlags: callflag.All})
	md.AddMethod(Method{Name: "balanceOf", Params: account, ReturnType: intT, Func: n.balanceOf, CPUFee: 1 << 15,
		RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "expirationOf", Params: account, ReturnType: intT, Func: n.expirationOf, CPUFee: 1 << 15,
		RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "verify", Params: []manifest.Parameter{NewParam("signature", smartcontract.ByteArrayType)},
		ReturnType: boolT, Func: n.verify, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getMaxNotValidBeforeDelta", ReturnType: intT, Func: n.getMaxNotValidBeforeDelta, CPUFee: 1 << 15,
		RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "setMaxNotValidBeforeDelta", Params: []manifest.Parameter{NewParam("value", intT)},
		ReturnType: smartcontract.VoidType, Func: n.setMaxNotValidBeforeDelta, CPUFee: 1 << 15, RequiredFlags: callflag.States})
	return n
}

// Notary returns the Notary native contract.
func (cs *Contracts) Notary() *Notary { return contractByID[*Notary](cs, nativenames.NotaryID) }

// Initialize implements Contract.
func (n *Notary) Initialize(ic *interop.Context, hf config.Hardfork, _ *HFContractMD) error {
	if hf != n.md.ActiveIn {
		return nil
	}
	ic.DAO.PutInt64(n.md.ID, notaryMaxNVBDeltaKey, DefaultMaxNotValidBeforeDelta)
	ic.DAO.SetCache(n.md.ID, &NotaryCache{maxNVBDelta: DefaultMaxNotValidBeforeDelta})
	return nil
}

// InitializeCache implements Contract.
func (n *Notary) InitializeCache(d *dao.Simple, _ *config.Blockchain, _ uint32) error {
	v, err := d.GetInt64(n.md.ID, notaryMaxNVBDeltaKey)
	if err != nil {
		return fmt.Errorf("notary MaxNotValidBeforeDelta: %w", err)
	}
	d.SetCache(n.md.ID, &NotaryCache{maxNVBDelta: uint32(v)})
	return nil
}

// OnPersist implements Contract: the fees of notary-assisted transactions
// sent by the Notary contract come out of the second signer's deposit, and
// every notary node gets an equal part of (NKeys + 1) NotaryAssisted
// attribute fees per such transaction.
func (n *Notary) OnPersist(ic *interop.Context) error {
	var (
		nFees    int64
		notaries []*keys.PublicKey
		loaded   bool
	)
	for _, tx := range ic.Block.Transactions {
		attrs := tx.GetAttributes(transaction.NotaryAssistedT)
		if len(attrs) == 0 {
			continue
		}
		if !loaded {
			var err error
			if notaries, err = n.NotaryNodes(ic.DAO); err != nil {
				return err
			}
			loaded = true
		}
		nFees += int64(attrs[0].Value.(*transaction.NotaryAssisted).NKeys) + 1
		if tx.Sender() != n.md.Hash {
			continue
		}
		payer := tx.Signers[1].Account
		deposit, err := n.GetDepositFor(ic.DAO, payer)
		if err != nil {
			return err
		}
		if deposit == nil {
			continue // neo-go 0.120.0 and C#; neo-go 0.121.0 fails the block
		}
		deposit.Amount.Sub(&deposit.Amount, big.NewInt(tx.SystemFee+tx.NetworkFee))
		if deposit.Amount.Sign() == 0 {
			n.removeDepositFor(ic.DAO, payer)
		} else if err := n.putDepositFor(ic.DAO, payer, deposit); err != nil {
			return err
		}
	}
	if nFees == 0 || len(notaries) == 0 {
		return nil
	}
	feePerKey := n.cs.Policy.AttributeFee(ic.DAO, transaction.NotaryAssistedT)
	single := big.NewInt(nFees * feePerKey / int64(len(notaries)))
	for _, k := range notaries {
		if err := mintGAS(ic, n.cs, k.ScriptHash(), single); err != nil {
			return err
		}
	}
	return nil
}

// NotaryNodes returns the latest keys designated for the P2PNotary role.
func (n *Notary) NotaryNodes(d *dao.Simple) ([]*keys.PublicKey, error) {
	nodes, _, err := n.cs.RoleManagement().GetDesignatedByRole(d, noderoles.P2PNotary, math.MaxUint32)
	return nodes, err
}

func notaryDepositKey(acc hash.Uint160) []byte { return makeUint160Key(notaryDepositPrefix, acc) }

// GetDepositFor returns the deposit of acc, nil if there is none.
func (n *Notary) GetDepositFor(d *dao.Simple, acc hash.Uint160) (*state.Deposit, error) {
	dep := new(state.Deposit)
	if err := d.GetStorageConvertible(n.md.ID, notaryDepositKey(acc), dep); err != nil {
		if errors.Is(err, dao.ErrNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("deposit of %s: %w", acc.StringLE(), err)
	}
	return dep, nil
}

func (n *Notary) putDepositFor(d *dao.Simple, acc hash.Uint160, dep *state.Deposit) error {
	return d.PutStorageConvertible(n.md.ID, notaryDepositKey(acc), dep)
}

func (n *Notary) removeDepositFor(d *dao.Simple, acc hash.Uint160) {
	d.DeleteStorageItem(n.md.ID, notaryDepositKey(acc))
}

// MaxNotValidBeforeDelta returns the maximum NotValidBefore delta.
func (n *Notary) MaxNotValidBeforeDelta(d *dao.Simple) uint32 {
	return d.GetROCache(n.md.ID).(*NotaryCache).maxNVBDelta
}

// onPayment records a GAS transfer as a deposit of data[0] (or the sender)
// locked till data[1] (neo-go Notary.onPayment).
func (n *Notary) onPayment(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if h := ic.CallingScriptHash(); h != nativenames.GasHash {
		return nil, fmt.Errorf("%w, got %s", ErrNotaryOnlyGAS, h.StringLE())
	}
	from, err := ToUint160(args[0])
	if err != nil {
		return nil, err
	}
	to := from
	amount, err := ToBigInt(args[1])
	if err != nil {
		return nil, err
	}
	data, ok := args[2].(*stackitem.Array)
	if !ok || data.IsStruct() || data.Len() != 2 { // neo-go takes an Array, not a Struct
		return nil, ErrNotaryBadData
	}
	params := data.Items()
	if _, isNull := params[0].(stackitem.Null); !isNull {
		if to, err = ToUint160(params[0]); err != nil {
			return nil, err
		}
	}
	if ic.Tx == nil {
		return nil, ErrNoTransaction
	}
	allowedChangeTill := ic.Tx.Sender() == to
	height := ic.BlockHeight()
	deposit, err := n.GetDepositFor(ic.DAO, to)
	if err != nil {
		return nil, err
	}
	till, err := ToUint32(params[1])
	if err != nil {
		return nil, err
	}
	if uint64(till) < uint64(height)+2 {
		return nil, fmt.Errorf("%w: `till` shouldn't be less than the chain's height + 1 (%d at min)", ErrNotaryTill, uint64(height)+2)
	}
	if deposit != nil && till < deposit.Till {
		return nil, fmt.Errorf("%w: `till` shouldn't be less than the previous value %d", ErrNotaryTill, deposit.Till)
	}
	feePerKey := n.cs.Policy.AttributeFee(ic.DAO, transaction.NotaryAssistedT)
	if deposit == nil {
		if amount.Cmp(big.NewInt(2*feePerKey)) < 0 {
			return nil, fmt.Errorf("%w: can not be less than %d, got %s", ErrNotaryFirstDepo, 2*feePerKey, amount)
		}
		deposit = new(state.Deposit)
		if !allowedChangeTill {
			till = height + DefaultDepositDeltaTill
		}
	} else if !allowedChangeTill { // only the owner may change till
		till = deposit.Till
	}
	deposit.Amount.Add(&deposit.Amount, amount)
	deposit.Till = till
	return nil, n.putDepositFor(ic.DAO, to, deposit)
}

// lockDepositUntil moves the lock of the deposit of a witnessed account
// further (neo-go converts till after the witness check).
func (n *Notary) lockDepositUntil(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	acc, err := ToUint160(args[0])
	if err != nil {
		return nil, err
	}
	ok, err := ic.CheckWitness(acc)
	if err != nil {
		return nil, fmt.Errorf("failed to check witness for %s: %w", acc.StringLE(), err)
	}
	if !ok {
		return stackitem.Bool(false), nil
	}
	till, err := ToUint32(args[1])
	if err != nil {
		return nil, err
	}
	if uint64(till) < uint64(ic.BlockHeight())+2 { // valid at least in the block after the persisting one
		return stackitem.Bool(false), nil
	}
	deposit, err := n.GetDepositFor(ic.DAO, acc)
	if err != nil {
		return nil, err
	}
	if deposit == nil || till < deposit.Till {
		return stackitem.Bool(false), nil
	}
	deposit.Till = till
	if err := n.putDepositFor(ic.DAO, acc, deposit); err != nil {
		return nil, err
	}
	return stackitem.Bool(true), nil
}

// withdraw sends the whole unlocked deposit of a witnessed account to to
// (or back to it) with GAS.transfer.
func (n *Notary) withdraw(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error {
	from, err := ToUint160(args[0])
	if err != nil {
		return err
	}
	ok, err := ic.CheckWitness(from)
	if err != nil {
		return fmt.Errorf("failed to check witness for %s: %w", from.StringLE(), err)
	}
	if !ok {
		return done(stackitem.Bool(false))
	}
	to := from
	if _, isNull := args[1].(stackitem.Null); !isNull {
		if to, err = ToUint160(args[1]); err != nil {
			return err
		}
	}
	deposit, err := n.GetDepositFor(ic.DAO, from)
	if err != nil {
		return err
	}
	// Withdrawal is allowed once the till block is persisted.
	if deposit == nil || ic.BlockHeight() < deposit.Till {
		return done(stackitem.Bool(false))
	}
	gas, err := ic.GetContract(nativenames.GasHash)
	if err != nil {
		return fmt.Errorf("GAS contract state: %w", err)
	}
	// Removed before the transfer: a failed transfer faults and rolls back.
	n.removeDepositFor(ic.DAO, from)
	transferArgs := []stackitem.Item{HashItem(n.md.Hash), HashItem(to), stackitem.NewBigInteger(new(big.Int).Set(&deposit.Amount)), stackitem.Null{}}
	return ic.CallFromNative(n.md.Hash, gas, "transfer", transferArgs, true, func(_ *interop.Context, res stackitem.Item) error {
		if ok, err := res.TryBool(); err != nil || !ok {
			return fmt.Errorf("%w: `transfer` returned false", ErrNotaryWithdrawal)
		}
		return done(stackitem.Bool(true))
	})
}

func (n *Notary) balanceOf(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return n.depositField(ic, args[0], func(d *state.Deposit) stackitem.Item {
		return stackitem.NewBigInteger(new(big.Int).Set(&d.Amount))
	})
}

func (n *Notary) expirationOf(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return n.depositField(ic, args[0], func(d *state.Deposit) stackitem.Item { return stackitem.NewInt(int64(d.Till)) })
}

// depositField returns field of the deposit of the account arg, 0 without
// a deposit (balanceOf, expirationOf).
func (n *Notary) depositField(ic *interop.Context, arg stackitem.Item, field func(*state.Deposit) stackitem.Item) (stackitem.Item, error) {
	acc, err := ToUint160(arg)
	if err != nil {
		return nil, err
	}
	dep, err := n.GetDepositFor(ic.DAO, acc)
	if err != nil {
		return nil, err
	}
	if dep == nil {
		return stackitem.NewInt(0), nil
	}
	return field(dep), nil
}

// verify is the witness of the Notary contract on a notary-assisted
// transaction: a signature of one of the notary nodes over the
// transaction's sign data, with the fees covered by the payer's deposit
// when the Notary contract is the sender.
func (n *Notary) verify(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	sig, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	tx := ic.Tx
	if tx == nil {
		return nil, ErrNoTransaction
	}
	if !tx.HasAttribute(transaction.NotaryAssistedT) {
		return stackitem.Bool(false), nil
	}
	for _, s := range tx.Signers {
		if s.Account == n.md.Hash {
			if s.Scopes != transaction.None {
				return stackitem.Bool(false), nil
			}
			break
		}
	}
	if tx.Sender() == n.md.Hash {
		if len(tx.Signers) != 2 {
			return stackitem.Bool(false), nil
		}
		dep, err := n.GetDepositFor(ic.DAO, tx.Signers[1].Account)
		if err != nil {
			return nil, err
		}
		if dep == nil || dep.Amount.Cmp(big.NewInt(tx.NetworkFee+tx.SystemFee)) < 0 {
			return stackitem.Bool(false), nil
		}
	}
	notaries, err := n.NotaryNodes(ic.DAO)
	if err != nil {
		return nil, err
	}
	data := tx.SignData(ic.Network)
	for _, k := range notaries {
		if k.VerifyMessage(sig, data[:]) {
			return stackitem.Bool(true), nil
		}
	}
	return stackitem.Bool(false), nil
}

func (n *Notary) getMaxNotValidBeforeDelta(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(int64(n.MaxNotValidBeforeDelta(ic.DAO))), nil
}

func (n *Notary) setMaxNotValidBeforeDelta(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	value, err := ToUint32(args[0])
	if err != nil {
		return nil, err
	}
	maxInc := n.cs.Policy.MaxValidUntilBlockIncrement(ic.DAO)
	cns := ic.Config.GetNumOfCNs(ic.BlockHeight())
	if value > maxInc/2 || int64(value) < int64(cns) {
		return nil, fmt.Errorf("%w: cannot be more than %d or less than %d", ErrNotaryNVBDelta, maxInc/2, cns)
	}
	ok, err := CheckCommittee(ic, n.cs.Committee())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrInvalidCommittee
	}
	ic.DAO.PutInt64(n.md.ID, notaryMaxNVBDeltaKey, int64(value))
	ic.DAO.GetRWCache(n.md.ID).(*NotaryCache).maxNVBDelta = value
	return nil, nil
}
