package native

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Contracts is the set of native contracts of a chain. It implements
// interop.Natives.
type Contracts struct {
	cfg    *config.Blockchain
	list   []Contract
	byHash map[hash.Uint160]Contract
	byID   map[int32]Contract

	// The natives other natives and the ledger use directly.
	Management *Management
	Ledger     *Ledger
	NEO        *NEO
	GAS        *GAS
	Policy     *Policy

	committee Committee
}

var _ interop.Natives = (*Contracts)(nil)

// NewContracts makes the native contracts for a chain configuration.
func NewContracts(cfg *config.Blockchain) *Contracts {
	cs := &Contracts{cfg: cfg, byHash: make(map[hash.Uint160]Contract), byID: make(map[int32]Contract)}
	for _, newContract := range constructors {
		if newContract == nil {
			continue
		}
		c := newContract(cs)
		md := c.Metadata()
		md.Build()
		cs.list = append(cs.list, c)
		cs.byHash[md.Hash] = c
		cs.byID[md.ID] = c
	}
	cs.committee = cs.NEO
	return cs
}

// Config returns the chain configuration.
func (cs *Contracts) Config() *config.Blockchain { return cs.cfg }

// List returns the native contracts in id order (-1 first).
func (cs *Contracts) List() []Contract { return cs.list }

// ByHash returns the native contract with hash h, or nil.
func (cs *Contracts) ByHash(h hash.Uint160) Contract { return cs.byHash[h] }

// ByID returns the native contract with the given id, or nil.
func (cs *Contracts) ByID(id int32) Contract { return cs.byID[id] }

// shallowCopy is the Copy of a native cache whose fields are values or
// immutable slices.
func shallowCopy[T any](c *T) *T {
	cp := *c
	return &cp
}

// contractByID returns the native with id as its concrete type (nil if it
// is another type or absent).
func contractByID[T Contract](cs *Contracts, id int32) T {
	c, _ := cs.ByID(id).(T)
	return c
}

// Committee returns the committee source: the NEO contract.
func (cs *Contracts) Committee() Committee { return cs.committee }

// IsActive reports whether native c is deployed in the block at height.
func (cs *Contracts) IsActive(c Contract, height uint32) bool {
	return cs.cfg.IsHardforkEnabled(c.Metadata().ActiveIn, height)
}

// GetContract implements interop.Natives: the state of a deployed or native
// contract, from ContractManagement's cache.
func (cs *Contracts) GetContract(d *dao.Simple, h hash.Uint160) (*state.Contract, error) {
	return cs.Management.GetContract(d, h)
}

// IsBlocked implements interop.Natives.
func (cs *Contracts) IsBlocked(d *dao.Simple, h hash.Uint160) bool {
	return cs.Policy.IsBlocked(d, h)
}

// WhitelistedFee implements interop.Natives.
func (cs *Contracts) WhitelistedFee(d *dao.Simple, h hash.Uint160, offset int) (int64, bool) {
	return cs.Policy.WhitelistedFee(d, h, offset)
}

// OnPersist implements interop.Natives: the OnPersist of every active native.
func (cs *Contracts) OnPersist(ic *interop.Context) error {
	for _, c := range cs.list {
		if !ic.IsHardforkEnabled(c.Metadata().ActiveIn) {
			continue
		}
		if err := c.OnPersist(ic); err != nil {
			return err
		}
	}
	return nil
}

// PostPersist implements interop.Natives: the PostPersist of every active
// native.
func (cs *Contracts) PostPersist(ic *interop.Context) error {
	for _, c := range cs.list {
		if !ic.IsHardforkEnabled(c.Metadata().ActiveIn) {
			continue
		}
		if err := c.PostPersist(ic); err != nil {
			return err
		}
	}
	return nil
}

// Errors of native calls.
var (
	ErrNativeNotFound = errors.New("native contract not found")
	ErrNotActive      = errors.New("native contract is not active")
)

