package native

import (
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Treasury is the Treasury native contract (C# Treasury, deployed at
// HF_Faun): an account of the committee. It accepts NEP-17 and NEP-11
// payments (converting their arguments, doing nothing else) and its
// witness is the committee's. It has no storage.
type Treasury struct {
	contractBase
}

func newTreasury(cs *Contracts) Contract {
	t := &Treasury{contractBase: newBase(nativenames.Treasury, config.HFFaun, cs)}
	md := t.md
	md.SetManifestHook(func(m *manifest.Manifest, _ config.Hardfork) {
		m.SupportedStandards = []string{"NEP-26", "NEP-27", "NEP-30"}
	})
	h160, intT, anyT := smartcontract.Hash160Type, smartcontract.IntegerType, smartcontract.AnyType
	md.AddMethod(Method{Name: "verify", ReturnType: smartcontract.BoolType, Func: t.verify, CPUFee: 1 << 5,
		RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "onNEP11Payment", Params: []manifest.Parameter{NewParam("from", h160), NewParam("amount", intT),
		NewParam("tokenId", smartcontract.ByteArrayType), NewParam("data", anyT)}, ReturnType: smartcontract.VoidType,
		Func: t.onNEP11Payment, CPUFee: 1 << 5})
	md.AddMethod(Method{Name: "onNEP17Payment", Params: []manifest.Parameter{NewParam("from", h160), NewParam("amount", intT),
		NewParam("data", anyT)}, ReturnType: smartcontract.VoidType, Func: t.onNEP17Payment, CPUFee: 1 << 5})
	return t
}

func (t *Treasury) verify(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	ok, err := CheckCommittee(ic, t.cs.Committee())
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(ok), nil
}

// onNEP11Payment converts its arguments (from must be a hash, amount an
// integer, tokenId bytes) and accepts the payment.
func (t *Treasury) onNEP11Payment(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if _, err := ToUint160(args[0]); err != nil {
		return nil, err
	}
	if _, err := ToBigInt(args[1]); err != nil {
		return nil, err
	}
	if _, err := ToBytes(args[2]); err != nil {
		return nil, err
	}
	return nil, nil
}

// onNEP17Payment converts its arguments (from must be a hash, amount an
// integer) and accepts the payment.
func (t *Treasury) onNEP17Payment(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if _, err := ToUint160(args[0]); err != nil {
		return nil, err
	}
	if _, err := ToBigInt(args[1]); err != nil {
		return nil, err
	}
	return nil, nil
}
