package compiler

import (
	"fmt"
	"go/types"
	"maps"
	"slices"

	"github.com/n3node/n3node/pkg/smartcontract"
	bind "github.com/n3node/n3node/pkg/smartcontract/binding"
)

// Bindings: the configuration `contract compile --bindings` writes for
// the binding generators (pkg/smartcontract/binding), from the Go types
// of the compiled functions' signatures, the configured events and, with
// GuessEventTypes, the arguments of runtime.Notify calls.

// bindingType describes a Go type for the bindings: its manifest type,
// the Go type wrappers use (empty TypeName: none) and its structured
// form (nil for types the manifest type describes fully). Structures met
// are added to named (when not nil) under their name: "pkg.Type", or
// "unnamed", "unnamedX"... for anonymous ones.
func (g *gen) bindingType(t types.Type, named map[string]bind.ExtendedType) (smartcontract.ParamType, bind.Override, *bind.ExtendedType) {
	if t == nil {
		return smartcontract.AnyType, bind.Override{TypeName: "any"}, nil
	}
	ptr, isPtr := t.(*types.Pointer)
	obj, isNamed := t.(*types.Named)
	if isPtr {
		obj, isNamed = ptr.Elem().(*types.Named)
		t = ptr.Elem()
	}
	if isNamed && isInterop(obj.String()) {
		return g.interopBindingType(obj, isPtr, named)
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		st, _ := g.paramTypes(u)
		name := map[smartcontract.ParamType]string{smartcontract.IntegerType: "int", smartcontract.BoolType: "bool", smartcontract.StringType: "string"}[st]
		if name == "" {
			return smartcontract.AnyType, bind.Override{TypeName: "any"}, nil
		}
		return st, bind.Override{TypeName: name}, nil
	case *types.Map:
		keyType, _, _ := g.bindingType(u.Key(), named)
		valType, over, val := g.bindingType(u.Elem(), named)
		if val == nil {
			val = &bind.ExtendedType{Base: valType}
		}
		over.TypeName = "map[" + u.Key().String() + "]" + over.TypeName
		return smartcontract.MapType, over, &bind.ExtendedType{Base: smartcontract.MapType, Key: keyType, Value: val}
	case *types.Struct:
		var over bind.Override
		name := "unnamed"
		if isNamed {
			over = bind.Override{Package: obj.Obj().Pkg().Path(), TypeName: obj.Obj().Pkg().Name() + "." + obj.Obj().Name()}
			name = over.TypeName
			g.structBindingType(u, name, named)
		} else if named != nil {
			for named[name].Name == name {
				name += "X"
			}
			g.structBindingType(u, name, named)
		}
		return smartcontract.ArrayType, over, &bind.ExtendedType{Base: smartcontract.ArrayType, Name: name}
	case *types.Slice:
		if isByte(u.Elem()) {
			return smartcontract.ByteArrayType, bind.Override{TypeName: "[]byte"}, nil
		}
		elemType, over, elem := g.bindingType(u.Elem(), named)
		if elem == nil {
			elem = &bind.ExtendedType{Base: elemType}
		}
		if over.TypeName != "" {
			over.TypeName = "[]" + over.TypeName
		}
		return smartcontract.ArrayType, over, &bind.ExtendedType{Base: smartcontract.ArrayType, Value: elem}
	}
	return smartcontract.AnyType, bind.Override{TypeName: "any"}, nil
}

// interopBindingType describes the interop packages' types: ledger and
// management structures (their fields added to named), enumerations as
// int, the interop byte-string types, and everything else as an
// iterator interface.
func (g *gen) interopBindingType(obj *types.Named, isPtr bool, named map[string]bind.ExtendedType) (smartcontract.ParamType, bind.Override, *bind.ExtendedType) {
	st, _ := interopParamTypes(obj)
	name, pkg := obj.Obj().Name(), obj.Obj().Pkg()
	switch {
	case st == smartcontract.IntegerType:
		return st, bind.Override{TypeName: "int"}, nil
	case st == smartcontract.ArrayType:
		full := pkg.Name() + "." + name
		et := &bind.ExtendedType{Base: smartcontract.ArrayType, Name: full}
		if s, ok := obj.Underlying().(*types.Struct); ok && named != nil && named[full].Name != full {
			g.structBindingType(s, full, named)
		}
		if isPtr {
			full = "*" + full
		}
		return st, bind.Override{Package: pkg.Path(), TypeName: full}, et
	case st == smartcontract.InteropInterfaceType:
		return st, bind.Override{TypeName: "any"}, &bind.ExtendedType{Base: smartcontract.InteropInterfaceType, Interface: "iterator"}
	}
	return st, bind.Override{Package: interopPath, TypeName: "interop." + name}, nil
}

// structBindingType adds the structure s to named as name, once (the
// entry is stored before its fields are described, so recursive
// structures end).
func (g *gen) structBindingType(s *types.Struct, name string, named map[string]bind.ExtendedType) {
	if named == nil || named[name].Name == name {
		return
	}
	et := bind.ExtendedType{Base: smartcontract.ArrayType, Name: name, Fields: make([]bind.FieldExtendedType, s.NumFields())}
	named[name] = et
	for i := range et.Fields {
		f := s.Field(i)
		ft, _, fet := g.bindingType(f.Type(), named)
		if fet != nil {
			et.Fields[i].ExtendedType = *fet
		} else {
			et.Fields[i].Base = ft
		}
		et.Fields[i].Field = f.Name()
	}
	named[name] = et
}

