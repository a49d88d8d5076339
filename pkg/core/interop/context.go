package interop

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Limits of executions (C# ApplicationEngine constants).
const (
	// DefaultExecFeeFactor is the Policy exec fee factor at genesis in
	// datoshi per price unit (C# PolicyContract.DefaultExecFeeFactor).
	DefaultExecFeeFactor = 30
	// DefaultStoragePrice is the Policy storage price at genesis in datoshi
	// per byte (C# PolicyContract.DefaultStoragePrice).
	DefaultStoragePrice = 100000
	// MaxNotificationCount is the most notifications one Application
	// execution may send from HF_Echidna (C# MaxNotificationCount).
	MaxNotificationCount = 512
	// MaxEventName is the longest event name in bytes (C# MaxEventName).
	MaxEventName = 32
	// MaxNotificationSize is the largest serialized notification state and
	// the longest log message (C# MaxNotificationSize).
	MaxNotificationSize = 1024
	// NonceDataLen is the size of the GetRandom state.
	NonceDataLen = 16
)

// Container is the script container of an execution: a transaction, a
// block or a header being verified. Its hash (with the network magic) is the
// signed message System.Crypto.CheckSig verifies.
type Container interface {
	Hash() hash.Uint256
}

// Ledger is what execution needs from the blockchain. Blocks and
// transactions are read from the DAO; the header hash list and the persisted
// height come from the chain.
type Ledger interface {
	// BlockHeight returns the index of the latest persisted block.
	BlockHeight() uint32
	// GetHeaderHash returns the hash of the header at index, or the zero
	// hash if there is none.
	GetHeaderHash(index uint32) hash.Uint256
}

// Natives is what the interop layer needs from the native contracts; package
// native implements it.
type Natives interface {
	// GetContract returns the state of the contract with hash h (deployed or
	// native) or an error wrapping dao.ErrNotFound.
	GetContract(d *dao.Simple, h hash.Uint160) (*state.Contract, error)
	// CallNative runs System.Contract.CallNative: it invokes the method of
	// the native contract whose script is executing.
	CallNative(ic *Context, version byte) error
	// OnPersist and PostPersist run the native contracts' block hooks
	// (System.Contract.NativeOnPersist/NativePostPersist).
	OnPersist(ic *Context) error
	PostPersist(ic *Context) error
	// IsBlocked reports whether Policy blocks the account.
	IsBlocked(d *dao.Simple, h hash.Uint160) bool
	// WhitelistedFee returns the fixed fee in datoshi of a contract method
	// Policy whitelists (from HF_Faun) and whether there is one.
	WhitelistedFee(d *dao.Simple, h hash.Uint160, offset int) (int64, bool)
}

// Invocation is the interop layer's state of one loaded script (C#
// ExecutionContextState). It is the Data of the VM contexts of the
// invocation.
type Invocation struct {
	// Contract is the executing contract; nil for dynamic scripts (the
	// entry script, System.Runtime.LoadScript, witness scripts).
	Contract *state.Contract
	// Calling is the invocation that called this one (C# CallingContext):
	// nil for the entry script and witness scripts.
	Calling *Invocation

	dynamic    bool
	wrapped    bool
	baseDAO    *dao.Simple
	baseNotify int
	// then continues a native method after a contract it called returns.
	then func(ic *Context, result stackitem.Item) error
	// thenResult tells whether the called method returns a value.
	thenResult bool
}

// Context is the execution environment of one script execution (C#
// ApplicationEngine): trigger, container, persisting block, DAO layer,
// notifications, GAS prices and the VM.
type Context struct {
	Chain   Ledger
	Natives Natives
	Config  *config.Blockchain
	Network uint32
	Trigger trigger.Type
	// Container is the script container (nil for none); Tx is set when it
	// is a transaction.
	Container Container
	Tx        *transaction.Transaction
	// Block is the persisting block (nil for verification).
	Block *block.Block
	// IsBlockPersisted is set by LedgerContract.PostPersist: from then on
	// the persisting block counts as the current block.
	IsBlockPersisted bool
	// DAO is the current storage layer: the execution's own private layer,
	// or a nested one while a call that may be rolled back runs.
	DAO *dao.Simple
	// VM runs the scripts.
	VM *vm.VM
	// Notifications are the notifications sent so far.
	Notifications []state.NotificationEvent
	// Invocations counts contract invocations by hash (CountInvocation
	// adds one).
	Invocations InvocationCounts
	// InvocationCalls are the System.Contract.Call calls made so far,
	// recorded with Config.SaveInvocations (never rolled back).
	InvocationCalls []state.ContractInvocation
	// NonceData is the GetRandom state.
	NonceData [NonceDataLen]byte
	// GetRandomCounter counts GetRandom calls (from HF_Aspidochelone).
	GetRandomCounter uint32
	// ExecFeeFactor is the price of one price unit in picoGAS.
	ExecFeeFactor uint64
	// StoragePrice is the price of one stored byte in datoshi.
	StoragePrice int64
	// Hardforks holds the hardforks active in the persisting block.
	Hardforks config.HardforkSet
	// Log receives System.Runtime.Log messages (may be nil).
	Log func(ic *Context, script hash.Uint160, msg string)

	persistingIndex uint32
	signers         []transaction.Signer
	signersSet      bool
	signDigest      hash.Uint256 // valid if signDigestSet
	signDigestSet   bool
	closers         []func()
}

// Errors the interop layer reports (faulting the VM).
var (
	ErrSyscallNotFound = errors.New("syscall not found")
	ErrMissingFlags    = errors.New("missing call flags")
)

// NewContext returns a context for one execution. d should be a private
// layer the caller persists after a successful (HALT) execution. blk is the
// persisting block (nil for verification); container is the script container
// (a *transaction.Transaction, a block, or nil). execFeeFactor (picoGAS per
// price unit) and storagePrice (datoshi per byte) are the Policy values the
// execution runs with. The hardforks are those active in blk, or in the
// block after the chain's height without one.
func NewContext(trig trigger.Type, chain Ledger, natives Natives, cfg *config.Blockchain, d *dao.Simple,
	blk *block.Block, container Container, execFeeFactor uint64, storagePrice int64) *Context {
	ic := new(Context)
	ic.Init(trig, chain, natives, cfg, d, blk, container, execFeeFactor, storagePrice)
	return ic
}

// Init makes ic what NewContext returns, whatever ic held before (for a
// caller that recycles contexts).
func (ic *Context) Init(trig trigger.Type, chain Ledger, natives Natives, cfg *config.Blockchain, d *dao.Simple,
	blk *block.Block, container Container, execFeeFactor uint64, storagePrice int64) {
	*ic = Context{
		Chain:         chain,
		Natives:       natives,
		Config:        cfg,
		Network:       uint32(cfg.Magic),
		Trigger:       trig,
		Container:     container,
		Block:         blk,
		DAO:           d,
		ExecFeeFactor: execFeeFactor,
		StoragePrice:  storagePrice,
	}
	if tx, ok := container.(*transaction.Transaction); ok {
		ic.Tx = tx
	}
	if blk != nil {
		ic.persistingIndex = blk.Index
	} else if chain != nil {
		ic.persistingIndex = chain.BlockHeight() + 1
	}
	ic.Hardforks = cfg.EnabledHardforks(ic.persistingIndex)
	ic.initNonce()
}

// initNonce is C#: the first 16 bytes of the transaction hash, the first 8
// XORed with the block nonce.
func (ic *Context) initNonce() {
	if ic.Tx != nil {
		h := ic.Tx.Hash()
		copy(ic.NonceData[:], h[:NonceDataLen])
	}
	if ic.Block != nil {
		n := binary.LittleEndian.Uint64(ic.NonceData[:8]) ^ ic.Block.Nonce
		binary.LittleEndian.PutUint64(ic.NonceData[:8], n)
	}
}

// IsHardforkEnabled reports whether hf is active in the persisting block.
func (ic *Context) IsHardforkEnabled(hf config.Hardfork) bool { return ic.Hardforks.Has(hf) }

// IsHardforkActivation reports whether the persisting block activates hf.
func (ic *Context) IsHardforkActivation(hf config.Hardfork) bool {
	return ic.Block != nil && ic.Config.Forks.IsActivation(hf, ic.Block.Index)
}

// PersistingIndex returns the index of the persisting block (the block
// after the chain's height when there is none).
func (ic *Context) PersistingIndex() uint32 { return ic.persistingIndex }

// BlockHeight returns the index of the latest block the execution may see:
// the block before the persisting one until LedgerContract.PostPersist has
// run, the persisting one afterwards.
func (ic *Context) BlockHeight() uint32 {
	// Before PostPersist the last visible block is the one before the
	// persisting block (the chain's height when there is no block).
	var visible uint32
	if ic.Block != nil {
		visible = ic.Block.Index - 1
	} else {
		visible = ic.Chain.BlockHeight()
	}
	if ic.IsBlockPersisted {
		visible++
	}
	return visible
}

// CurrentBlockHash returns the hash of the block at BlockHeight.
func (ic *Context) CurrentBlockHash() hash.Uint256 {
	return ic.Chain.GetHeaderHash(ic.BlockHeight())
}

// GetTime returns the persisting block's timestamp (ms).
func (ic *Context) GetTime() uint64 {
	return ic.Block.Timestamp
}

// GetContract returns the state of the contract with hash h.
func (ic *Context) GetContract(h hash.Uint160) (*state.Contract, error) {
	return ic.Natives.GetContract(ic.DAO, h)
}

// UseSigners overrides the signers CheckWitness uses (nil: back to the
// transaction's); OracleContract.finish uses the original request's.
func (ic *Context) UseSigners(s []transaction.Signer) {
	ic.signers = s
	ic.signersSet = s != nil
}

// Signers returns the signers witnessing the execution.
func (ic *Context) Signers() []transaction.Signer {
	if ic.signersSet {
		return ic.signers
	}
	if ic.Tx != nil {
		return ic.Tx.Signers
	}
	return nil
}

// signedDigest returns SHA-256 of the container's sign data (network magic,
// hash), computed once.
func (ic *Context) signedDigest() (hash.Uint256, error) {
	if ic.signDigestSet {
		return ic.signDigest, nil
	}
	if ic.Container == nil {
		return hash.Uint256{}, errors.New("no script container")
	}
	var msg [4 + hash.Uint256Size]byte
	binary.LittleEndian.PutUint32(msg[:], ic.Network)
	h := ic.Container.Hash()
	copy(msg[4:], h[:])
	ic.signDigest, ic.signDigestSet = hash.Sha256(msg[:]), true
	return ic.signDigest, nil
}

// CountInvocation adds one to the invocation count of contract h.
func (ic *Context) CountInvocation(h hash.Uint160) { ic.Invocations.add(h) }

// InvocationCounts counts invocations by contract. A transaction calls a
// few contracts, so the first few counts are a short list searched in
// order (one small allocation) and only more go to a map.
type InvocationCounts struct {
	list []invocationCount // at most maxListedInvocations
	more map[hash.Uint160]int
}

const maxListedInvocations = 8

type invocationCount struct {
	h hash.Uint160
	n int
}

// Get returns the count of contract h and whether it was counted at all.
func (c *InvocationCounts) Get(h hash.Uint160) (int, bool) {
	for i := range c.list {
		if c.list[i].h == h {
			return c.list[i].n, true
		}
	}
	n, ok := c.more[h]
	return n, ok
}

func (c *InvocationCounts) add(h hash.Uint160) {
	for i := range c.list {
		if c.list[i].h == h {
			c.list[i].n++
			return
		}
	}
	if len(c.list) < maxListedInvocations {
		if c.list == nil {
			c.list = make([]invocationCount, 0, 4)
		}
		c.list = append(c.list, invocationCount{h: h, n: 1})
		return
	}
	if c.more == nil {
		c.more = make(map[hash.Uint160]int)
	}
	c.more[h]++
}

// RegisterCloser adds a function to run when the execution finishes (see
// Finalize); storage iterators use it.
func (ic *Context) RegisterCloser(f func()) { ic.closers = append(ic.closers, f) }

// Finalize releases what the execution holds (open storage iterators). It
// must be called once the VM has stopped.
func (ic *Context) Finalize() {
	for _, f := range ic.closers {
		f()
	}
	ic.closers = nil
}

// AddNotification records a notification (C# SendNotification). From
// HF_Echidna an Application execution may send at most
// MaxNotificationCount.
func (ic *Context) AddNotification(h hash.Uint160, name string, item *stackitem.Array) error {
	if ic.IsHardforkEnabled(config.HFEchidna) && ic.Trigger == trigger.Application &&
		len(ic.Notifications) >= MaxNotificationCount {
		return fmt.Errorf("notification count shouldn't exceed %d", MaxNotificationCount)
	}
	ic.Notifications = append(ic.Notifications, state.NotificationEvent{ScriptHash: h, Name: name, Item: item})
	return nil
}

// CurrentInvocation returns the interop state of the executing script (nil
// if it has none).
func (ic *Context) CurrentInvocation() *Invocation {
	c := ic.VM.Context()
	if c == nil {
		return nil
	}
	inv, _ := c.Data().(*Invocation)
	return inv
}

// CurrentScriptHash returns the executing script's hash.
func (ic *Context) CurrentScriptHash() hash.Uint160 {
	c := ic.VM.Context()
	if c == nil {
		return hash.Uint160{}
	}
	return c.ScriptHash()
}

// CallingScriptHash returns the calling script hash of the executing script
// (zero for the entry script, as in neo-go).
func (ic *Context) CallingScriptHash() hash.Uint160 {
	c := ic.VM.Context()
	if c == nil {
		return hash.Uint160{}
	}
	return c.CallingScriptHash()
}

// CallFlags returns the executing script's call flags.
func (ic *Context) CallFlags() callflag.CallFlag {
	c := ic.VM.Context()
	if c == nil {
		return callflag.None
	}
	return callflag.CallFlag(c.CallFlags())
}

// IsCalledByEntry reports whether the executing script is the entry script
// or was called by it (C# CalledByEntry condition).
func (ic *Context) IsCalledByEntry() bool {
	inv := ic.CurrentInvocation()
	return inv == nil || inv.Calling == nil || inv.Calling.Calling == nil
}

// Rules returns the VM opcode rules of the persisting block's hardforks.
func (ic *Context) Rules() vm.Rules {
	return vm.Rules{Echidna: ic.IsHardforkEnabled(config.HFEchidna), Gorgon: ic.IsHardforkEnabled(config.HFGorgon)}
}

// SpawnVM makes a new VM for the context (see InitVM).
func (ic *Context) SpawnVM() *vm.VM {
	v := vm.New()
	ic.InitVM(v)
	return v
}

// InitVM resets v and prepares it for this context: hooks, hardfork rules,
// exec fee factor and no GAS limit (callers set one).
func (ic *Context) InitVM(v *vm.VM) {
	v.Reset()
	v.SetHooks(vm.Hooks{Syscall: ic.syscall, CallT: ic.callT, Unloaded: ic.unloaded})
	v.SetRules(ic.Rules())
	v.SetExecFeeFactor(ic.ExecFeeFactor)
	v.SetGasLimit(-1)
	ic.VM = v
}

// AddPriceUnits charges units times the exec fee factor.
func (ic *Context) AddPriceUnits(units int64) error { return ic.VM.AddPriceUnits(units) }

// unloaded is the VM's Unloaded hook (C# ContextUnloaded). Its own
// errors read as neo-go's VM reports its unload callback's (see
// unloadFailed); the errors of a native's continuation (then) are the
// continuation's.
func (ic *Context) unloaded(v *vm.VM, ctx *vm.Context, normal bool) error {
	inv, _ := ctx.Data().(*Invocation)
	if inv == nil {
		return nil
	}
	if inv.wrapped {
		if normal {
			if _, err := ic.DAO.Persist(); err != nil {
				return unloadFailed(v, fmt.Errorf("failed to persist changes %w", err))
			}
		} else {
			ic.Notifications = ic.Notifications[:inv.baseNotify]
		}
		ic.DAO = inv.baseDAO
	}
	if inv.then != nil {
		if !normal {
			return unloadFailed(v, errors.New("unhandled exception"))
		}
		var res stackitem.Item
		if inv.thenResult {
			var err error
			if res, err = v.Pop(); err != nil {
				return err
			}
		}
		return inv.then(ic, res)
	}
	if inv.dynamic && normal {
		switch n := ctx.Estack().Len(); {
		case n == 0:
			if v.Context() != nil {
				v.Push(stackitem.Null{})
			}
		case n > 1:
			return unloadFailed(v, errors.New("multiple return values in a cross-contract call"))
		}
	}
	return nil
}

// unloadFailed words an error of the unload hook as neo-go's VM does
// ("context unload callback failed: ...", naming the type of an uncaught
// exception).
func unloadFailed(v *vm.VM, err error) error {
	if exc := v.UncaughtException(); exc != nil {
		return fmt.Errorf("context unload callback failed: %w, uncaught exception: %s", err, NeoGoItemName(exc))
	}
	return fmt.Errorf("context unload callback failed: %w", err)
}
