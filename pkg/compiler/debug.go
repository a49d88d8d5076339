package compiler

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	bind "github.com/n3node/n3node/pkg/smartcontract/binding"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// DebugInfo is the NeoDebugger debug information of a compiled contract
// (the JSON neo-go writes with -d).
type DebugInfo struct {
	// MainPkg is the contract package's name; manifest methods come from it.
	MainPkg string `json:"-"`
	// Hash is the script hash of the contract's script.
	Hash hash.Uint160 `json:"hash"`
	// Documents lists source files; sequence points index into it.
	Documents []string `json:"documents"`
	// Methods lists _initialize, _deploy and every compiled function.
	Methods []MethodDebugInfo `json:"methods"`
	// Events are the configured events.
	Events []EventDebugInfo `json:"events"`
	// StaticVariables lists the named globals as "name,Type".
	StaticVariables []string `json:"static-variables"`
	// NamedTypes are the structures of the compiled functions' signatures
	// (see Bindings).
	NamedTypes map[string]bind.ExtendedType `json:"-"`
	// EmittedEvents lists the runtime.Notify calls with a constant name.
	EmittedEvents map[string][]emittedEvent `json:"-"`
	// InvokedContracts lists methods of other contracts called with write
	// or notify flags (the zero hash for unknown contracts).
	InvokedContracts map[hash.Uint160][]string `json:"-"`
}

// MethodDebugInfo is one method of DebugInfo.
type MethodDebugInfo struct {
	// ID is the Go name.
	ID string `json:"id"`
	// Name is the namespace (package name) and the name with a lower-case
	// first letter.
	Name MethodName `json:"name"`
	// IsExported and IsFunction select manifest methods.
	IsExported bool `json:"-"`
	IsFunction bool `json:"-"`
	// Range is the method's first and last byte in the script.
	Range      Range        `json:"range"`
	Parameters []debugParam `json:"params"`
	ReturnType string       `json:"return"`
	// ReturnSC is the manifest return type; ReturnReal and ReturnExt its
	// Go and structured types for the bindings.
	ReturnSC   smartcontract.ParamType `json:"-"`
	ReturnReal bind.Override           `json:"-"`
	ReturnExt  *bind.ExtendedType      `json:"-"`
	Variables  []string                `json:"variables"`
	SeqPoints  []seqPoint              `json:"sequence-points"`
}

// MethodName is "namespace,name" in JSON.
type MethodName struct {
	Namespace, Name string
}

// MarshalJSON writes "namespace,name".
func (n MethodName) MarshalJSON() ([]byte, error) {
	return json.Marshal(n.Namespace + "," + n.Name)
}

// Range is "start-end" in JSON.
type Range struct {
	Start, End uint16
}

// MarshalJSON writes "start-end".
func (r Range) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.Itoa(int(r.Start)) + "-" + strconv.Itoa(int(r.End)))
}

// EventDebugInfo is a configured event.
type EventDebugInfo struct {
	ID         string       `json:"id"`
	Name       string       `json:"name"`
	Parameters []debugParam `json:"params"`
}

// debugParam is "name,Type" in JSON; Real and Ext are its Go and
// structured types for the bindings.
type debugParam struct {
	Name string
	Type string
	SC   smartcontract.ParamType
	Real bind.Override
	Ext  *bind.ExtendedType
}

// MarshalJSON writes "name,Type".
func (p debugParam) MarshalJSON() ([]byte, error) { return json.Marshal(p.Name + "," + p.Type) }

// emittedEvent is one runtime.Notify call: its arguments' types and the
// structures they use.
type emittedEvent struct {
	Params []debugParam
	Named  map[string]bind.ExtendedType
}

// seqPoint maps a script offset to a source span; JSON
// "offset[doc]line:col-line:col".
type seqPoint struct {
	Opcode, Document                     int
	StartLine, StartCol, EndLine, EndCol int
}

