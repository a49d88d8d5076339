package compiler

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	bind "github.com/n3node/n3node/pkg/smartcontract/binding"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// maxEventNameLen bounds runtime.Notify event names (C#
// ApplicationEngine.MaxEventName).
const maxEventNameLen = 32

// inline expands a call of an interop wrapper in place. Each parameter is
// bound to its argument: arguments without calls are re-evaluated at each
// use, the others are evaluated once into a new local. A return inside the
// body jumps past it.
func (g *gen) inline(f *fn, n *ast.CallExpr, selector ast.Expr) {
	depth := len(g.inl)
	g.inl = append(g.inl, inlineFrame{loopsBase: len(g.loops), ret: g.a.newLabel()})
	defer func() {
		g.loops = g.loops[:g.inl[depth].loopsBase]
		g.inl = g.inl[:depth]
	}()
	sig, _ := g.p.typeOf(n.Fun).(*types.Signature)
	if sig == nil {
		g.errorf(n, "can't inline %s", f.name)
		return
	}
	packed := !n.Ellipsis.IsValid()
	conv := g.noteStdlibCall(f, n.Args, !packed)

	if g.cur == nil {
		// A call in a global initialiser: a temporary frame whose locals
		// are counted into _initialize's.
		g.cur = newFn("", nil, nil, 0)
		g.cur.push()
		defer func() {
			g.globalInlineLocals = max(g.globalInlineLocals, g.cur.nlocals)
			g.cur = nil
		}()
	}
	outer := g.cur.blocks
	g.cur.push()
	inner := slices.Clone(g.cur.blocks)
	defer g.cur.pop()

	if f.decl.Recv != nil {
		g.cur.blocks = inner
		g.bindAlias(f.decl.Recv.List[0].Names[0].Name, selector, outer)
	}
	for i, a := range n.Args {
		g.cur.blocks = outer
		if sig.Variadic() && packed && i >= sig.Params().Len()-1 {
			break
		}
		name := sig.Params().At(i).Name()
		if !g.hasCalls(a) {
			g.cur.blocks = inner
			g.bindAlias(name, a, outer)
			continue
		}
		g.expr(a)
		g.cur.blocks = inner
		g.cur.local(name)
		g.storeName("", name)
	}
	if sig.Variadic() && packed {
		g.cur.blocks = outer
		for i := sig.Params().Len() - 1; i < len(n.Args); i++ {
			g.expr(n.Args[i])
			if conv != nil && conv[i-1] != nil {
				g.convert(*conv[i-1])
			}
		}
		g.cur.blocks = inner
		g.packVariadic(n, sig)
		name := sig.Params().At(sig.Params().Len() - 1).Name()
		g.cur.local(name)
		g.storeName("", name)
	}

	g.inl[depth].pkg = f.pkg
	imps := g.imports
	defers := g.cur.defers
	g.cur.defers = nil
	g.imports = g.fileImports(f.file)
	g.cur.markVoidCalls(f.decl)
	g.stmt(f.decl.Body)
	g.a.mark(g.inl[depth].ret)
	if g.cur.void[n] {
		for range f.decl.Type.Results.NumFields() {
			g.a.op(opcode.DROP)
		}
	}
	g.runDefers()
	g.cur.defers = defers
	g.imports = imps
}

func (g *gen) bindAlias(name string, e ast.Expr, outer []map[string]binding) {
	g.cur.blocks[len(g.cur.blocks)-1][name] = binding{kind: inAlias, index: -1,
		alias: &aliasExpr{expr: e, imports: g.imports, blocks: outer}}
}

// hasCalls approximates "evaluating e may have side effects": it has a
// call of a declared function, of a function value or of anything that is
// not a plain name (conversions through a type literal count).
func (g *gen) hasCalls(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		ce, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		switch fun := ce.Fun.(type) {
		case *ast.Ident:
			if g.identFunc(fun) != nil {
				found = true
			} else if obj := fun.Obj; obj != nil && (obj.Kind == ast.Var || obj.Kind == ast.Fun) {
				found = true
			}
		case *ast.SelectorExpr:
			name, _ := g.selectorKey(fun, g.imports)
			found = g.funcs[name] != nil
		default:
			found = true
		}
		return !found
	})
	return found
}

