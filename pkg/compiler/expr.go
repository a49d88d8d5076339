package compiler

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"

	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// expr emits code leaving the value of e on the stack (a call leaves all
// its results, the first on top).
func (g *gen) expr(e ast.Expr) {
	if g.failed() {
		return
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		g.constant(e, g.p.tv(e))
	case *ast.Ident:
		switch tv := g.p.tv(e); {
		case tv.Value != nil:
			g.constant(e, tv)
		case e.Name == "nil":
			g.a.op(opcode.PUSHNULL)
		default:
			g.loadName("", e.Name)
		}
	case *ast.ParenExpr:
		g.expr(e.X)
	case *ast.BinaryExpr:
		g.binary(e, false, false, 0)
	case *ast.UnaryExpr:
		g.unary(e)
	case *ast.CallExpr:
		g.call(e)
	case *ast.CompositeLit:
		g.composite(e)
	case *ast.SelectorExpr:
		g.selector(e)
	case *ast.IndexExpr:
		g.expr(e.X)
		g.expr(e.Index)
		g.a.op(opcode.PICKITEM)
	case *ast.SliceExpr:
		g.slice(e)
	case *ast.StarExpr:
		if _, ok := structOf(g.p.typeOf(e.X)); !ok {
			g.errorf(e, "dereferencing is only supported on structs")
			return
		}
		g.expr(e.X)
		g.convert(stackitem.StructT)
	case *ast.FuncLit:
		g.funcLit(e)
	case *ast.TypeAssertExpr:
		g.expr(e.X)
		if ce, ok := e.X.(*ast.CallExpr); ok && g.isSyscallCall(ce) {
			return
		}
		if t := g.p.typeOf(e.Type); t != nil && convertibleOnAssert(t.String()) {
			g.convert(vmType(t))
		}
	default:
		g.errorf(e, "unsupported expression %T", e)
	}
}

// constant pushes a typed constant.
func (g *gen) constant(n ast.Node, tv types.TypeAndValue) {
	_, kind, ok := basicInfo(tv.Type)
	if !ok {
		g.errorf(n, "compiler doesn't know how to convert this constant: %v", tv)
		return
	}
	switch kind {
	case types.Int, types.UntypedInt, types.Uint, types.Int8, types.Uint8,
		types.Int16, types.Uint16, types.Int32, types.Uint32, types.Int64:
		v, _ := constant.Int64Val(tv.Value)
		g.pushInt(v)
	case types.Uint64:
		v, _ := constant.Int64Val(tv.Value)
		g.pushBig(new(big.Int).SetUint64(uint64(v)))
	case types.String, types.UntypedString:
		g.pushBytes([]byte(constant.StringVal(tv.Value)))
	case types.Bool, types.UntypedBool:
		if constant.BoolVal(tv.Value) {
			g.a.op(opcode.PUSHT)
		} else {
			g.a.op(opcode.PUSHF)
		}
	default:
		g.errorf(n, "compiler doesn't know how to convert this basic type: %v", tv.Type)
	}
}

// pushInt pushes an integer. Unlike the C# emitter, neo-go keeps PUSH16
// out of its small-integer range and pushes 16 with PUSHINT8; pushBig and
// pushBytes use the VM emitter.
func (g *gen) pushInt(v int64) {
	if v == 16 {
		g.a.instr(opcode.PUSHINT8, 16)
		return
	}
	w := g.writer()
	emit.Int(w, v)
	g.flush(w)
}

func (g *gen) pushBig(v *big.Int) {
	if v.IsInt64() {
		g.pushInt(v.Int64())
		return
	}
	w := g.writer()
	emit.BigInt(w, v)
	g.flush(w)
}

func (g *gen) pushBytes(b []byte) {
	w := g.writer()
	emit.Bytes(w, b)
	g.flush(w)
}

// zero pushes the zero value of t.
func (g *gen) zero(t types.Type) {
	if t == nil {
		g.a.op(opcode.PUSHNULL)
		return
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch i := u.Info(); {
		case i&types.IsInteger != 0:
			g.a.op(opcode.PUSH0)
		case i&types.IsString != 0:
			g.pushBytes([]byte{})
		case i&types.IsBoolean != 0:
			g.a.op(opcode.PUSHF)
		default:
			g.a.op(opcode.PUSHNULL)
		}
	case *types.Struct:
		for i := u.NumFields() - 1; i >= 0; i-- {
			g.zero(u.Field(i).Type())
		}
		g.pushInt(int64(u.NumFields()))
		g.a.op(opcode.PACKSTRUCT)
	default:
		g.a.op(opcode.PUSHNULL)
	}
}

