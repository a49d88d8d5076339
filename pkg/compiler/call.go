package compiler

import (
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func (g *gen) writer() *nio.BinWriter { return nio.NewBufBinWriter() }

func (g *gen) flush(w *nio.BinWriter) {
	if w.Err != nil {
		g.a.fail(w.Err)
		return
	}
	g.a.buf = append(g.a.buf, w.Bytes()...)
}

func fmtUnknown(pkg, name string) error {
	if pkg != "" {
		name = pkg + "." + name
	}
	return fmt.Errorf("unknown identifier %s", name)
}

var goBuiltins = map[string]bool{
	"len": true, "append": true, "panic": true, "make": true, "copy": true, "recover": true,
	"delete": true, "min": true, "max": true, "clear": true,
}

// inlined reports whether calls to name in package path are inlined: the
// interop wrappers, except the raw syscall package and the two helpers the
// compiler evaluates itself.
func inlined(path, name string, builtin bool) bool {
	if strings.HasPrefix(path, "github.com/nspcc-dev/neo-go/pkg/compiler/testdata/inline") {
		return true
	}
	if !isInterop(path) {
		return false
	}
	rest := path[len(interopPath):]
	return !strings.HasPrefix(rest, "/neogointernal") &&
		!(strings.HasPrefix(rest, "/util") && name == "FromAddress") &&
		!(strings.HasPrefix(rest, "/lib/address") && name == "ToHash160" && builtin)
}

// isSyscallFn reports whether f is one of neogointernal's intrinsics.
func isSyscallFn(f *fn) bool {
	if f == nil || !isInterop(f.pkg.PkgPath) || f.pkg.Name != "neogointernal" {
		return false
	}
	return strings.HasPrefix(f.name, "Syscall") || strings.HasPrefix(f.name, "Opcode") || strings.HasPrefix(f.name, "CallWithToken")
}

func (g *gen) isSyscallCall(ce *ast.CallExpr) bool {
	se, ok := ce.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	name, _ := g.selectorKey(se, g.imports)
	return isSyscallFn(g.funcs[name])
}

// identFunc finds the function a plain identifier calls, in the package
// whose code is being walked.
func (g *gen) identFunc(id *ast.Ident) *fn {
	return g.funcs[g.imports[""]+"."+id.Name]
}

// toHash160Literal reports a call of lib/address.ToHash160 with a literal
// address, which is evaluated at compile time.
func toHash160Literal(f *fn, ce *ast.CallExpr) bool {
	if !isInterop(f.pkg.PkgPath) || f.name != "ToHash160" || len(ce.Args) != 1 {
		return false
	}
	_, ok := ce.Args[0].(*ast.BasicLit)
	return ok
}

// call emits a call expression: a builtin, a conversion, an inlined
// interop wrapper, an intrinsic, a call of a declared function or of a
// function value.
func (g *gen) call(n *ast.CallExpr) {
	var (
		f                         *fn
		varName                   string
		builtin, funcVar, literal bool
		nargs                     = len(n.Args)
		selector                  ast.Expr
	)
	switch fun := n.Fun.(type) {
	case *ast.Ident:
		f = g.identFunc(fun)
		builtin = goBuiltins[fun.Name]
		if f == nil && !builtin {
			varName = fun.Name
		}
		if v, ok := g.p.info.Uses[fun].(*types.Var); ok && v != nil {
			funcVar = true
		}
		if f != nil && inlined(f.pkg.PkgPath, f.decl.Name.Name, false) {
			g.inline(f, n, nil)
			return
		}
	case *ast.SelectorExpr:
		name, method := g.selectorKey(fun, g.imports)
		f = g.funcs[name]
		if f == nil {
			if g.p.typeOf(fun) == nil {
				g.errorf(n, "can't find function %q", name)
				return
			}
			if len(n.Args) != 1 {
				g.errorf(n, "unsupported call of %s", name)
				return
			}
			g.expr(n.Args[0])
			g.explicitConvert(g.p.typeOf(n.Args[0]), g.p.typeOf(fun))
			return
		}
		selector = fun.X
		builtin = toHash160Literal(f, n)
		if inlined(f.pkg.PkgPath, f.decl.Name.Name, builtin) {
			g.inline(f, n, selector)
			return
		}
		if method {
			g.expr(fun.X)
			nargs++
		}
	case *ast.ArrayType:
		g.expr(n.Args[0])
		g.convert(stackitem.BufferT)
		return
	case *ast.InterfaceType:
		g.expr(n.Args[0])
		return
	case *ast.FuncLit:
		literal = true
	case *ast.ParenExpr, *ast.IndexExpr, *ast.CallExpr:
		g.errorf(n, "unsupported call of %T", fun)
		return
	}
	if f == nil && !builtin && varName == "" && !literal {
		g.errorf(n, "unsupported call")
		return
	}
	g.seqPoint(n)

	args := n.Args
	switch {
	case builtin && selector != nil:
		args = args[1:]
	case isSyscallFn(f) && selector != nil:
		args = nil
	}
	if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "make" || id.Name == "copy" || id.Name == "append") && builtin {
		args = nil
	}
	for _, a := range args {
		g.expr(a)
		if t := g.p.typeOf(a); t != nil {
			if _, ok := t.Underlying().(*types.Struct); ok && !isInterop(t.String()) {
				// Structs are values: pass a copy.
				g.a.op(opcode.NEWARRAY0, opcode.DUP, opcode.ROT, opcode.APPEND, opcode.POPITEM)
			}
		}
	}
	if !builtin && f != nil && !isSyscallFn(f) {
		if sig, ok := g.p.typeOf(n.Fun).(*types.Signature); ok && sig.Variadic() && !n.Ellipsis.IsValid() {
			nargs -= g.packVariadic(n, sig) - 1
		}
		g.reverse(nargs)
	}

	switch {
	case builtin:
		g.builtin(n, f)
	case varName != "":
		t := g.p.typeOf(n.Fun)
		if t == nil {
			g.errorf(n, "can't find function %q", varName)
			return
		}
		if isString(t) {
			g.convert(stackitem.ByteStringT)
		} else if funcVar {
			g.loadName("", varName)
			g.a.op(opcode.CALLA)
		}
	case literal:
		g.expr(n.Fun)
		g.a.op(opcode.CALLA)
	case isSyscallFn(f):
		g.intrinsic(f, n)
	default:
		g.a.jump(opcode.CALLL, f.lbl)
	}
	if g.cur != nil && g.cur.void[n] {
		results := 0
		switch {
		case f != nil:
			results = f.decl.Type.Results.NumFields()
		case !builtin:
			if sig, ok := g.p.typeOf(n.Fun).Underlying().(*types.Signature); ok {
				results = sig.Results().Len()
			}
		}
		for range results {
			g.a.op(opcode.DROP)
		}
	}
}