// signatureBindings fills the binding types of m's parameters and result
// from f's declaration (structures into named).
func (g *gen) signatureBindings(f *fn, m *MethodDebugInfo, named map[string]bind.ExtendedType) {
	i := 0
	for _, p := range f.decl.Type.Params.List {
		for range p.Names {
			_, m.Parameters[i].Real, m.Parameters[i].Ext = g.bindingType(g.p.typeOf(p.Type), named)
			i++
		}
	}
	if res := f.decl.Type.Results; res.NumFields() == 1 {
		_, m.ReturnReal, m.ReturnExt = g.bindingType(g.p.typeOf(res.List[0].Type), named)
	}
}

// Bindings is the bindings configuration of a compiled contract, as
// neo-go's `contract compile --bindings` writes it: the package; for
// exported methods the Go types of parameters and results (overrides)
// and their structured types; the structures of every compiled
// signature and those the configuration declares; the configured
// structured types of event parameters. With guessEvents, the event
// parameters also get the types of the runtime.Notify arguments (which
// must agree between calls and with the configuration).
func Bindings(di *DebugInfo, o Options, guessEvents bool) (bind.Config, error) {
	cfg := bind.Config{
		Package:    di.MainPkg,
		Overrides:  map[string]bind.Override{},
		NamedTypes: map[string]bind.ExtendedType{},
		Types:      map[string]bind.ExtendedType{},
	}
	for _, m := range di.Methods {
		if !m.IsExported {
			continue
		}
		for _, p := range m.Parameters {
			key := m.Name.Name + "." + p.Name
			if p.Real.TypeName != "" {
				cfg.Overrides[key] = p.Real
			}
			if p.Ext != nil {
				cfg.Types[key] = *p.Ext
			}
		}
		if m.ReturnReal.TypeName != "" {
			cfg.Overrides[m.Name.Name] = m.ReturnReal
		}
		if m.ReturnExt != nil {
			cfg.Types[m.Name.Name] = *m.ReturnExt
		}
	}
	if len(di.NamedTypes) > 0 {
		cfg.NamedTypes = maps.Clone(di.NamedTypes)
	}
	for name, et := range o.NamedTypes {
		if _, ok := cfg.NamedTypes[name]; ok {
			return cfg, fmt.Errorf("configured declared named type intersects with the contract's one: `%s`", name)
		}
		cfg.NamedTypes[name] = et
	}
	for _, e := range o.Events {
		for i, p := range e.Parameters {
			if i < len(e.Ext) && e.Ext[i] != nil {
				cfg.Types[bind.EventBindingName(e.Name)+"."+bind.ParamBindingName(p.Name)] = *e.Ext[i]
			}
		}
	}
	if !guessEvents {
		return cfg, nil
	}
	for _, name := range slices.Sorted(maps.Keys(di.EmittedEvents)) {
		if err := guessEvent(&cfg, name, di.EmittedEvents[name], o.Events); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// guessEvent adds the types of the event's runtime.Notify arguments (the
// first call's; all must agree) to cfg where the configuration has none.
func guessEvent(cfg *bind.Config, name string, calls []emittedEvent, events []Event) error {
	i := slices.IndexFunc(events, func(e Event) bool { return e.Name == name })
	if i < 0 {
		return fmt.Errorf("inconsistent usages of event `%s`: not declared in the contract config", name)
	}
	declared, first := events[i], calls[0]
	for _, call := range calls {
		if len(call.Params) != len(declared.Parameters) {
			return fmt.Errorf("inconsistent usages of event `%s` against config: number of params mismatch: %d vs %d", name, len(first.Params), len(declared.Parameters))
		}
		for j, p := range call.Params {
			want := declared.Parameters[j].Type
			if want != smartcontract.AnyType && p.SC != want {
				return fmt.Errorf("inconsistent usages of event `%s` against config: SC type of param #%d mismatch: %s vs %s", name, j, p.SC, want)
			}
			if !p.Ext.Equal(first.Params[j].Ext) {
				return fmt.Errorf("inconsistent usages of event `%s`: extended type of param #%d mismatch", name, j)
			}
		}
	}
	prefix := bind.EventBindingName(name) + "."
	for _, p := range first.Params {
		key := prefix + bind.ParamBindingName(p.Name)
		if _, ok := cfg.Overrides[key]; !ok && p.Real.TypeName != "" {
			cfg.Overrides[key] = p.Real
		}
		if p.Ext == nil {
			continue
		}
		ext := *p.Ext
		if st, ok := first.Named[ext.Name]; ok {
			// The call's structure joins the named types, renamed if taken.
			for hasKey(cfg.NamedTypes, ext.Name) {
				ext.Name += "X"
			}
			st.Name = ext.Name
			cfg.NamedTypes[ext.Name] = st
		}
		if _, ok := cfg.Types[key]; !ok {
			cfg.Types[key] = ext
		}
	}
	return nil
}

func hasKey(m map[string]bind.ExtendedType, k string) bool {
	_, ok := m[k]
	return ok
}
