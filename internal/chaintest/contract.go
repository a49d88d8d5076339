package chaintest

import (
	"encoding/json"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ContractBuilder assembles a test contract: methods are appended to one
// script, each starting with INITSLOT for its parameters (when it has any)
// so that LDARG n reads argument n.
type ContractBuilder struct {
	w        *nio.BinWriter
	Manifest *manifest.Manifest
	Tokens   []nef.MethodToken
}

// NewContractBuilder starts a contract with the given name and a wildcard
// permission.
func NewContractBuilder(name string) *ContractBuilder {
	return &ContractBuilder{w: nio.NewBufBinWriter(), Manifest: manifest.DefaultManifest(name)}
}

// Method appends a method; body emits its code (the builder adds RET).
func (b *ContractBuilder) Method(name string, params []manifest.Parameter, ret smartcontract.ParamType, body func(w *nio.BinWriter)) *ContractBuilder {
	if params == nil {
		params = []manifest.Parameter{}
	}
	off := b.w.Len()
	if len(params) > 0 {
		emit.InitSlot(b.w, 0, uint8(len(params)))
	}
	body(b.w)
	emit.Opcodes(b.w, opcode.RET)
	b.Manifest.ABI.Methods = append(b.Manifest.ABI.Methods, manifest.Method{
		Name: name, Offset: off, Parameters: params, ReturnType: ret,
	})
	return b
}

// SafeMethod is Method marked safe in the manifest.
func (b *ContractBuilder) SafeMethod(name string, params []manifest.Parameter, ret smartcontract.ParamType, body func(w *nio.BinWriter)) *ContractBuilder {
	b.Method(name, params, ret, body)
	b.Manifest.ABI.Methods[len(b.Manifest.ABI.Methods)-1].Safe = true
	return b
}

// Event declares an event.
func (b *ContractBuilder) Event(name string, params ...manifest.Parameter) *ContractBuilder {
	if params == nil {
		params = []manifest.Parameter{}
	}
	b.Manifest.ABI.Events = append(b.Manifest.ABI.Events, manifest.Event{Name: name, Parameters: params})
	return b
}

// Build returns the NEF and manifest JSON.
func (b *ContractBuilder) Build() (*nef.File, []byte) {
	if b.w.Err != nil {
		panic(b.w.Err)
	}
	tokens := b.Tokens
	if tokens == nil {
		tokens = []nef.MethodToken{}
	}
	f, err := nef.NewFile("chaintest", "", tokens, append([]byte(nil), b.w.Bytes()...))
	if err != nil {
		panic(err)
	}
	m, err := json.Marshal(b.Manifest)
	if err != nil {
		panic(err)
	}
	return f, m
}

// Param is a shorthand for manifest.NewParameter.
func Param(name string, typ smartcontract.ParamType) manifest.Parameter {
	return manifest.NewParameter(name, typ)
}

// DeployScript returns a script calling ContractManagement.deploy(nef,
// manifest[, data]).
func DeployScript(f *nef.File, manifestJSON []byte, data ...any) []byte {
	raw, err := f.Bytes()
	if err != nil {
		panic(err)
	}
	args := []any{raw, manifestJSON}
	args = append(args, data...)
	s, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.ManagementHash, "deploy", callflag.All, args...)
	})
	if err != nil {
		panic(err)
	}
	return s
}

// Deploy deploys a contract from the committee account and returns its
// state.
func (c *Chain) Deploy(f *nef.File, manifestJSON []byte, data ...any) *state.Contract {
	c.T.Helper()
	aer := c.RunOK(DeployScript(f, manifestJSON, data...))
	var cs state.Contract
	if err := cs.FromStackItem(aer.Stack[0]); err != nil {
		c.T.Fatal(err)
	}
	return &cs
}

// DeployBuilder builds and deploys b.
func (c *Chain) DeployBuilder(b *ContractBuilder) *state.Contract {
	c.T.Helper()
	f, m := b.Build()
	return c.Deploy(f, m)
}

// CallScript returns a script calling method of h with All flags.
func CallScript(h hash.Uint160, method string, args ...any) []byte {
	s, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, h, method, callflag.All, args...)
	})
	if err != nil {
		panic(err)
	}
	return s
}

// Script builds a script with f (panicking on emit errors).
func Script(f func(w *nio.BinWriter)) []byte {
	s, err := emit.Script(f)
	if err != nil {
		panic(err)
	}
	return s
}

// Invoke runs script with the given call flags and GAS limit against the
// current state, in the next block's Application context, with a
// transaction of the given signers as container. Nothing is persisted. It
// returns the context, whose VM and DAO layer tests may inspect.
func (c *Chain) Invoke(script []byte, flags callflag.CallFlag, gas int64, signers ...transaction.Signer) *interop.Context {
	tx := c.NewTx(script, signers...)
	tx.SystemFee = gas
	blk := c.NextBlock(tx)
	ic := c.Natives.NewContext(trigger.Application, c, c.DAO.GetPrivate(), blk, tx)
	ic.SpawnVM()
	ic.VM.SetGasLimit(gas)
	if err := ic.LoadScript(script, flags); err != nil {
		c.T.Fatal(err)
	}
	_ = ic.Run()
	return ic
}

// ResultItems is a convenience for the result items of a finished context.
func ResultItems(ic *interop.Context) []stackitem.Item { return ic.ResultItems() }