// convert converts the top item to typ unless it already has that type
// (booleans are normalised with NOT NOT, which is cheaper).
func (g *gen) convert(typ stackitem.Type) {
	if typ == stackitem.BooleanT {
		g.a.op(opcode.NOT, opcode.NOT)
		return
	}
	g.a.op(opcode.DUP)
	g.a.instr(opcode.ISTYPE, byte(typ))
	g.a.skip(opcode.JMPIF, 4)
	g.a.instr(opcode.CONVERT, byte(typ))
}

// vmType is the stack item type a Go type is represented by.
func vmType(t types.Type) stackitem.Type {
	if t == nil {
		return stackitem.AnyT
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch i := u.Info(); {
		case i&types.IsInteger != 0:
			return stackitem.IntegerT
		case i&types.IsBoolean != 0:
			return stackitem.BooleanT
		case i&types.IsString != 0:
			return stackitem.ByteStringT
		}
	case *types.Map:
		return stackitem.MapT
	case *types.Struct:
		return stackitem.StructT
	case *types.Slice:
		if isByte(u.Elem()) {
			return stackitem.BufferT
		}
		return stackitem.ArrayT
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Struct); ok {
			return stackitem.StructT
		}
	}
	return stackitem.AnyT
}

// convertibleOnAssert tells whether a type assertion to the named type
// converts the value; the interop handle types stay as they are.
func convertibleOnAssert(name string) bool {
	if len(name) != 0 && name[0] == '*' {
		name = name[1:]
	}
	if !isInterop(name) {
		return true
	}
	switch name[len(interopPath):] {
	case "/iterator.Iterator", "/storage.Context", "/native/ledger.Block", "/native/ledger.Transaction",
		"/native/management.Contract", "/native/neo.AccountState", "/native/ledger.BlockSR":
		return false
	}
	return true
}

func (g *gen) unary(e *ast.UnaryExpr) {
	if e.Op == token.AND {
		lit, ok := e.X.(*ast.CompositeLit)
		if !ok {
			g.errorf(e, "'&' can be used only with struct literals")
			return
		}
		g.structLit(lit, true)
		return
	}
	g.expr(e.X)
	switch e.Op {
	case token.ADD:
	case token.SUB:
		g.a.op(opcode.NEGATE)
	case token.NOT:
		g.a.op(opcode.NOT)
	case token.XOR:
		g.a.op(opcode.INVERT)
	default:
		g.errorf(e, "invalid unary operator: %s", e.Op)
	}
}

// cond emits a boolean expression. With jump set, it jumps to target when
// the value equals want and leaves nothing on the stack.
func (g *gen) cond(e ast.Expr, jump, want bool, target label) {
	if be, ok := e.(*ast.BinaryExpr); ok {
		g.binary(be, jump, want, target)
		return
	}
	g.expr(e)
	if jump {
		g.jumpIf(want, target)
	}
}