// packVariadic packs the trailing arguments into an array and returns how
// many it packed.
func (g *gen) packVariadic(n *ast.CallExpr, sig *types.Signature) int {
	k := len(n.Args) - sig.Params().Len() + 1
	g.reverse(k)
	g.pushInt(int64(k))
	g.a.op(opcode.PACK)
	return k
}

// reverse reverses the top n items.
func (g *gen) reverse(n int) {
	switch n {
	case 0, 1:
	case 2:
		g.a.op(opcode.SWAP)
	case 3:
		g.a.op(opcode.REVERSE3)
	case 4:
		g.a.op(opcode.REVERSE4)
	default:
		g.pushInt(int64(n))
		g.a.op(opcode.REVERSEN)
	}
}

// explicitConvert handles T(x) between strings, byte slices and interop
// byte types.
func (g *gen) explicitConvert(ft, tt types.Type) {
	switch {
	case tt != nil && isInterop(tt.String()):
		if isByteSlice(ft) && !isString(ft) {
			g.convert(stackitem.ByteStringT)
		}
	case isByteSlice(tt) && !isByteSlice(ft):
		g.convert(stackitem.BufferT)
	case isString(tt) && !isString(ft):
		g.convert(stackitem.ByteStringT)
	}
}

// intrinsic emits neogointernal.Syscall*, Opcode* and CallWithToken*.
func (g *gen) intrinsic(f *fn, n *ast.CallExpr) {
	callt := strings.HasPrefix(f.name, "CallWithToken")
	args := n.Args[1:]
	if callt {
		args = n.Args[3:]
	}
	for _, a := range args {
		g.expr(a)
	}
	tv := g.p.tv(n.Args[0])
	if tv.Value == nil || !isString(tv.Type) && !isUntypedString(tv.Type) {
		g.errorf(n, "bad intrinsic argument")
		return
	}
	name := constant.StringVal(tv.Value)
	switch {
	case strings.HasPrefix(f.name, "Syscall"):
		g.reverse(len(args))
		w := g.writer()
		emit.Syscall(w, name)
		g.flush(w)
	case callt:
		g.reverse(len(args))
		h, err := hash.Uint160DecodeBytesBE([]byte(name))
		if err != nil {
			g.errorf(n, "bad callt hash: %v", err)
			return
		}
		mv := g.p.tv(n.Args[1])
		if mv.Value == nil || mv.Value.Kind() != constant.String {
			g.errorf(n, "bad callt method")
			return
		}
		fv := g.p.tv(n.Args[2])
		if fv.Value == nil || !isNumber(fv.Type) {
			g.errorf(n, "bad callt call flags")
			return
		}
		flags, ok := constant.Uint64Val(fv.Value)
		if !ok || flags > 255 {
			g.errorf(n, "invalid callt flag")
			return
		}
		method := constant.StringVal(mv.Value)
		g.noteInvoked(h, method, flags)
		tok := nef.MethodToken{Hash: h, Method: method, ParamCount: uint16(len(args)),
			HasReturn: !strings.HasSuffix(f.name, "NoRet"), CallFlag: callflag.CallFlag(flags)}
		idx := slices.Index(g.tokens, tok)
		if idx < 0 {
			g.tokens = append(g.tokens, tok)
			idx = len(g.tokens) - 1
		}
		var b [2]byte
		binary.LittleEndian.PutUint16(b[:], uint16(idx))
		g.a.instr(opcode.CALLT, b[:]...)
	default:
		op, err := opcode.FromString(name)
		if err != nil {
			g.errorf(n, "invalid opcode: %s", name)
			return
		}
		g.a.op(op)
	}
}