// noteStdlibCall records events and contract calls made through the
// interop wrappers. For runtime.Notify with a configured event it returns
// the conversions its arguments need.
func (g *gen) noteStdlibCall(f *fn, args []ast.Expr, ellipsis bool) []*stackitem.Type {
	switch {
	case f.pkg.PkgPath == interopPath+"/runtime" && (f.name == "Notify" || f.name == "Log"):
		return g.noteNotify(f, args, ellipsis)
	case f.pkg.PkgPath == interopPath+"/contract" && f.name == "Call":
		g.noteContractCall(args)
	}
	return nil
}

func (g *gen) noteNotify(f *fn, args []ast.Expr, ellipsis bool) []*stackitem.Type {
	if g.cur != nil && g.cur.decl != nil && isVerifyFunc(g.cur.decl, g.p) && g.cur.pkg == g.p.main && !g.opts.NoEventsCheck {
		g.errorf(args[0], "runtime.%s is not allowed in `Verify`", f.name)
		return nil
	}
	if f.name == "Log" {
		return nil
	}
	tv := g.p.tv(args[0])
	if tv.Value == nil || ellipsis {
		return nil
	}
	params := make([]debugParam, 0, len(args)-1)
	conv := make([]*stackitem.Type, 0, len(args)-1)
	named := map[string]bind.ExtendedType{}
	for _, a := range args[1:] {
		st, vt := g.paramTypes(g.p.typeOf(a))
		p := debugParam{Type: vt.String(), SC: st}
		_, p.Real, p.Ext = g.bindingType(g.p.typeOf(a), named)
		params = append(params, p)
		conv = append(conv, &vt)
	}
	name := constant.StringVal(tv.Value)
	if len(name) > maxEventNameLen {
		g.errorf(args[0], "event name '%s' should be less than %d", name, maxEventNameLen)
		return nil
	}
	found := false
	for _, e := range g.opts.Events {
		if e.Name != name || len(e.Parameters) != len(conv) {
			continue
		}
		found = true
		for i, p := range e.Parameters {
			params[i].Name = p.Name
			if g.opts.NoEventsCheck {
				continue
			}
			want := stackTypeOf(p.Type)
			if want == stackitem.AnyT || want == stackitem.InteropT || *conv[i] == want ||
				(*conv[i] == stackitem.BufferT && want == stackitem.ByteStringT) {
				conv[i] = nil
			} else {
				conv[i] = &want
				params[i].Type = p.Type.String()
				params[i].SC = p.Type
			}
		}
	}
	g.events[name] = append(g.events[name], emittedEvent{Params: params, Named: named})
	if found && !g.opts.NoEventsCheck {
		return conv
	}
	return nil
}

// stackTypeOf is the stack item a parameter type arrives as.
func stackTypeOf(t smartcontract.ParamType) stackitem.Type {
	switch t {
	case smartcontract.BoolType:
		return stackitem.BooleanT
	case smartcontract.IntegerType:
		return stackitem.IntegerT
	case smartcontract.ByteArrayType, smartcontract.StringType, smartcontract.Hash160Type,
		smartcontract.Hash256Type, smartcontract.PublicKeyType, smartcontract.SignatureType:
		return stackitem.ByteStringT
	case smartcontract.ArrayType:
		return stackitem.ArrayT
	case smartcontract.MapType:
		return stackitem.MapT
	case smartcontract.InteropInterfaceType:
		return stackitem.InteropT
	}
	return stackitem.AnyT
}

// noteContractCall records contract.Call with a constant method name and
// flags; the hash is known when it is a converted constant.
func (g *gen) noteContractCall(args []ast.Expr) {
	var h hash.Uint160
	if ce, ok := args[0].(*ast.CallExpr); ok && len(ce.Args) == 1 {
		if se, ok := ce.Fun.(*ast.SelectorExpr); ok {
			name, _ := g.selectorKey(se, g.imports)
			if g.funcs[name] == nil {
				if v := g.p.tv(ce.Args[0]).Value; v != nil && v.Kind() == constant.String {
					copy(h[:], constant.StringVal(v))
				}
			}
		}
	}
	mv := g.p.tv(args[1]).Value
	if mv == nil || mv.Kind() != constant.String {
		return
	}
	fv := g.p.tv(args[2]).Value
	if fv == nil {
		return
	}
	flags, _ := constant.Uint64Val(fv)
	g.noteInvoked(h, constant.StringVal(mv), flags)
}

func isVerifyFunc(d *ast.FuncDecl, p *program) bool {
	return d.Name.Name == "Verify" && d.Recv == nil && d.Type.Results.NumFields() == 1 &&
		isBool(p.typeOf(d.Type.Results.List[0].Type))
}
