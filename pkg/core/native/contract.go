package native

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Contract is a native contract.
type Contract interface {
	// Metadata returns the contract's descriptor.
	Metadata() *ContractMD
	// Initialize runs when the contract is deployed (hf is its ActiveIn
	// hardfork, HFDefault for the genesis block) and when a hardfork it
	// registered activates (hf is that hardfork). md is the descriptor of the
	// contract state written in that block.
	Initialize(ic *interop.Context, hf config.Hardfork, md *HFContractMD) error
	// InitializeCache rebuilds the contract's native cache in d from its
	// storage (after a restart), for a chain at the given height.
	InitializeCache(d *dao.Simple, cfg *config.Blockchain, height uint32) error
	// OnPersist and PostPersist run before and after a block's
	// transactions.
	OnPersist(ic *interop.Context) error
	PostPersist(ic *interop.Context) error
}

// contractBase is embedded by every native contract: its descriptor, the
// registry it belongs to (nil for CryptoLib and StdLib, which need no other
// contract), and the Contract hooks as C# NativeContract's virtual methods
// have them, doing nothing. A contract overrides the hooks it needs.
type contractBase struct {
	md *ContractMD
	cs *Contracts
}

func newBase(name string, activeIn config.Hardfork, cs *Contracts) contractBase {
	return contractBase{md: NewContractMD(name, activeIn), cs: cs}
}

// Metadata implements Contract.
func (b *contractBase) Metadata() *ContractMD { return b.md }

// Initialize implements Contract: nothing to store.
func (*contractBase) Initialize(*interop.Context, config.Hardfork, *HFContractMD) error { return nil }

// InitializeCache implements Contract: no cache.
func (*contractBase) InitializeCache(*dao.Simple, *config.Blockchain, uint32) error { return nil }

// OnPersist implements Contract: nothing to do before a block.
func (*contractBase) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract: nothing to do after a block.
func (*contractBase) PostPersist(*interop.Context) error { return nil }

// MethodFunc is a native method: it gets the arguments (converted by the
// method itself) and returns the result (ignored for Void methods). An
// error faults the VM.
type MethodFunc func(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error)

// DeferredFunc is a native method that calls a contract and finishes after
// it returns: it must eventually call done with the result, either at once
// or from the continuation of interop.Context.CallFromNative.
type DeferredFunc func(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error

// Method is a native method descriptor.
type Method struct {
	Name       string
	Params     []manifest.Parameter
	ReturnType smartcontract.ParamType
	// Func or Deferred implements the method.
	Func     MethodFunc
	Deferred DeferredFunc
	// CPUFee is the price in price units (times the exec fee factor) and
	// StorageFee the price in stored bytes (times the storage price).
	CPUFee     int64
	StorageFee int64
	// RequiredFlags are the call flags the caller must grant.
	RequiredFlags callflag.CallFlag
	// ActiveFrom is the hardfork the method appears in (HFDefault: from the
	// contract's deployment); ActiveTill the one it disappears in
	// (HFDefault: never).
	ActiveFrom config.Hardfork
	ActiveTill config.Hardfork
}

// Event is a native event descriptor.
type Event struct {
	Name       string
	Params     []manifest.Parameter
	ActiveFrom config.Hardfork
	ActiveTill config.Hardfork
}

func (m *Method) activeIn(hf config.Hardfork) bool {
	return m.ActiveFrom <= hf && (m.ActiveTill == config.HFDefault || hf < m.ActiveTill)
}

func (e *Event) activeIn(hf config.Hardfork) bool {
	return e.ActiveFrom <= hf && (e.ActiveTill == config.HFDefault || hf < e.ActiveTill)
}

// HFMethod is a method as laid out in the contract script of one hardfork.
type HFMethod struct {
	*Method
	// Offset is the method's offset; the CallNative syscall is at Offset+1.
	Offset int
}

// HFContractMD is the contract state of a native contract for one hardfork
// (script, manifest) and its method table.
type HFContractMD struct {
	state.ContractBase
	Methods []HFMethod
}

// MethodByOffset returns the method whose CallNative syscall is at
// syscallOffset.
func (md *HFContractMD) MethodByOffset(syscallOffset int) (*HFMethod, bool) {
	i := syscallOffset - 1
	if i < 0 || i%methodScriptLen != 0 || i/methodScriptLen >= len(md.Methods) {
		return nil, false
	}
	return &md.Methods[i/methodScriptLen], true
}

// ContractMD describes a native contract for every hardfork.
type ContractMD struct {
	ID   int32
	Name string
	Hash hash.Uint160
	// ActiveIn is the hardfork that deploys the contract (HFDefault:
	// genesis).
	ActiveIn config.Hardfork
	// ActiveHFs are the hardforks at which the contract is updated (its
	// methods' and events' activation hardforks and those registered with
	// RegisterHardfork), ActiveIn excluded.
	ActiveHFs config.HardforkSet

	methods    []Method
	events     []Event
	onManifest func(m *manifest.Manifest, hf config.Hardfork)
	mds        []*HFContractMD // by hardfork; nil before ActiveIn
}

// NewContractMD returns the descriptor of the native contract with the given
// name (id and hash from nativenames), deployed at activeIn.
func NewContractMD(name string, activeIn config.Hardfork) *ContractMD {
	id := nativenames.ID(name)
	if id == 0 {
		panic("unknown native contract " + name)
	}
	return &ContractMD{ID: id, Name: name, Hash: nativenames.Hash(id), ActiveIn: activeIn}
}

// SetManifestHook sets a function that finishes each hardfork's manifest
// (supported standards, for example).
func (c *ContractMD) SetManifestHook(f func(m *manifest.Manifest, hf config.Hardfork)) {
	c.onManifest = f
}

// AddMethod adds a method. Its Safe flag in the manifest is set when it
// requires no flag beyond ReadOnly.
func (c *ContractMD) AddMethod(m Method) {
	if (m.Func == nil) == (m.Deferred == nil) {
		panic("native method " + m.Name + " must have exactly one of Func and Deferred")
	}
	i, _ := slices.BinarySearchFunc(c.methods, m, func(a, b Method) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(len(a.Params), len(b.Params)))
	})
	c.methods = slices.Insert(c.methods, i, m)
	c.registerHF(m.ActiveFrom)
	c.registerHF(m.ActiveTill)
}