// MarshalJSON writes the NeoDebugger form.
func (s seqPoint) MarshalJSON() ([]byte, error) {
	return json.Marshal(fmt.Sprintf("%d[%d]%d:%d-%d:%d", s.Opcode, s.Document, s.StartLine, s.StartCol, s.EndLine, s.EndCol))
}

// seqPoint records the span of n at the current position, under the
// current function's short name (functions of the same name share the
// list, as in neo-go).
func (g *gen) seqPoint(n ast.Node) {
	name := "init"
	if g.cur != nil {
		name = g.cur.name
	}
	start, end := g.p.fset.Position(n.Pos()), g.p.fset.Position(n.End())
	g.seq[name] = append(g.seq[name], seqPoint{
		Opcode: g.a.pos(), Document: g.p.docIdx[start.Filename],
		StartLine: start.Line, StartCol: start.Column, EndLine: end.Line, EndCol: end.Column,
	})
}

// debugVar records a declared variable with the VM type of typeExpr.
func (g *gen) debugVar(name string, typeExpr ast.Expr) {
	_, vt := g.paramTypes(g.p.typeOf(typeExpr))
	v := name + "," + vt.String()
	if g.cur == nil {
		g.staticVars = append(g.staticVars, v)
		return
	}
	g.cur.vars = append(g.cur.vars, v)
}

// paramTypes maps a Go type to its manifest parameter type and VM type.
func (g *gen) paramTypes(t types.Type) (smartcontract.ParamType, stackitem.Type) {
	if t == nil {
		return smartcontract.AnyType, stackitem.AnyT
	}
	named, ok := t.(*types.Named)
	if !ok {
		if p, isPtr := t.(*types.Pointer); isPtr {
			named, ok = p.Elem().(*types.Named)
		}
	}
	if ok && isInterop(named.String()) {
		return interopParamTypes(named)
	}
	if p, isPtr := t.(*types.Pointer); isPtr {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch i := u.Info(); {
		case i&types.IsInteger != 0:
			return smartcontract.IntegerType, stackitem.IntegerT
		case i&types.IsBoolean != 0:
			return smartcontract.BoolType, stackitem.BooleanT
		case i&types.IsString != 0:
			return smartcontract.StringType, stackitem.ByteStringT
		}
	case *types.Map:
		return smartcontract.MapType, stackitem.MapT
	case *types.Struct:
		return smartcontract.ArrayType, stackitem.StructT
	case *types.Slice:
		if isByte(u.Elem()) {
			return smartcontract.ByteArrayType, stackitem.ByteStringT
		}
		return smartcontract.ArrayType, stackitem.ArrayT
	}
	return smartcontract.AnyType, stackitem.AnyT
}

// interopParamTypes maps the interop package's named types.
func interopParamTypes(named *types.Named) (smartcontract.ParamType, stackitem.Type) {
	name := named.Obj().Name()
	switch named.Obj().Pkg().Name() {
	case "ledger", "management":
		switch name {
		case "ParameterType", "SignerScope", "WitnessAction", "WitnessConditionType", "VMState":
			return smartcontract.IntegerType, stackitem.IntegerT
		}
		return smartcontract.ArrayType, stackitem.ArrayT
	case "interop":
		switch name {
		case "Hash160":
			return smartcontract.Hash160Type, stackitem.ByteStringT
		case "Hash256":
			return smartcontract.Hash256Type, stackitem.ByteStringT
		case "PublicKey":
			return smartcontract.PublicKeyType, stackitem.ByteStringT
		case "Signature":
			return smartcontract.SignatureType, stackitem.ByteStringT
		}
	}
	return smartcontract.InteropInterfaceType, stackitem.InteropT
}

