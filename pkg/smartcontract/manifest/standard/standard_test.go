package standard

import (
	"testing"

	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
)

func method(name string, ret smartcontract.ParamType, safe bool, params ...smartcontract.ParamType) manifest.Method {
	m := manifest.Method{Name: name, ReturnType: ret, Safe: safe, Parameters: []manifest.Parameter{}}
	for _, p := range params {
		m.Parameters = append(m.Parameters, manifest.Parameter{Name: "p", Type: p})
	}
	return m
}

func TestCompliesAndDrop(t *testing.T) {
	m := manifest.DefaultManifest("token")
	m.ABI.Methods = []manifest.Method{
		method("decimals", smartcontract.IntegerType, true),
		method("symbol", smartcontract.StringType, true),
		method("totalSupply", smartcontract.IntegerType, true),
		method("balanceOf", smartcontract.IntegerType, true, smartcontract.Hash160Type),
		method("transfer", smartcontract.BoolType, false, smartcontract.Hash160Type, smartcontract.Hash160Type, smartcontract.IntegerType, smartcontract.AnyType),
		method("transfer", smartcontract.BoolType, false, smartcontract.Hash160Type),
		method("verify", smartcontract.BoolType, true, smartcontract.Hash160Type),
		method("mint", smartcontract.VoidType, false),
	}
	m.ABI.Events = []manifest.Event{{Name: "Transfer", Parameters: []manifest.Parameter{
		{Name: "from", Type: smartcontract.Hash160Type}, {Name: "to", Type: smartcontract.Hash160Type}, {Name: "amount", Type: smartcontract.IntegerType}}}}
	if !Complies(m, manifest.NEP17StandardName) || Complies(m, "NEP-11/divisible") || Complies(m, "nosuch") {
		t.Fatal("compliance")
	}
	if !Complies(m, manifest.NEP30StandardName) {
		t.Fatal("NEP-30")
	}
	ms, es := Drop(m.ABI.Methods, m.ABI.Events, manifest.NEP17StandardName)
	ms, _ = Drop(ms, nil, manifest.NEP30StandardName)
	if len(es) != 0 || len(ms) != 2 || ms[0].Name != "transfer" || ms[1].Name != "mint" {
		t.Fatalf("left %v %v", ms, es)
	}
}