// AddEvent adds an event (events keep their order of addition).
func (c *ContractMD) AddEvent(e Event) {
	c.events = append(c.events, e)
	c.registerHF(e.ActiveFrom)
	c.registerHF(e.ActiveTill)
}

// RegisterHardfork makes the contract update (and Initialize) at hf even if
// no method or event changes then.
func (c *ContractMD) RegisterHardfork(hf config.Hardfork) { c.registerHF(hf) }

func (c *ContractMD) registerHF(hf config.Hardfork) {
	if hf != config.HFDefault {
		c.ActiveHFs |= config.HardforkSet(1) << hf
	}
}

// methodScriptLen is the length of one method's native script: PUSH0,
// SYSCALL System.Contract.CallNative, RET.
const methodScriptLen = 1 + 5 + 1

// NEFCompiler is the compiler name of native contract NEFs (C#).
const NEFCompiler = "neo-core-v3.0"

// Build makes the descriptor of every hardfork; call it once all methods
// and events are added.
func (c *ContractMD) Build() {
	hfs := append([]config.Hardfork{config.HFDefault}, config.Hardforks()...)
	c.mds = make([]*HFContractMD, len(hfs))
	for _, hf := range hfs {
		switch {
		case hf < c.ActiveIn:
		case hf == c.ActiveIn || c.ActiveHFs.Has(hf) && hf != config.HFDefault:
			c.mds[hf] = c.build(hf)
		default:
			c.mds[hf] = c.mds[hf-1]
		}
	}
}

var callNativeID = smartcontract.InteropID(interop.SystemContractCallNative)

func (c *ContractMD) build(hf config.Hardfork) *HFContractMD {
	md := &HFContractMD{}
	var script []byte
	abiMethods := make([]manifest.Method, 0, len(c.methods))
	for i := range c.methods {
		m := &c.methods[i]
		if !m.activeIn(hf) {
			continue
		}
		off := len(script)
		script = append(script, byte(opcode.PUSH0), byte(opcode.SYSCALL),
			byte(callNativeID), byte(callNativeID>>8), byte(callNativeID>>16), byte(callNativeID>>24),
			byte(opcode.RET))
		abiMethods = append(abiMethods, manifest.Method{
			Name:       m.Name,
			Offset:     off,
			Parameters: append([]manifest.Parameter{}, m.Params...),
			ReturnType: m.ReturnType,
			Safe:       m.RequiredFlags&(callflag.All^callflag.ReadOnly) == 0,
		})
		md.Methods = append(md.Methods, HFMethod{Method: m, Offset: off})
	}
	abiEvents := make([]manifest.Event, 0, len(c.events))
	for i := range c.events {
		e := &c.events[i]
		if e.activeIn(hf) {
			abiEvents = append(abiEvents, manifest.Event{Name: e.Name, Parameters: append([]manifest.Parameter{}, e.Params...)})
		}
	}
	f, err := nef.NewFile(NEFCompiler, "", []nef.MethodToken{}, script)
	if err != nil {
		panic(fmt.Errorf("native %s script: %w", c.Name, err))
	}
	m := manifest.DefaultManifest(c.Name)
	m.ABI.Methods = abiMethods
	m.ABI.Events = abiEvents
	if c.onManifest != nil {
		c.onManifest(m, hf)
	}
	md.ContractBase = state.ContractBase{ID: c.ID, Hash: c.Hash, NEF: *f, Manifest: *m}
	return md
}

// HFSpecific returns the descriptor for the latest hardfork hf (the
// descriptor of the hardfork the contract was deployed in if hf is older).
func (c *ContractMD) HFSpecific(hf config.Hardfork) *HFContractMD {
	if hf < c.ActiveIn {
		hf = c.ActiveIn
	}
	return c.mds[hf]
}

// Methods returns the contract's methods (all hardforks), sorted by name
// and parameter count.
func (c *ContractMD) Methods() []Method { return c.methods }

// Events returns the contract's events (all hardforks).
func (c *ContractMD) Events() []Event { return c.events }

// NewParam is a shorthand for manifest.NewParameter.
func NewParam(name string, typ smartcontract.ParamType) manifest.Parameter {
	return manifest.NewParameter(name, typ)
}