func (g *gen) jumpIf(want bool, target label) {
	if want {
		g.a.jump(opcode.JMPIFL, target)
	} else {
		g.a.jump(opcode.JMPIFNOTL, target)
	}
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

func (g *gen) binary(e *ast.BinaryExpr, jump, want bool, target label) {
	if tv := g.p.tv(e); tv.Value != nil {
		g.constant(e, tv)
		if jump && isBool(tv.Type) {
			g.jumpIf(want, target)
		}
		return
	}
	if other := e.X; isNil(e.Y) || isNil(e.X) {
		if isNil(e.X) {
			other = e.Y
		}
		g.expr(other)
		g.a.op(opcode.ISNULL)
		if jump {
			g.jumpIf(want == (e.Op == token.EQL), target)
		} else if e.Op == token.NEQ {
			g.a.op(opcode.NOT)
		}
		return
	}
	switch e.Op {
	case token.LAND, token.LOR:
		// The left operand decides alone when it is true for || and false
		// for &&.
		end := g.a.newLabel()
		short := e.Op == token.LOR
		if jump {
			l := end
			if want == short {
				l = target
			}
			g.cond(e.X, true, short, l)
			g.cond(e.Y, true, want, target)
		} else {
			decided := g.a.newLabel()
			g.cond(e.X, true, short, decided)
			g.cond(e.Y, false, false, 0)
			g.a.jump(opcode.JMPL, end)
			g.a.mark(decided)
			if short {
				g.a.op(opcode.PUSHT)
			} else {
				g.a.op(opcode.PUSHF)
			}
		}
		g.a.mark(end)
	default:
		g.expr(e.X)
		g.expr(e.Y)
		t := g.p.typeOf(e.X)
		if !jump {
			g.token(e, e.Op, t)
			return
		}
		op, ok := compareJump(e.Op, t)
		if !ok {
			g.token(e, e.Op, t)
			g.jumpIf(want, target)
			return
		}
		if !want {
			op = invertedJump[op]
		}
		g.a.jump(op, target)
	}
}

// compareJump is the conditional jump that fuses a comparison, where one
// exists.
func compareJump(tok token.Token, t types.Type) (opcode.Opcode, bool) {
	switch tok {
	case token.GTR:
		return opcode.JMPGTL, true
	case token.GEQ:
		return opcode.JMPGEL, true
	case token.LSS:
		return opcode.JMPLTL, true
	case token.LEQ:
		return opcode.JMPLEL, true
	case token.EQL:
		return opcode.JMPEQL, isNumber(t)
	case token.NEQ:
		return opcode.JMPNEL, isNumber(t)
	}
	return 0, false
}

var invertedJump = map[opcode.Opcode]opcode.Opcode{
	opcode.JMPIFL: opcode.JMPIFNOTL, opcode.JMPIFNOTL: opcode.JMPIFL,
	opcode.JMPEQL: opcode.JMPNEL, opcode.JMPNEL: opcode.JMPEQL,
	opcode.JMPGTL: opcode.JMPLEL, opcode.JMPLEL: opcode.JMPGTL,
	opcode.JMPGEL: opcode.JMPLTL, opcode.JMPLTL: opcode.JMPGEL,
}

// tokenOps maps operators (and their assignment forms) to opcodes; + on
// strings and the comparisons for equality are decided in token.
var tokenOps = map[token.Token]opcode.Opcode{
	token.ADD: opcode.ADD, token.ADD_ASSIGN: opcode.ADD,
	token.SUB: opcode.SUB, token.SUB_ASSIGN: opcode.SUB,
	token.MUL: opcode.MUL, token.MUL_ASSIGN: opcode.MUL,
	token.QUO: opcode.DIV, token.QUO_ASSIGN: opcode.DIV,
	token.REM: opcode.MOD, token.REM_ASSIGN: opcode.MOD,
	token.AND: opcode.AND, token.AND_ASSIGN: opcode.AND,
	token.OR: opcode.OR, token.OR_ASSIGN: opcode.OR,
	token.SHL: opcode.SHL, token.SHL_ASSIGN: opcode.SHL,
	token.SHR: opcode.SHR, token.SHR_ASSIGN: opcode.SHR,
	token.XOR: opcode.XOR,
	token.LSS: opcode.LT, token.LEQ: opcode.LE, token.GTR: opcode.GT, token.GEQ: opcode.GE,
	token.EQL: opcode.EQUAL, token.NEQ: opcode.NOTEQUAL,
	token.INC: opcode.INC, token.DEC: opcode.DEC, token.NOT: opcode.NOT,
}

// token emits the opcode of a binary, assignment or inc/dec operator; t is
// the operand type (strings concatenate, numbers compare numerically).
func (g *gen) token(n ast.Node, tok token.Token, t types.Type) {
	op, ok := tokenOps[tok]
	if !ok {
		g.errorf(n, "compiler could not convert token: %s", tok)
		return
	}
	switch {
	case op == opcode.ADD && isString(t):
		op = opcode.CAT
	case op == opcode.EQUAL && isNumber(t):
		op = opcode.NUMEQUAL
	case op == opcode.NOTEQUAL && isNumber(t):
		op = opcode.NUMNOTEQUAL
	}
	g.a.op(op)
}

func (g *gen) composite(e *ast.CompositeLit) {
	t := g.p.typeOf(e)
	switch u := t.Underlying().(type) {
	case *types.Struct:
		g.structLit(e, false)
	case *types.Map:
		for i := len(e.Elts) - 1; i >= 0; i-- {
			kv, ok := e.Elts[i].(*ast.KeyValueExpr)
			if !ok {
				g.errorf(e.Elts[i], "map literal element without a key")
				return
			}
			g.expr(kv.Value)
			g.expr(kv.Key)
		}
		g.pushInt(int64(len(e.Elts)))
		g.a.op(opcode.PACKMAP)
	default:
		if named, ok := t.(*types.Named); ok && isInterop(named.String()) {
			want := 0
			switch named.Obj().Name() {
			case "Hash160":
				want = 20
			case "Hash256":
				want = 32
			}
			if want != 0 && want != len(e.Elts) {
				g.errorf(e, "%s type must have size %d", named.Obj().Name(), want)
				return
			}
		}
		for _, el := range e.Elts {
			if _, ok := el.(*ast.KeyValueExpr); ok {
				g.errorf(el, "indexed elements in slice and array literals are not supported")
				return
			}
		}
		if isByteSlice(u) {
			g.byteSliceLit(e.Elts)
			return
		}
		for i := len(e.Elts) - 1; i >= 0; i-- {
			g.expr(e.Elts[i])
		}
		g.pushInt(int64(len(e.Elts)))
		g.a.op(opcode.PACK)
	}
}

// byteSliceLit pushes the constant bytes as a buffer and sets the others
// one by one.
func (g *gen) byteSliceLit(elts []ast.Expr) {
	buf := make([]byte, len(elts))
	var dynamic []int
	for i, e := range elts {
		if tv := g.p.tv(e); tv.Value != nil {
			v, _ := constant.Int64Val(tv.Value)
			buf[i] = byte(v)
		} else {
			dynamic = append(dynamic, i)
		}
	}
	g.pushBytes(buf)
	g.convert(stackitem.BufferT)
	for _, i := range dynamic {
		g.a.op(opcode.DUP)
		g.pushInt(int64(i))
		g.expr(elts[i])
		g.a.op(opcode.SETITEM)
	}
}

// structLit builds a struct (PACKSTRUCT) or, for &T{...}, an array that
// is shared by reference (PACK).
func (g *gen) structLit(e *ast.CompositeLit, pointer bool) {
	st, ok := g.p.typeOf(e).Underlying().(*types.Struct)
	if !ok {
		g.errorf(e, "the given literal is not of type struct")
		return
	}
	keyed := false
	if len(e.Elts) > 0 {
		_, keyed = e.Elts[0].(*ast.KeyValueExpr)
	}
	for i := st.NumFields() - 1; i >= 0; i-- {
		field := st.Field(i)
		done := false
		if keyed {
			for _, el := range e.Elts {
				kv := el.(*ast.KeyValueExpr)
				if kv.Key.(*ast.Ident).Name == field.Name() {
					g.expr(kv.Value)
					done = true
					break
				}
			}
		} else if i < len(e.Elts) {
			g.expr(e.Elts[i])
			done = true
		}
		if !done {
			g.zero(field.Type())
		}
	}
	g.pushInt(int64(st.NumFields()))
	if pointer {
		g.a.op(opcode.PACK)
	} else {
		g.a.op(opcode.PACKSTRUCT)
	}
}

// pkgQualifier reports whether sel is pkg.Name and returns the qualifier.
func (g *gen) pkgQualifier(sel *ast.SelectorExpr) (string, bool) {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	if _, ok := g.p.info.Uses[id].(*types.PkgName); !ok {
		return "", false
	}
	return id.Name, true
}

func (g *gen) selector(e *ast.SelectorExpr) {
	if pkg, ok := g.pkgQualifier(e); ok {
		if c, ok := g.p.info.Uses[e.Sel].(*types.Const); ok {
			g.constant(e, types.TypeAndValue{Type: c.Type(), Value: c.Val()})
			return
		}
		g.loadName(pkg, e.Sel.Name)
		return
	}
	st, ok := structOf(g.p.typeOf(e.X))
	if !ok {
		g.errorf(e, "selectors are supported only on structs")
		return
	}
	g.expr(e.X)
	path := fieldPath(st, e.Sel.Name)
	if path == nil {
		g.errorf(e, "field %q not found", e.Sel.Name)
		return
	}
	g.loadPath(path)
}

// loadPath picks nested fields, outermost first (path is innermost first).
func (g *gen) loadPath(path []int) {
	for i := len(path) - 1; i >= 0; i-- {
		g.pushInt(int64(path[i]))
		g.a.op(opcode.PICKITEM)
	}
}

func (g *gen) slice(e *ast.SliceExpr) {
	xt := g.p.typeOf(e.X)
	if s, ok := xt.Underlying().(*types.Slice); ok && !isByte(s.Elem()) {
		g.errorf(e, "subslices are supported only for []byte and string")
		return
	}
	g.expr(e.X)
	if e.Low != nil {
		g.expr(e.Low)
	} else {
		g.a.op(opcode.PUSH0)
	}
	if e.High != nil {
		g.expr(e.High)
	} else {
		g.a.op(opcode.OVER, opcode.SIZE)
	}
	g.a.op(opcode.OVER, opcode.SUB, opcode.SUBSTR)
	if isString(xt) {
		g.convert(stackitem.ByteStringT)
	}
}

// loadName pushes a variable; pkg is an import name for pkg.Name globals.
func (g *gen) loadName(pkg, name string) {
	b := g.resolve(pkg, name)
	switch {
	case b.alias != nil:
		if tv := g.p.tv(b.alias.expr); tv.Value != nil {
			g.constant(b.alias.expr, tv)
			return
		}
		imps, blocks := g.imports, g.cur.blocks
		g.imports, g.cur.blocks = b.alias.imports, b.alias.blocks
		g.expr(b.alias.expr)
		g.imports, g.cur.blocks = imps, blocks
	case b.kind == inAlias:
		g.a.op(opcode.PUSHNULL)
	default:
		g.loadSlot(b.kind, b.index)
	}
}

// storeName pops into a variable; `_` drops.
func (g *gen) storeName(pkg, name string) {
	if name == "_" {
		g.a.op(opcode.DROP)
		return
	}
	b := g.resolve(pkg, name)
	if b.kind == inAlias {
		g.cur.local(name)
		b = g.resolve(pkg, name)
	}
	g.storeSlot(b.kind, b.index)
}

// resolve finds a name: the function's blocks and arguments, then the
// globals; an unknown name becomes a new local, as in neo-go.
func (g *gen) resolve(pkg, name string) binding {
	if pkg == "" && g.cur != nil {
		if b, ok := g.cur.lookup(name); ok {
			return b
		}
	}
	if i, ok := g.globals[qualify(g.imports, pkg, name)]; ok {
		return binding{kind: inStatic, index: i}
	}
	if g.cur == nil {
		g.a.fail(fmtUnknown(pkg, name))
		return binding{kind: inStatic}
	}
	g.cur.local(name)
	b, _ := g.cur.lookup(name)
	return b
}

var slotOps = map[slotKind][2]opcode.Opcode{
	inStatic: {opcode.LDSFLD0, opcode.STSFLD0},
	inLocal:  {opcode.LDLOC0, opcode.STLOC0},
	inArg:    {opcode.LDARG0, opcode.STARG0},
}

func (g *gen) loadSlot(k slotKind, i int)  { g.slotOp(slotOps[k][0], i) }
func (g *gen) storeSlot(k slotKind, i int) { g.slotOp(slotOps[k][1], i) }

// slotOp emits the short form (index 0-6) or the indexed form (base+7).
func (g *gen) slotOp(base opcode.Opcode, i int) {
	if i < 7 {
		g.a.op(base + opcode.Opcode(i))
		return
	}
	g.a.instr(base+7, byte(i))
}

func (g *gen) isMapIndex(e ast.Expr) bool {
	ix, ok := e.(*ast.IndexExpr)
	return ok && isMap(g.p.typeOf(ix.X))
}

// mapIndexWithOK pushes m[k] and whether k is present (v, ok := m[k]); a
// missing key gives the element type's zero value.
func (g *gen) mapIndexWithOK(ix *ast.IndexExpr) {
	elem := g.p.typeOf(ix.X).Underlying().(*types.Map).Elem()
	g.expr(ix.X)
	g.a.op(opcode.DUP)
	g.expr(ix.Index)
	g.a.op(opcode.DUP, opcode.ROT, opcode.SWAP, opcode.HASKEY)
	found := g.a.newLabel()
	g.a.jump(opcode.JMPIFL, found)
	g.a.op(opcode.DROP, opcode.DROP, opcode.PUSHF)
	g.zero(elem)
	g.a.skip(opcode.JMP, 5)
	g.a.mark(found)
	g.a.op(opcode.PICKITEM, opcode.PUSHT, opcode.SWAP)
}