// debugInfo assembles the debug information after link.
func (g *gen) debugInfo(script []byte, lay *layout) *DebugInfo {
	for _, pts := range g.seq {
		for i := range pts {
			pts[i].Opcode = lay.newPos(pts[i].Opcode)
		}
	}
	d := &DebugInfo{
		Hash:             hash.Hash160(script),
		MainPkg:          g.p.main.Name,
		Documents:        g.p.docs,
		Events:           []EventDebugInfo{},
		StaticVariables:  g.staticVars,
		EmittedEvents:    g.events,
		InvokedContracts: g.invoked,
	}
	initEnd := -1
	if g.initEnd >= 0 {
		initEnd = lay.newEnd(g.initEnd)
	}
	if initEnd > 0 {
		d.Methods = append(d.Methods, MethodDebugInfo{
			ID: "_initialize", Name: MethodName{g.p.main.Name, "_initialize"},
			IsExported: true, IsFunction: true,
			Range:      Range{0, uint16(initEnd)},
			ReturnType: "Void", ReturnSC: smartcontract.VoidType,
			SeqPoints: g.seq["init"], Variables: g.initVars,
		})
	}
	if g.deployEnd >= 0 {
		d.Methods = append(d.Methods, MethodDebugInfo{
			ID: "_deploy", Name: MethodName{g.p.main.Name, "_deploy"},
			IsExported: true, IsFunction: true,
			Range: Range{uint16(initEnd + 1), uint16(lay.newEnd(g.deployEnd))},
			Parameters: []debugParam{
				{Name: "data", Type: "Any", SC: smartcontract.AnyType},
				{Name: "isUpdate", Type: "Boolean", SC: smartcontract.BoolType},
			},
			ReturnType: "Void", ReturnSC: smartcontract.VoidType,
			SeqPoints: g.seq["_deploy"], Variables: g.deployVar,
		})
	}
	// Every declared function gets a range: functions never emitted have
	// 0-0, which the shift for removed bytes turns into 0-65535 when byte 0
	// was removed (neo-go lists those too). Empty ranges are left out.
	keys := make([]string, 0, len(g.funcs))
	for k, f := range g.funcs {
		if f.rangeOf(lay).Start == f.rangeOf(lay).End {
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	d.NamedTypes = map[string]bind.ExtendedType{}
	for _, k := range keys {
		m := g.methodInfo(g.funcs[k], lay)
		g.signatureBindings(g.funcs[k], &m, d.NamedTypes)
		d.Methods = append(d.Methods, m)
	}
	return d
}

func (g *gen) methodInfo(f *fn, lay *layout) MethodDebugInfo {
	params := make([]debugParam, 0)
	for _, p := range f.decl.Type.Params.List {
		st, vt := g.paramTypes(g.p.typeOf(p.Type))
		for _, id := range p.Names {
			params = append(params, debugParam{Name: id.Name, Type: vt.String(), SC: st})
		}
	}
	name := f.decl.Name.Name
	r, size := utf8.DecodeRuneInString(name)
	m := MethodDebugInfo{
		ID:         name,
		Name:       MethodName{f.pkg.Name, string(unicode.ToLower(r)) + name[size:]},
		IsExported: f.decl.Name.IsExported(),
		IsFunction: f.decl.Recv == nil,
		Range:      f.rangeOf(lay),
		Parameters: params,
		SeqPoints:  g.seq[name],
		Variables:  f.vars,
	}
	switch res := f.decl.Type.Results; res.NumFields() {
	case 0:
		m.ReturnType, m.ReturnSC = "Void", smartcontract.VoidType
	case 1:
		st, vt := g.paramTypes(g.p.typeOf(res.List[0].Type))
		m.ReturnType, m.ReturnSC = vt.String(), st
	default:
		m.ReturnType, m.ReturnSC = "Any", smartcontract.AnyType
	}
	return m
}

// rangeOf is the function's byte range in the linked script (16-bit, as
// the debug format has it).
func (f *fn) rangeOf(lay *layout) Range {
	start, end := 0, 0
	if f.compiled {
		start, end = f.start, f.end
	}
	return Range{uint16(lay.newPos(start)), uint16(lay.newEnd(end))}
}
