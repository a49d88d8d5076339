package native

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Policy values and limits (C# PolicyContract).
const (
	DefaultFeePerByte         = 1000
	defaultAttributeFee       = 0
	defaultNotaryAssistedFee  = 1000_0000
	maxExecFeeFactor          = 100
	maxFeePerByte             = 100_000_000
	maxStoragePrice           = 10000000
	maxAttributeFee           = 10_00000000
	maxMillisecondsPerBlock   = 30_000
	maxMaxVUBIncrement        = 86400
	maxMaxTraceableBlocks     = 2102400
	recoverFundsLockPeriodMs  = 365 * 24 * 60 * 60 * 1000
	blockedAccountPrefix      = 15
	whitelistedFeeContractPfx = 16
	attributeFeePrefix        = 20
)

var (
	feePerByteKey         = []byte{10}
	execFeeFactorKey      = []byte{18}
	storagePriceKey       = []byte{19}
	msPerBlockKey         = []byte{21}
	maxVUBIncrementKey    = []byte{22}
	maxTraceableBlocksKey = []byte{23}
)

// Policy is the PolicyContract native contract.
type Policy struct {
	contractBase
}

type whitelisted struct {
	state.WhitelistFeeContract
	offset uint32
}

func (c whitelisted) compare(o whitelisted) int {
	return cmp.Or(c.Hash.Compare(o.Hash), cmp.Compare(c.offset, o.offset))
}

// PolicyCache holds the decoded Policy state per DAO layer.
type PolicyCache struct {
	execFeeFactor      uint32
	faunInitialized    bool
	feePerByte         int64
	storagePrice       uint32
	msPerBlock         uint32
	maxVUBIncrement    uint32
	maxTraceableBlocks uint32
	attributeFee       map[transaction.AttrType]uint32
	blockedAccounts    []hash.Uint160
	whitelist          []whitelisted
}

// Copy implements dao.NativeContractCache.
func (c *PolicyCache) Copy() dao.NativeContractCache {
	cp := *c
	cp.attributeFee = maps.Clone(c.attributeFee)
	cp.blockedAccounts = slices.Clone(c.blockedAccounts)
	cp.whitelist = slices.Clone(c.whitelist)
	return &cp
}

func newPolicy(cs *Contracts) Contract {
	p := &Policy{contractBase: newBase(nativenames.Policy, config.HFDefault, cs)}
	cs.Policy = p
	md := p.md
	intParam := func(name string) manifest.Parameter { return NewParam(name, smartcontract.IntegerType) }
	value := []manifest.Parameter{intParam("value")}
	account := []manifest.Parameter{NewParam("account", smartcontract.Hash160Type)}
	get := func(name string, f MethodFunc, from config.Hardfork) {
		md.AddMethod(Method{Name: name, ReturnType: smartcontract.IntegerType, Func: f, CPUFee: 1 << 15,
			RequiredFlags: callflag.ReadStates, ActiveFrom: from})
	}
	set := func(name string, f MethodFunc, flags callflag.CallFlag, from config.Hardfork) {
		md.AddMethod(Method{Name: name, Params: value, ReturnType: smartcontract.VoidType, Func: f, CPUFee: 1 << 15,
			RequiredFlags: flags, ActiveFrom: from})
	}
	get("getFeePerByte", p.getFeePerByte, config.HFDefault)
	md.AddMethod(Method{Name: "isBlocked", Params: account, ReturnType: smartcontract.BoolType, Func: p.isBlocked,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	get("getExecFeeFactor", p.getExecFeeFactor, config.HFDefault)
	set("setExecFeeFactor", p.setExecFeeFactor, callflag.States, config.HFDefault)
	get("getStoragePrice", p.getStoragePrice, config.HFDefault)
	set("setStoragePrice", p.setStoragePrice, callflag.States, config.HFDefault)
	attrType := []manifest.Parameter{intParam("attributeType")}
	md.AddMethod(Method{Name: "getAttributeFee", Params: attrType, ReturnType: smartcontract.IntegerType,
		Func: p.getAttributeFeeV0, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates, ActiveTill: config.HFEchidna})
	md.AddMethod(Method{Name: "getAttributeFee", Params: attrType, ReturnType: smartcontract.IntegerType,
		Func: p.getAttributeFeeV1, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates, ActiveFrom: config.HFEchidna})
	attrTypeValue := []manifest.Parameter{intParam("attributeType"), intParam("value")}
	md.AddMethod(Method{Name: "setAttributeFee", Params: attrTypeValue, ReturnType: smartcontract.VoidType,
		Func: p.setAttributeFeeV0, CPUFee: 1 << 15, RequiredFlags: callflag.States, ActiveTill: config.HFEchidna})
	md.AddMethod(Method{Name: "setAttributeFee", Params: attrTypeValue, ReturnType: smartcontract.VoidType,
		Func: p.setAttributeFeeV1, CPUFee: 1 << 15, RequiredFlags: callflag.States, ActiveFrom: config.HFEchidna})
	set("setFeePerByte", p.setFeePerByte, callflag.States, config.HFDefault)
	md.AddMethod(Method{Name: "blockAccount", Params: account, ReturnType: smartcontract.BoolType, Deferred: p.blockAccount,
		CPUFee: 1 << 15, RequiredFlags: callflag.States, ActiveTill: config.HFFaun})
	md.AddMethod(Method{Name: "blockAccount", Params: account, ReturnType: smartcontract.BoolType, Deferred: p.blockAccount,
		CPUFee: 1 << 15, RequiredFlags: callflag.States | callflag.AllowNotify, ActiveFrom: config.HFFaun})
	md.AddMethod(Method{Name: "unblockAccount", Params: account, ReturnType: smartcontract.BoolType, Func: p.unblockAccount,
		CPUFee: 1 << 15, RequiredFlags: callflag.States})
	get("getMaxValidUntilBlockIncrement", p.getMaxValidUntilBlockIncrement, config.HFEchidna)
	set("setMaxValidUntilBlockIncrement", p.setMaxValidUntilBlockIncrement, callflag.States, config.HFEchidna)
	get("getMillisecondsPerBlock", p.getMillisecondsPerBlock, config.HFEchidna)
	set("setMillisecondsPerBlock", p.setMillisecondsPerBlock, callflag.States|callflag.AllowNotify, config.HFEchidna)
	md.AddEvent(Event{Name: "MillisecondsPerBlockChanged", Params: []manifest.Parameter{intParam("old"), intParam("new")},
		ActiveFrom: config.HFEchidna})
	get("getMaxTraceableBlocks", p.getMaxTraceableBlocks, config.HFEchidna)
	set("setMaxTraceableBlocks", p.setMaxTraceableBlocks, callflag.States, config.HFEchidna)
	md.AddMethod(Method{Name: "getBlockedAccounts", ReturnType: smartcontract.InteropInterfaceType, Func: p.getBlockedAccounts,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates, ActiveFrom: config.HFFaun})
	get("getExecPicoFeeFactor", p.getExecPicoFeeFactor, config.HFFaun)
	wlParams := []manifest.Parameter{NewParam("contractHash", smartcontract.Hash160Type),
		NewParam("method", smartcontract.StringType), intParam("argCount")}
	md.AddMethod(Method{Name: "setWhitelistFeeContract", Params: append(slices.Clone(wlParams), intParam("fixedFee")),
		ReturnType: smartcontract.VoidType, Func: p.setWhitelistFeeContract, CPUFee: 1 << 15,
		RequiredFlags: callflag.States | callflag.AllowNotify, ActiveFrom: config.HFFaun})
	md.AddMethod(Method{Name: "removeWhitelistFeeContract", Params: wlParams, ReturnType: smartcontract.VoidType,
		Func: p.removeWhitelistFeeContract, CPUFee: 1 << 15, RequiredFlags: callflag.States | callflag.AllowNotify,
		ActiveFrom: config.HFFaun})
	md.AddMethod(Method{Name: "getWhitelistFeeContracts", ReturnType: smartcontract.InteropInterfaceType,
		Func: p.getWhitelistFeeContracts, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates, ActiveFrom: config.HFFaun})
	md.AddMethod(Method{Name: "recoverFund", Params: append(slices.Clone(account), NewParam("token", smartcontract.Hash160Type)),
		ReturnType: smartcontract.BoolType, Deferred: p.recoverFund, CPUFee: 1 << 15, RequiredFlags: callflag.All,
		ActiveFrom: config.HFFaun})
	md.AddEvent(Event{Name: "WhitelistFeeChanged", Params: []manifest.Parameter{NewParam("contract", smartcontract.Hash160Type),
		NewParam("method", smartcontract.StringType), intParam("argCount"), NewParam("fee", smartcontract.AnyType)},
		ActiveFrom: config.HFFaun})
	md.AddEvent(Event{Name: "RecoveredFund", Params: account, ActiveFrom: config.HFFaun})
	return p
}

func (p *Policy) cache(d *dao.Simple) *PolicyCache {
	c, _ := d.GetROCache(p.md.ID).(*PolicyCache)
	return c
}

func (p *Policy) rwCache(d *dao.Simple) *PolicyCache { return d.GetRWCache(p.md.ID).(*PolicyCache) }

// Initialize implements Contract.
func (p *Policy) Initialize(ic *interop.Context, hf config.Hardfork, _ *HFContractMD) error {
	if hf == p.md.ActiveIn {
		ic.DAO.PutInt64(p.md.ID, feePerByteKey, DefaultFeePerByte)
		ic.DAO.PutInt64(p.md.ID, execFeeFactorKey, interop.DefaultExecFeeFactor)
		ic.DAO.PutInt64(p.md.ID, storagePriceKey, interop.DefaultStoragePrice)
		ic.DAO.SetCache(p.md.ID, &PolicyCache{
			execFeeFactor:   interop.DefaultExecFeeFactor,
			feePerByte:      DefaultFeePerByte,
			storagePrice:    interop.DefaultStoragePrice,
			attributeFee:    map[transaction.AttrType]uint32{},
			blockedAccounts: []hash.Uint160{},
			whitelist:       []whitelisted{},
		})
	}
	if hf == config.HFEchidna {
		c := p.rwCache(ic.DAO)
		g := ic.Config.Genesis
		ic.DAO.PutInt64(p.md.ID, maxVUBIncrementKey, int64(g.MaxValidUntilBlockIncrement))
		c.maxVUBIncrement = g.MaxValidUntilBlockIncrement
		ms := g.TimePerBlock.Milliseconds()
		ic.DAO.PutInt64(p.md.ID, msPerBlockKey, ms)
		c.msPerBlock = uint32(ms)
		ic.DAO.PutInt64(p.md.ID, maxTraceableBlocksKey, int64(g.MaxTraceableBlocks))
		c.maxTraceableBlocks = g.MaxTraceableBlocks
		ic.DAO.PutInt64(p.md.ID, []byte{attributeFeePrefix, byte(transaction.NotaryAssistedT)}, defaultNotaryAssistedFee)
		c.attributeFee[transaction.NotaryAssistedT] = defaultNotaryAssistedFee
	}
	if hf == config.HFFaun {
		c := p.rwCache(ic.DAO)
		c.execFeeFactor *= vm.FeeFactor
		c.faunInitialized = true
		ic.DAO.PutInt64(p.md.ID, execFeeFactorKey, int64(c.execFeeFactor))
		now := new(big.Int).SetUint64(ic.GetTime())
		for _, acc := range c.blockedAccounts {
			ic.DAO.PutBigInt(p.md.ID, makeUint160Key(blockedAccountPrefix, acc), now)
		}
	}
	return nil
}

// InitializeCache implements Contract.
func (p *Policy) InitializeCache(d *dao.Simple, cfg *config.Blockchain, height uint32) error {
	c := &PolicyCache{attributeFee: map[transaction.AttrType]uint32{}, blockedAccounts: []hash.Uint160{}, whitelist: []whitelisted{}}
	geti := func(key []byte) (int64, error) {
		v, err := d.GetInt64(p.md.ID, key)
		if err != nil {
			return 0, fmt.Errorf("policy key %x: %w", key, err)
		}
		return v, nil
	}
	v, err := geti(execFeeFactorKey)
	if err != nil {
		return err
	}
	c.execFeeFactor = uint32(v)
	if c.feePerByte, err = geti(feePerByteKey); err != nil {
		return err
	}
	if v, err = geti(storagePriceKey); err != nil {
		return err
	}
	c.storagePrice = uint32(v)
	d.Seek(p.md.ID, storage.SeekRange{Prefix: []byte{blockedAccountPrefix}}, func(k, _ []byte) bool {
		if len(k) == hash.Uint160Size {
			c.blockedAccounts = append(c.blockedAccounts, hash.Uint160(k))
		}
		return true
	})
	d.Seek(p.md.ID, storage.SeekRange{Prefix: []byte{attributeFeePrefix}}, func(k, val []byte) bool {
		if len(k) == 1 {
			c.attributeFee[transaction.AttrType(k[0])] = uint32(bigint.FromBytes(val).Int64())
		}
		return true
	})
	if cfg.IsHardforkEnabled(config.HFEchidna, height) {
		if v, err = geti(maxVUBIncrementKey); err != nil {
			return err
		}
		c.maxVUBIncrement = uint32(v)
		if v, err = geti(msPerBlockKey); err != nil {
			return err
		}
		c.msPerBlock = uint32(v)
		if v, err = geti(maxTraceableBlocksKey); err != nil {
			return err
		}
		c.maxTraceableBlocks = uint32(v)
	}
	if cfg.IsHardforkEnabled(config.HFFaun, height) {
		c.faunInitialized = true
		var ferr error
		d.Seek(p.md.ID, storage.SeekRange{Prefix: []byte{whitelistedFeeContractPfx}}, func(k, val []byte) bool {
			if len(k) != hash.Uint160Size+4 {
				ferr = fmt.Errorf("unexpected whitelisted contract key length %d", len(k))
				return false
			}
			var w whitelisted
			if ferr = stackitem.DeserializeConvertible(val, &w.WhitelistFeeContract); ferr != nil {
				return false
			}
			w.offset = binary.BigEndian.Uint32(k[hash.Uint160Size:])
			c.whitelist = append(c.whitelist, w)
			return true
		})
		if ferr != nil {
			return ferr
		}
	}
	d.SetCache(p.md.ID, c)
	return nil
}

// FeePerByte returns the network fee per transaction byte (datoshi).
func (p *Policy) FeePerByte(d *dao.Simple) int64 { return p.cache(d).feePerByte }

// ExecFeeFactorPico returns the exec fee factor in picoGAS per price unit.
func (p *Policy) ExecFeeFactorPico(d *dao.Simple) uint64 {
	c := p.cache(d)
	if c.faunInitialized {
		return uint64(c.execFeeFactor)
	}
	return uint64(c.execFeeFactor) * vm.FeeFactor
}

// StoragePrice returns the price of a stored byte in datoshi.
func (p *Policy) StoragePrice(d *dao.Simple) int64 { return int64(p.cache(d).storagePrice) }

// MaxVerificationGas returns the GAS limit of one witness verification.
func (p *Policy) MaxVerificationGas(*dao.Simple) int64 { return interop.MaxVerificationGas }

// MillisecondsPerBlock returns the on-chain block time (from HF_Echidna).
func (p *Policy) MillisecondsPerBlock(d *dao.Simple) uint32 { return p.cache(d).msPerBlock }

// MaxValidUntilBlockIncrement returns the on-chain limit (from HF_Echidna).
func (p *Policy) MaxValidUntilBlockIncrement(d *dao.Simple) uint32 { return p.cache(d).maxVUBIncrement }

// MaxTraceableBlocks returns the on-chain limit (from HF_Echidna).
func (p *Policy) MaxTraceableBlocks(d *dao.Simple) uint32 { return p.cache(d).maxTraceableBlocks }

// AttributeFee returns the fee of a transaction attribute type (datoshi).
func (p *Policy) AttributeFee(d *dao.Simple, t transaction.AttrType) int64 {
	v, ok := p.cache(d).attributeFee[t]
	if !ok {
		return defaultAttributeFee
	}
	return int64(v)
}

// IsBlocked reports whether account h is blocked (reading storage when the
// cache is not built yet, as neo-go does).
func (p *Policy) IsBlocked(d *dao.Simple, h hash.Uint160) bool {
	c := p.cache(d)
	if c == nil {
		return d.GetStorageItem(p.md.ID, makeUint160Key(blockedAccountPrefix, h)) != nil
	}
	_, ok := slices.BinarySearchFunc(c.blockedAccounts, h, hash.Uint160.Compare)
	return ok
}

// CheckPolicy checks that no signer of tx is blocked.
func (p *Policy) CheckPolicy(d *dao.Simple, tx *transaction.Transaction) error {
	for _, s := range tx.Signers {
		if p.IsBlocked(d, s.Account) {
			return fmt.Errorf("account %s is blocked", s.Account.StringLE())
		}
	}
	return nil
}

// WhitelistedFee returns the fixed fee (datoshi) of a whitelisted method.
func (p *Policy) WhitelistedFee(d *dao.Simple, h hash.Uint160, offset int) (int64, bool) {
	c := p.cache(d)
	if c == nil {
		return 0, false
	}
	i, ok := slices.BinarySearchFunc(c.whitelist, whitelisted{WhitelistFeeContract: state.WhitelistFeeContract{Hash: h}, offset: uint32(offset)}, whitelisted.compare)
	if !ok {
		return 0, false
	}
	return c.whitelist[i].Fee, true
}

func (p *Policy) checkCommittee(ic *interop.Context) error {
	ok, err := CheckCommittee(ic, p.cs.Committee())
	if err != nil {
		return err
	}
	if !ok {
		return ErrInvalidCommittee
	}
	return nil
}

func (p *Policy) getFeePerByte(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(p.FeePerByte(ic.DAO)), nil
}

func (p *Policy) getExecFeeFactor(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(int64(p.ExecFeeFactorPico(ic.DAO) / vm.FeeFactor)), nil
}

func (p *Policy) getExecPicoFeeFactor(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(int64(p.cache(ic.DAO).execFeeFactor)), nil
}

func (p *Policy) setExecFeeFactor(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	value, err := ToUint32(args[0])
	if err != nil {
		return nil, err
	}
	limit := uint32(maxExecFeeFactor)
	if ic.IsHardforkEnabled(config.HFFaun) {
		limit *= vm.FeeFactor
	}
	if value == 0 || value > limit {
		return nil, fmt.Errorf("ExecFeeFactor must be between 1 and %d", maxExecFeeFactor)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutInt64(p.md.ID, execFeeFactorKey, int64(value))
	p.rwCache(ic.DAO).execFeeFactor = value
	return stackitem.Null{}, nil
}

func (p *Policy) isBlocked(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := ToUint160(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(p.IsBlocked(ic.DAO, h)), nil
}

func (p *Policy) getStoragePrice(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(p.StoragePrice(ic.DAO)), nil
}

func (p *Policy) setStoragePrice(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	value, err := ToUint32(args[0])
	if err != nil {
		return nil, err
	}
	if value == 0 || value > maxStoragePrice {
		return nil, fmt.Errorf("StoragePrice must be between 1 and %d", maxStoragePrice)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutInt64(p.md.ID, storagePriceKey, int64(value))
	p.rwCache(ic.DAO).storagePrice = value
	return stackitem.Null{}, nil
}

// isValidAttrType is neo-go's transaction.IsValidAttrType.
func isValidAttrType(reserved bool, t transaction.AttrType) bool {
	switch t {
	case transaction.HighPriority, transaction.OracleResponseT, transaction.NotValidBeforeT,
		transaction.ConflictsT, transaction.NotaryAssistedT:
		return true
	}
	return reserved && t.IsReserved()
}

func (p *Policy) attrTypeArg(ic *interop.Context, it stackitem.Item, allowNotaryAssisted bool) (transaction.AttrType, error) {
	v, err := ToUint8(it)
	if err != nil {
		return 0, err
	}
	t := transaction.AttrType(v)
	if !isValidAttrType(ic.Config.ReservedAttributes, t) || (!allowNotaryAssisted && t == transaction.NotaryAssistedT) {
		return 0, fmt.Errorf("invalid attribute type: %d", t)
	}
	return t, nil
}

func (p *Policy) getAttributeFeeV0(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return p.getAttributeFee(ic, args, false)
}

func (p *Policy) getAttributeFeeV1(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return p.getAttributeFee(ic, args, true)
}

func (p *Policy) getAttributeFee(ic *interop.Context, args []stackitem.Item, allowNA bool) (stackitem.Item, error) {
	t, err := p.attrTypeArg(ic, args[0], allowNA)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(p.AttributeFee(ic.DAO, t)), nil
}

func (p *Policy) setAttributeFeeV0(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return p.setAttributeFee(ic, args, false)
}

func (p *Policy) setAttributeFeeV1(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return p.setAttributeFee(ic, args, true)
}

func (p *Policy) setAttributeFee(ic *interop.Context, args []stackitem.Item, allowNA bool) (stackitem.Item, error) {
	v, err := ToUint8(args[0])
	if err != nil {
		return nil, err
	}
	value, err := ToUint32(args[1])
	if err != nil {
		return nil, err
	}
	t := transaction.AttrType(v)
	if !isValidAttrType(ic.Config.ReservedAttributes, t) || (!allowNA && t == transaction.NotaryAssistedT) {
		return nil, fmt.Errorf("invalid attribute type: %d", t)
	}
	if value > maxAttributeFee {
		return nil, fmt.Errorf("attribute value is out of range: %d", value)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutInt64(p.md.ID, []byte{attributeFeePrefix, byte(t)}, int64(value))
	p.rwCache(ic.DAO).attributeFee[t] = value
	return stackitem.Null{}, nil
}

func (p *Policy) setFeePerByte(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	n, err := ToBigInt(args[0])
	if err != nil {
		return nil, err
	}
	value := n.Int64()
	if value < 0 || value > maxFeePerByte {
		return nil, fmt.Errorf("FeePerByte shouldn't be negative or greater than %d", maxFeePerByte)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutInt64(p.md.ID, feePerByteKey, value)
	p.rwCache(ic.DAO).feePerByte = value
	return stackitem.Null{}, nil
}

func (p *Policy) blockAccount(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error {
	if err := p.checkCommittee(ic); err != nil {
		return err
	}
	h, err := ToUint160(args[0])
	if err != nil {
		return err
	}
	if nativenames.IsNative(h) {
		return errors.New("cannot block native contract")
	}
	return p.BlockAccountInternal(ic, h, func(res bool) error { return done(stackitem.Bool(res)) })
}

// BlockAccountInternal blocks account h (without a committee check); from
// HF_Faun it records the block time and revokes the account's votes first.
// then gets whether the account was newly blocked.
func (p *Policy) BlockAccountInternal(ic *interop.Context, h hash.Uint160, then func(bool) error) error {
	i, blocked := slices.BinarySearchFunc(p.cache(ic.DAO).blockedAccounts, h, hash.Uint160.Compare)
	if blocked {
		return then(false)
	}
	cont := func() error {
		key := makeUint160Key(blockedAccountPrefix, h)
		if ic.IsHardforkEnabled(config.HFFaun) {
			ic.DAO.PutBigInt(p.md.ID, key, new(big.Int).SetUint64(ic.GetTime()))
		} else {
			ic.DAO.PutStorageItem(p.md.ID, key, []byte{})
		}
		c := p.rwCache(ic.DAO)
		c.blockedAccounts = slices.Insert(c.blockedAccounts, i, h)
		return then(true)
	}
	if ic.IsHardforkEnabled(config.HFFaun) {
		scheduled, err := p.cs.Committee().RevokeVotes(ic, h, cont)
		if scheduled || err != nil && !errors.Is(err, ErrVoteRejected) {
			return err
		}
	}
	return cont()
}

func (p *Policy) unblockAccount(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	h, err := ToUint160(args[0])
	if err != nil {
		return nil, err
	}
	i, blocked := slices.BinarySearchFunc(p.cache(ic.DAO).blockedAccounts, h, hash.Uint160.Compare)
	if !blocked {
		return stackitem.Bool(false), nil
	}
	ic.DAO.DeleteStorageItem(p.md.ID, makeUint160Key(blockedAccountPrefix, h))
	c := p.rwCache(ic.DAO)
	c.blockedAccounts = slices.Delete(c.blockedAccounts, i, i+1)
	return stackitem.Bool(true), nil
}

func (p *Policy) getMaxValidUntilBlockIncrement(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(int64(p.MaxValidUntilBlockIncrement(ic.DAO))), nil
}

func (p *Policy) setMaxValidUntilBlockIncrement(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	value, err := ToUint32(args[0])
	if err != nil {
		return nil, err
	}
	if value == 0 || value > maxMaxVUBIncrement {
		return nil, fmt.Errorf("MaxValidUntilBlockIncrement should be positive and not greater than %d, got %d", maxMaxVUBIncrement, value)
	}
	if mtb := p.MaxTraceableBlocks(ic.DAO); value >= mtb {
		return nil, fmt.Errorf("MaxValidUntilBlockIncrement should be less than MaxTraceableBlocks %d, got %d", mtb, value)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutInt64(p.md.ID, maxVUBIncrementKey, int64(value))
	p.rwCache(ic.DAO).maxVUBIncrement = value
	return stackitem.Null{}, nil
}

func (p *Policy) getMillisecondsPerBlock(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(int64(p.MillisecondsPerBlock(ic.DAO))), nil
}

func (p *Policy) setMillisecondsPerBlock(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	value, err := ToUint32(args[0])
	if err != nil {
		return nil, err
	}
	if value == 0 || value > maxMillisecondsPerBlock {
		return nil, fmt.Errorf("MillisecondsPerBlock should be positive and not greater than %d, got %d", maxMillisecondsPerBlock, value)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutInt64(p.md.ID, msPerBlockKey, int64(value))
	c := p.rwCache(ic.DAO)
	old := c.msPerBlock
	c.msPerBlock = value
	if err := ic.AddNotification(p.md.Hash, "MillisecondsPerBlockChanged", stackitem.NewArray([]stackitem.Item{
		stackitem.NewInt(int64(old)), stackitem.NewInt(int64(value)),
	})); err != nil {
		return nil, err
	}
	return stackitem.Null{}, nil
}

func (p *Policy) getMaxTraceableBlocks(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(int64(p.MaxTraceableBlocks(ic.DAO))), nil
}

func (p *Policy) setMaxTraceableBlocks(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	value, err := ToUint32(args[0])
	if err != nil {
		return nil, err
	}
	if value == 0 || value > maxMaxTraceableBlocks {
		return nil, fmt.Errorf("MaxTraceableBlocks should be positive and not greater than %d, got %d", maxMaxTraceableBlocks, value)
	}
	if old := p.MaxTraceableBlocks(ic.DAO); value > old {
		return nil, fmt.Errorf("MaxTraceableBlocks should not be greater than previous value %d, got %d", old, value)
	}
	if vub := p.MaxValidUntilBlockIncrement(ic.DAO); value <= vub {
		return nil, fmt.Errorf("MaxTraceableBlocks should be larger than MaxValidUntilBlockIncrement %d, got %d", vub, value)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutInt64(p.md.ID, maxTraceableBlocksKey, int64(value))
	p.rwCache(ic.DAO).maxTraceableBlocks = value
	return stackitem.Null{}, nil
}

func (p *Policy) getBlockedAccounts(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	accs := p.cache(ic.DAO).blockedAccounts
	items := make([]stackitem.Item, len(accs))
	for i, a := range accs {
		items[i] = HashItem(a)
	}
	return stackitem.NewInterop(interop.NewSliceIterator(items)), nil
}

func makeWhitelistedKey(h hash.Uint160, offset uint32) []byte {
	k := make([]byte, 1+hash.Uint160Size+4)
	k[0] = whitelistedFeeContractPfx
	copy(k[1:], h[:])
	binary.BigEndian.PutUint32(k[1+hash.Uint160Size:], offset)
	return k
}

func (p *Policy) notifyWhitelist(ic *interop.Context, h hash.Uint160, method string, argCnt int, fee stackitem.Item) error {
	return ic.AddNotification(p.md.Hash, "WhitelistFeeChanged", stackitem.NewArray([]stackitem.Item{
		HashItem(h), stackitem.NewByteString([]byte(method)), stackitem.NewInt(int64(argCnt)), fee,
	}))
}

// CleanWhitelist removes every whitelisted method of contract h (on update
// and destroy), sending a WhitelistFeeChanged notification for each.
func (p *Policy) CleanWhitelist(ic *interop.Context, h hash.Uint160) error {
	c := p.cache(ic.DAO)
	if c == nil || !slices.ContainsFunc(c.whitelist, func(w whitelisted) bool { return w.Hash == h }) {
		return nil
	}
	rw := p.rwCache(ic.DAO)
	var err error
	rw.whitelist = slices.DeleteFunc(rw.whitelist, func(w whitelisted) bool {
		if err != nil || w.Hash != h {
			return false
		}
		ic.DAO.DeleteStorageItem(p.md.ID, makeWhitelistedKey(w.Hash, w.offset))
		err = p.notifyWhitelist(ic, w.Hash, w.Method, w.ArgCnt, stackitem.Null{})
		return err == nil
	})
	return err
}

func (p *Policy) whitelistArgs(ic *interop.Context, args []stackitem.Item) (hash.Uint160, string, int, error) {
	h, err := ToUint160(args[0])
	if err != nil {
		return h, "", 0, err
	}
	method, err := ToString(args[1])
	if err != nil {
		return h, "", 0, err
	}
	n, err := ToInt64(args[2])
	return h, method, int(n), err
}

func (p *Policy) setWhitelistFeeContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, method, argCnt, err := p.whitelistArgs(ic, args)
	if err != nil {
		return nil, err
	}
	fee, err := ToInt64(args[3])
	if err != nil {
		return nil, err
	}
	if fee < 0 {
		return nil, fmt.Errorf("fee should be positive, got %d", fee)
	}
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	cs, err := ic.GetContract(h)
	if err != nil {
		return nil, fmt.Errorf("contract %s not found: %w", h.StringLE(), err)
	}
	md := cs.Manifest.ABI.GetMethod(method, argCnt)
	if md == nil {
		return nil, fmt.Errorf("contract %s: method not found: %s/%d", h.StringLE(), method, argCnt)
	}
	r := state.WhitelistFeeContract{Hash: h, Method: method, ArgCnt: argCnt, Fee: fee}
	if err := ic.DAO.PutStorageConvertible(p.md.ID, makeWhitelistedKey(h, uint32(md.Offset)), &r); err != nil {
		return nil, err
	}
	c := p.rwCache(ic.DAO)
	w := whitelisted{WhitelistFeeContract: r, offset: uint32(md.Offset)}
	if i, ok := slices.BinarySearchFunc(c.whitelist, w, whitelisted.compare); !ok {
		c.whitelist = slices.Insert(c.whitelist, i, w)
	}
	if err := p.notifyWhitelist(ic, h, method, argCnt, stackitem.NewInt(fee)); err != nil {
		return nil, err
	}
	return stackitem.Null{}, nil
}

func (p *Policy) removeWhitelistFeeContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if err := p.checkCommittee(ic); err != nil {
		return nil, err
	}
	h, method, argCnt, err := p.whitelistArgs(ic, args)
	if err != nil {
		return nil, err
	}
	cs, err := ic.GetContract(h)
	if err != nil {
		return nil, fmt.Errorf("failed to get contract %s: %w", h.StringLE(), err)
	}
	md := cs.Manifest.ABI.GetMethod(method, argCnt)
	if md == nil {
		return nil, fmt.Errorf("method not found: %s/%d", method, argCnt)
	}
	c := p.rwCache(ic.DAO)
	w := whitelisted{WhitelistFeeContract: state.WhitelistFeeContract{Hash: h}, offset: uint32(md.Offset)}
	i, ok := slices.BinarySearchFunc(c.whitelist, w, whitelisted.compare)
	if !ok {
		return nil, fmt.Errorf("whitelist for %s/%d not found", h.StringLE(), md.Offset)
	}
	ic.DAO.DeleteStorageItem(p.md.ID, makeWhitelistedKey(h, uint32(md.Offset)))
	c.whitelist = slices.Delete(c.whitelist, i, i+1)
	if err := p.notifyWhitelist(ic, h, method, argCnt, stackitem.Null{}); err != nil {
		return nil, err
	}
	return stackitem.Null{}, nil
}

func (p *Policy) getWhitelistFeeContracts(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	wl := p.cache(ic.DAO).whitelist
	items := make([]stackitem.Item, len(wl))
	for i := range wl {
		items[i], _ = wl[i].WhitelistFeeContract.ToStackItem()
	}
	return stackitem.NewInterop(interop.NewSliceIterator(items)), nil
}

// recoverFund moves the NEP-17 balance of an account blocked for a year to
// the Treasury (HF_Faun), with the witness of most of the committee.
func (p *Policy) recoverFund(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error {
	acc, err := ToUint160(args[0])
	if err != nil {
		return err
	}
	token, err := ToUint160(args[1])
	if err != nil {
		return err
	}
	ok, err := CheckAlmostFullCommittee(ic, p.cs.Committee())
	if err != nil {
		return err
	}
	if !ok {
		return ErrInvalidCommittee
	}
	start, err := ic.DAO.GetInt64(p.md.ID, makeUint160Key(blockedAccountPrefix, acc))
	if err != nil {
		return fmt.Errorf("account is not blocked: %w", err)
	}
	elapsed := ic.GetTime() - uint64(start)
	if elapsed < recoverFundsLockPeriodMs {
		return fmt.Errorf("funds recovery request must be signed at least 1 year ago; remaining time is %s",
			time.Duration(recoverFundsLockPeriodMs-elapsed)*time.Millisecond)
	}
	cs, err := ic.GetContract(token)
	if err != nil {
		return fmt.Errorf("failed to get contract %s: %w", token.StringLE(), err)
	}
	if !cs.Manifest.IsStandardSupported(manifest.NEP17StandardName) {
		return fmt.Errorf("contract %s does not support NEP-17", token.StringLE())
	}
	return ic.CallFromNative(acc, cs, "balanceOf", []stackitem.Item{HashItem(acc)}, true,
		func(ic *interop.Context, res stackitem.Item) error {
			balance, err := ToBigInt(res)
			if err != nil {
				return err
			}
			if balance.Sign() <= 0 {
				return done(stackitem.Bool(false))
			}
			return ic.CallFromNative(acc, cs, "transfer", []stackitem.Item{
				HashItem(acc), HashItem(nativenames.TreasuryHash), stackitem.NewBigInteger(balance), stackitem.Null{},
			}, true, func(ic *interop.Context, res stackitem.Item) error {
				ok, err := res.TryBool()
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("transfer/%s from %s to %s failed", token.StringLE(), acc.StringLE(), nativenames.TreasuryHash.StringLE())
				}
				if err := ic.AddNotification(p.md.Hash, "RecoveredFund", stackitem.NewArray([]stackitem.Item{HashItem(acc)})); err != nil {
					return err
				}
				return done(stackitem.Bool(true))
			})
		})
}