func isUntypedString(t types.Type) bool {
	_, k, ok := basicInfo(t)
	return ok && k == types.UntypedString
}

// noteInvoked records a call of another contract that may write or notify,
// for the permission check.
func (g *gen) noteInvoked(h hash.Uint160, method string, flags uint64) {
	if flags&uint64(callflag.WriteStates|callflag.AllowNotify) == 0 {
		return
	}
	list, seen := g.invoked[h]
	if slices.Contains(list, method) {
		return
	}
	if !seen {
		g.invokedOrder = append(g.invokedOrder, h)
	}
	g.invoked[h] = append(list, method)
}

// funcLit pushes a pointer to a function literal, compiled after the
// enclosing function.
func (g *gen) funcLit(e *ast.FuncLit) {
	f, ok := g.litByBody[e.Body]
	if !ok {
		l := g.a.newLabel()
		name := fmt.Sprintf("lambda@%d", l)
		f = newFn(name, &ast.FuncDecl{Name: ast.NewIdent(name), Type: e.Type, Body: e.Body}, g.p.fileOf[g.fileOfPos(e)], l)
		f.lit = true
		g.litByBody[e.Body] = f
		g.pendingLits = append(g.pendingLits, f)
	}
	g.a.jump(opcode.PUSHA, f.lbl)
}

// fileOfPos finds the file holding n.
func (g *gen) fileOfPos(n ast.Node) *ast.File {
	for f := range g.p.fileOf {
		if f.FileStart <= n.Pos() && n.Pos() <= f.FileEnd {
			return f
		}
	}
	return nil
}

// builtin emits a Go builtin (or the compile-time ToHash160).
func (g *gen) builtin(n *ast.CallExpr, f *fn) {
	var name string
	switch fun := n.Fun.(type) {
	case *ast.Ident:
		name = fun.Name
	case *ast.SelectorExpr:
		name = fun.Sel.Name
	}
	switch name {
	case "copy":
		g.sliceParts(n.Args[0])
		g.sliceParts(n.Args[1])
		g.pushInt(3)
		g.a.op(opcode.ROLL, opcode.MIN)
		if !g.cur.void[n] {
			g.a.op(opcode.DUP)
			g.pushInt(6)
			g.a.op(opcode.REVERSEN)
			g.pushInt(5)
			g.a.op(opcode.REVERSEN)
		}
		g.a.op(opcode.MEMCPY)
	case "make":
		t := g.p.typeOf(n.Args[0])
		if isMap(t) {
			g.a.op(opcode.NEWMAP)
			return
		}
		if len(n.Args) == 3 {
			g.errorf(n, "`make()` with a capacity argument is not supported")
			return
		}
		g.expr(n.Args[1])
		if isByteSlice(t) {
			g.a.op(opcode.NEWBUFFER)
			return
		}
		elem := t.Underlying().(*types.Slice).Elem()
		g.a.op(opcode.DUP)
		loop, done := g.a.newLabel(), g.a.newLabel()
		g.a.mark(loop)
		g.a.op(opcode.DUP)
		g.a.jump(opcode.JMPIFNOTL, done)
		g.a.op(opcode.DEC)
		g.zero(elem)
		g.a.op(opcode.ROT, opcode.ROT)
		g.a.jump(opcode.JMPL, loop)
		g.a.mark(done)
		g.a.op(opcode.DROP, opcode.PACK)
	case "len":
		g.a.op(opcode.DUP, opcode.ISNULL)
		g.a.skip(opcode.JMPIF, 5)
		g.a.op(opcode.SIZE)
		g.a.skip(opcode.JMP, 4)
		g.a.op(opcode.DROP, opcode.PUSH0)
	case "append":
		g.appendCall(n)
	case "panic":
		g.a.op(opcode.THROW)
	case "recover":
		if !g.cur.void[n] {
			g.loadSlot(inStatic, g.exceptionSlot)
		}
		g.a.op(opcode.PUSHNULL)
		g.storeSlot(inStatic, g.exceptionSlot)
	case "delete":
		g.a.op(opcode.REMOVE)
	case "ToHash160":
		lit := n.Args[0].(*ast.BasicLit)
		u, err := address.ToUint160(strings.Trim(lit.Value, "\"`"))
		if err != nil {
			g.errorf(n, "%v", err)
			return
		}
		g.pushBytes(u[:])
		g.convert(stackitem.BufferT)
	case "min", "max":
		for _, a := range n.Args {
			info, _, ok := basicInfo(g.p.typeOf(a))
			if !ok || info&types.IsInteger == 0 {
				g.errorf(a, "only integer types are supported by %s", name)
				return
			}
		}
		op := opcode.MIN
		if name == "max" {
			op = opcode.MAX
		}
		for range len(n.Args) - 1 {
			g.a.op(op)
		}
	case "clear":
		switch t := g.p.typeOf(n.Args[0]).(type) {
		case *types.Map:
			g.a.op(opcode.CLEARITEMS)
		case *types.Slice:
			g.a.op(opcode.DUP, opcode.SIZE, opcode.OVER, opcode.CLEARITEMS)
			loop, done := g.a.newLabel(), g.a.newLabel()
			g.a.mark(loop)
			g.a.op(opcode.DUP, opcode.PUSH0)
			g.a.jump(opcode.JMPLEL, done)
			g.a.op(opcode.DEC, opcode.OVER)
			g.zero(t.Elem())
			g.a.op(opcode.APPEND)
			g.a.jump(opcode.JMPL, loop)
			g.a.mark(done)
			g.a.op(opcode.DROP, opcode.DROP)
		default:
			g.errorf(n, "only map or slice are supported by clear, got: %s", t)
		}
	}
}