// CallNative implements interop.Natives: it dispatches
// System.Contract.CallNative to the method whose syscall is executing, checks
// its call flags, charges its fees, and replaces its arguments on the stack
// with its result.
func (cs *Contracts) CallNative(ic *interop.Context, version byte) error {
	curr := ic.CurrentScriptHash()
	c := cs.byHash[curr]
	if c == nil {
		return interop.Worded(ErrNativeNotFound, fmt.Errorf("native contract %s (version %d) not found", curr.StringLE(), version))
	}
	meta := c.Metadata()
	if meta.ActiveIn != config.HFDefault {
		// Callable only after the block that deploys it.
		height, ok := cs.cfg.Forks.Height(meta.ActiveIn)
		if !ok || ic.BlockHeight() < height {
			return interop.Worded(ErrNotActive, fmt.Errorf("native contract %s is active after hardfork %s", meta.Name, meta.ActiveIn))
		}
	}
	md := meta.HFSpecific(cs.cfg.Forks.Latest(ic.PersistingIndex()))
	ctx := ic.VM.Context()
	m, ok := md.MethodByOffset(ctx.IP())
	if !ok {
		return errors.New("method not found")
	}
	reqFlags := m.RequiredFlags
	if !ic.IsHardforkEnabled(config.HFAspidochelone) && meta.ID == nativenames.ManagementID &&
		(m.Name == "deploy" || m.Name == "update") {
		reqFlags &= callflag.States | callflag.AllowNotify
	}
	if cf := ic.CallFlags(); !cf.Has(reqFlags) {
		return fmt.Errorf("%w for native %d `%s` operation call: %05b vs %05b", interop.ErrMissingFlags, version, m.Name, cf, reqFlags)
	}
	if _, whitelisted := cs.Policy.WhitelistedFee(ic.DAO, curr, m.Offset); !ic.IsHardforkEnabled(config.HFFaun) || !whitelisted {
		fee := uint64(m.CPUFee)*ic.ExecFeeFactor + uint64(m.StorageFee)*uint64(ic.StoragePrice)*vm.FeeFactor
		if err := ic.VM.AddPicoGas(fee); err != nil {
			return fmt.Errorf("%w executing %s/%s/%d", err, curr.StringLE(), m.Name, len(m.Params))
		}
	}
	estack := ctx.Estack()
	args := make([]stackitem.Item, len(m.Params))
	for i := range args {
		it, err := estack.Peek(i)
		if err != nil {
			return err
		}
		args[i] = it
	}
	done := func(res stackitem.Item) error {
		for range m.Params {
			if _, err := estack.Pop(); err != nil {
				return err
			}
		}
		if m.ReturnType != smartcontract.VoidType {
			if res == nil {
				res = stackitem.Null{}
			}
			estack.Push(res)
		}
		return nil
	}
	if m.Deferred != nil {
		if err := m.Deferred(ic, args, done); err != nil {
			return &interop.PanicError{Err: err}
		}
		return nil
	}
	res, err := m.Func(ic, args)
	if err != nil {
		return &interop.PanicError{Err: err}
	}
	return done(res)
}

// ExecFeeFactor returns the exec fee factor (picoGAS per price unit) an
// execution in block blk (nil: the next block) runs with.
func (cs *Contracts) ExecFeeFactor(d *dao.Simple, blk *block.Block) uint64 {
	if blk != nil && blk.Index == 0 {
		return interop.DefaultExecFeeFactor * vm.FeeFactor
	}
	return cs.Policy.ExecFeeFactorPico(d)
}

// StoragePrice returns the storage price (datoshi per byte) an execution in
// block blk (nil: the next block) runs with.
func (cs *Contracts) StoragePrice(d *dao.Simple, blk *block.Block) int64 {
	if blk != nil && blk.Index == 0 {
		return interop.DefaultStoragePrice
	}
	return cs.Policy.StoragePrice(d)
}

// NewContext returns an execution context with the Policy prices for block
// blk (nil for a verification or test run against the next block).
func (cs *Contracts) NewContext(trig trigger.Type, chain interop.Ledger, d *dao.Simple, blk *block.Block, container interop.Container) *interop.Context {
	ic := new(interop.Context)
	cs.InitContext(ic, trig, chain, d, blk, container)
	return ic
}

// InitContext makes ic what NewContext returns (for a caller that recycles
// contexts).
func (cs *Contracts) InitContext(ic *interop.Context, trig trigger.Type, chain interop.Ledger, d *dao.Simple, blk *block.Block, container interop.Container) {
	ic.Init(trig, chain, cs, cs.cfg, d, blk, container, cs.ExecFeeFactor(d, blk), cs.StoragePrice(d, blk))
}

// InitializeCache rebuilds every active native's cache in d for a chain at
// height (after a restart).
func (cs *Contracts) InitializeCache(d *dao.Simple, height uint32) error {
	for _, c := range cs.list {
		if !cs.IsActive(c, height) {
			continue
		}
		if err := c.InitializeCache(d, cs.cfg, height); err != nil {
			return fmt.Errorf("native %s cache: %w", c.Metadata().Name, err)
		}
	}
	return nil
}