// sliceParts pushes a byte slice, its start index and its length, for
// MEMCPY.
func (g *gen) sliceParts(e ast.Expr) {
	if !isByteSlice(g.p.typeOf(e)) {
		g.errorf(e, "copy is supported only for byte-slices")
		return
	}
	low := false
	if s, ok := e.(*ast.SliceExpr); ok {
		g.expr(s.X)
		if s.High != nil {
			g.expr(s.High)
		} else {
			g.a.op(opcode.DUP, opcode.SIZE)
		}
		if s.Low != nil {
			g.expr(s.Low)
			low = true
		} else {
			g.a.op(opcode.PUSH0)
		}
	} else {
		g.expr(e)
		g.a.op(opcode.DUP, opcode.SIZE, opcode.PUSH0)
	}
	if low {
		g.a.op(opcode.DUP, opcode.ROT, opcode.SWAP, opcode.SUB)
	} else {
		g.a.op(opcode.SWAP)
	}
}

func (g *gen) appendCall(n *ast.CallExpr) {
	dst := n.Args[0]
	g.expr(dst)
	g.a.op(opcode.DUP, opcode.ISNULL)
	if isByteSlice(g.p.typeOf(dst)) {
		g.a.skip(opcode.JMPIFNOT, 5)
		g.a.op(opcode.DROP, opcode.PUSHDATA1, 0)
		if n.Ellipsis.IsValid() {
			g.expr(n.Args[1])
		} else {
			g.byteSliceLit(n.Args[1:])
		}
		g.a.op(opcode.CAT)
		return
	}
	g.a.skip(opcode.JMPIFNOT, 4)
	g.a.op(opcode.DROP, opcode.NEWARRAY0)
	if !n.Ellipsis.IsValid() {
		for _, e := range n.Args[1:] {
			g.a.op(opcode.DUP)
			g.expr(e)
			g.a.op(opcode.APPEND)
		}
		return
	}
	// dst src i: append src[i] while i < len(src).
	g.expr(n.Args[1])
	g.a.op(opcode.PUSH0)
	loop, done := g.a.newLabel(), g.a.newLabel()
	g.a.mark(loop)
	g.a.op(opcode.PUSH2, opcode.PICK, opcode.PUSH2, opcode.PICK, opcode.DUP, opcode.SIZE, opcode.PUSH3, opcode.PICK)
	g.a.jump(opcode.JMPEQL, done)
	g.a.op(opcode.PUSH2, opcode.PICK, opcode.PICKITEM, opcode.APPEND, opcode.INC)
	g.a.jump(opcode.JMPL, loop)
	g.a.mark(done)
	g.a.op(opcode.DROP, opcode.DROP, opcode.DROP, opcode.DROP)
}
