package compiler

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/n3node/n3node/pkg/vm/opcode"
)

// stmt emits one statement.
func (g *gen) stmt(s ast.Stmt) {
	if g.failed() {
		return
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		g.cur.push()
		for _, x := range s.List {
			g.stmt(x)
		}
		g.cur.pop()
	case *ast.ExprStmt:
		g.expr(s.X)
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok {
			g.genDecl(gd)
		}
	case *ast.EmptyStmt:
	case *ast.AssignStmt:
		g.assign(s)
	case *ast.IncDecStmt:
		g.expr(s.X)
		g.token(s, s.Tok, g.p.typeOf(s.X))
		g.store(s.X)
	case *ast.ReturnStmt:
		g.ret(s)
	case *ast.IfStmt:
		g.ifStmt(s)
	case *ast.SwitchStmt:
		g.switchStmt(s)
	case *ast.ForStmt:
		g.forStmt(s)
	case *ast.RangeStmt:
		g.rangeStmt(s)
	case *ast.BranchStmt:
		g.branch(s)
	case *ast.LabeledStmt:
		g.nextName = s.Label.Name
		g.stmt(s.Stmt)
	case *ast.DeferStmt:
		g.deferStmt(s)
	default:
		g.errorf(s, "unsupported statement %T", s)
	}
}

// genDecl emits var declarations (globals when no function is being
// compiled); const declarations only get a sequence point.
func (g *gen) genDecl(d *ast.GenDecl) {
	if d.Tok != token.VAR && d.Tok != token.CONST {
		return
	}
	g.seqPoint(d)
	if d.Tok == token.CONST {
		return
	}
	for _, s := range d.Specs {
		vs := s.(*ast.ValueSpec)
		okForm := false
		if len(vs.Names) == 2 && len(vs.Values) == 1 {
			if ta, ok := vs.Values[0].(*ast.TypeAssertExpr); ok && ta.Type != nil {
				g.errorf(ta, "type assertion with two return values is not supported")
				return
			}
			if okForm = g.isMapIndex(vs.Values[0]); okForm {
				g.mapIndexWithOK(vs.Values[0].(*ast.IndexExpr))
			}
		}
		multi := len(vs.Values) != 0 && len(vs.Names) != len(vs.Values)
		for _, id := range vs.Names {
			if g.blank(id) {
				continue
			}
			if g.cur == nil {
				g.globals[g.imports[""]+"."+id.Name] = len(g.globals)
			} else {
				g.cur.local(id.Name)
			}
			if !multi {
				g.debugVar(id.Name, vs.Type)
			}
		}
		for i, id := range vs.Names {
			if !g.blank(id) {
				if !okForm {
					switch {
					case len(vs.Values) == 0:
						g.zero(g.p.typeOf(vs.Type))
					case i == 0 || !multi:
						g.expr(vs.Values[i])
					}
				}
				g.storeName("", id.Name)
				continue
			}
			if len(vs.Values) == 0 {
				continue
			}
			call := (i == 0 || !multi) && containsCall(vs.Values[i])
			if call {
				g.expr(vs.Values[i])
			}
			if call || okForm || i != 0 && multi {
				g.a.op(opcode.DROP)
			}
		}
	}
}

func (g *gen) assign(s *ast.AssignStmt) {
	okForm := false
	if len(s.Lhs) == 2 && len(s.Rhs) == 1 && (s.Tok == token.DEFINE || s.Tok == token.ASSIGN) {
		if ta, ok := s.Rhs[0].(*ast.TypeAssertExpr); ok && ta.Type != nil {
			g.errorf(ta, "type assertion with two return values is not supported")
			return
		}
		okForm = g.isMapIndex(s.Rhs[0])
	}
	multi := len(s.Rhs) != len(s.Lhs)
	g.seqPoint(s)
	compound := s.Tok >= token.ADD_ASSIGN && s.Tok <= token.AND_NOT_ASSIGN
	switch {
	case compound:
		g.expr(s.Lhs[0])
		g.expr(s.Rhs[0])
		g.token(s, s.Tok, g.p.typeOf(s.Rhs[0]))
	case okForm:
		g.mapIndexWithOK(s.Rhs[0].(*ast.IndexExpr))
	default:
		for _, r := range s.Rhs {
			g.expr(r)
		}
	}
	if multi {
		g.pushInt(int64(len(s.Lhs)))
		g.a.op(opcode.REVERSEN)
	}
	for i := len(s.Lhs) - 1; i >= 0; i-- {
		if id, ok := s.Lhs[i].(*ast.Ident); ok && s.Tok == token.DEFINE {
			if !multi {
				g.debugVar(id.Name, s.Rhs[i])
			}
			if id.Name != "_" {
				g.cur.local(id.Name)
			}
		}
		g.store(s.Lhs[i])
	}
}

// store pops the top of the stack into an assignable expression.
func (g *gen) store(lhs ast.Expr) {
	switch l := lhs.(type) {
	case *ast.Ident:
		g.storeName("", l.Name)
	case *ast.SelectorExpr:
		if pkg, ok := g.pkgQualifier(l); ok {
			g.storeName(pkg, l.Sel.Name)
			return
		}
		st, ok := structOf(g.p.typeOf(l.X))
		if !ok {
			g.errorf(l, "nested selector assigns not supported yet")
			return
		}
		g.expr(l.X)
		path := fieldPath(st, l.Sel.Name)
		if path == nil {
			g.errorf(l, "field %q not found", l.Sel.Name)
			return
		}
		g.loadPath(path[1:])
		g.pushInt(int64(path[0]))
		g.a.op(opcode.ROT, opcode.SETITEM)
	case *ast.IndexExpr:
		g.expr(l.X)
		g.expr(l.Index)
		g.a.op(opcode.ROT, opcode.SETITEM)
	default:
		g.errorf(lhs, "unsupported assignment target %T", lhs)
	}
}

func (g *gen) ret(s *ast.ReturnStmt) {
	g.a.newLabel()
	base := 0
	if len(g.inl) != 0 {
		base = g.inl[len(g.inl)-1].loopsBase
	}
	n := 0
	for _, l := range g.loops[base:] {
		n += l.size
	}
	g.dropN(n)
	if len(s.Results) == 0 {
		if g.cur.decl == nil {
			g.errorf(s, "return in an inlined call at package level is not supported")
			return
		}
		if res := g.cur.decl.Type.Results; res != nil {
			for _, r := range slices.Backward(res.List) {
				for _, id := range slices.Backward(r.Names) {
					if id.Name == "_" {
						g.zero(g.p.typeOf(r.Type))
					} else {
						g.loadName("", id.Name)
					}
				}
			}
		}
	} else {
		for _, r := range slices.Backward(s.Results) {
			g.expr(r)
		}
	}
	g.runDefers()
	g.seqPoint(s)
	if len(g.inl) == 0 {
		g.a.op(opcode.RET)
	} else {
		g.a.jump(opcode.JMPL, g.inl[len(g.inl)-1].ret)
	}
}

func (g *gen) ifStmt(s *ast.IfStmt) {
	g.cur.push()
	defer g.cur.pop()
	then, els, end := g.a.newLabel(), g.a.newLabel(), g.a.newLabel()
	if s.Init != nil {
		g.stmt(s.Init)
	}
	if s.Cond != nil {
		g.cond(s.Cond, true, false, els)
	}
	g.a.mark(then)
	g.stmt(s.Body)
	if s.Else != nil {
		g.a.jump(opcode.JMPL, end)
	}
	g.a.mark(els)
	if s.Else != nil {
		g.stmt(s.Else)
	}
	g.a.mark(end)
}

// loopName returns the name break/continue refer to: the statement's label
// or a fresh unique one.
func (g *gen) loopName() string {
	name := g.nextName
	g.nextName = ""
	if name == "" {
		g.nameSeq++
		name = fmt.Sprintf("@%d", g.nameSeq)
	}
	return name
}

func (g *gen) namedLabel(name string, kind int) label {
	l := g.a.newLabel()
	g.named[namedLabel{name, kind}] = l
	return l
}

func (g *gen) switchStmt(s *ast.SwitchStmt) {
	g.cur.push()
	defer g.cur.pop()
	if s.Init != nil {
		g.stmt(s.Init)
	}
	eq := opcode.EQUAL
	if s.Tag != nil {
		g.expr(s.Tag)
		if isNumber(g.p.typeOf(s.Tag)) {
			eq = opcode.NUMEQUAL
		}
	} else {
		g.a.op(opcode.PUSHT)
	}
	name := g.loopName()
	end := g.namedLabel(name, labelBreak)
	outerBreak := g.curBreak
	g.curBreak = name
	g.loops = append(g.loops, loopItem{name, 1})

	// A default clause that is not last swaps places with the last one.
	clauses := slices.Clone(s.Body.List)
	for i := range len(clauses) - 1 {
		if clauses[i].(*ast.CaseClause).List == nil {
			last := len(clauses) - 1
			clauses[i], clauses[last] = clauses[last], clauses[i]
			break
		}
	}
	starts := make([]label, len(clauses))
	for i := range starts {
		starts[i] = g.a.newLabel()
	}
	for i, c := range clauses {
		next := g.a.newLabel()
		cc := c.(*ast.CaseClause)
		for j, e := range cc.List {
			g.a.op(opcode.DUP)
			g.expr(e)
			g.a.op(eq)
			if j == len(cc.List)-1 {
				g.a.jump(opcode.JMPIFNOTL, next)
			} else {
				g.a.jump(opcode.JMPIFL, starts[i])
			}
		}
		g.cur.push()
		g.a.mark(starts[i])
		for j, st := range cc.Body {
			if br, ok := st.(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH && j == len(cc.Body)-1 {
				if i+1 >= len(starts) {
					g.errorf(st, "fallthrough in the last case")
					return
				}
				g.a.jump(opcode.JMPL, starts[i+1])
				break
			}
			g.stmt(st)
		}
		g.a.jump(opcode.JMPL, end)
		g.a.mark(next)
		g.cur.pop()
	}
	g.a.mark(end)
	g.popLoop()
	g.curBreak = outerBreak
}

func (g *gen) popLoop() {
	last := g.loops[len(g.loops)-1]
	g.dropN(last.size)
	g.loops = g.loops[:len(g.loops)-1]
}

func (g *gen) forStmt(s *ast.ForStmt) {
	g.cur.push()
	defer g.cur.pop()
	name := g.loopName()
	start := g.a.newLabel()
	end := g.namedLabel(name, labelBreak)
	post := g.namedLabel(name, labelContinue)
	outerFor, outerBreak := g.curFor, g.curBreak
	g.curFor, g.curBreak = name, name
	if s.Init != nil {
		g.stmt(s.Init)
	}
	g.loops = append(g.loops, loopItem{name, 0})
	g.a.mark(start)
	if s.Cond != nil {
		g.expr(s.Cond)
		g.a.jump(opcode.JMPIFNOTL, end)
	}
	g.stmt(s.Body)
	g.a.mark(post)
	if s.Post != nil {
		g.stmt(s.Post)
	}
	g.a.jump(opcode.JMPL, start)
	g.a.mark(end)
	g.popLoop()
	g.curFor, g.curBreak = outerFor, outerBreak
}

// rangeStmt keeps the collection, its length and the index on the stack
// (maps also keep their key array; integers only the bound and the
// index).
func (g *gen) rangeStmt(s *ast.RangeStmt) {
	g.cur.push()
	defer g.cur.pop()
	after := g.a.newLabel()
	name := g.loopName()
	start := g.a.newLabel()
	end := g.namedLabel(name, labelBreak)
	post := g.namedLabel(name, labelContinue)
	outerFor, outerBreak := g.curFor, g.curBreak
	g.curFor, g.curBreak = name, name

	g.expr(s.X)
	xt := g.p.typeOf(s.X)
	isM := isMap(xt)
	info, _, basic := basicInfo(xt)
	isInt := basic && info&types.IsInteger != 0
	if !isInt {
		g.a.op(opcode.DUP, opcode.ISNULL)
		g.a.skip(opcode.JMPIFNOT, 8)
		g.a.op(opcode.DROP)
		g.a.jump(opcode.JMPL, after)
		g.a.op(opcode.DUP)
		if isM {
			g.a.op(opcode.KEYS, opcode.DUP)
		}
		g.a.op(opcode.SIZE)
	}
	g.a.op(opcode.PUSH0)
	size := 3
	if isM {
		size++
	}
	if isInt {
		size--
	}
	g.loops = append(g.loops, loopItem{name, size})
	g.a.mark(start)
	g.a.op(opcode.OVER, opcode.OVER)
	g.a.jump(opcode.JMPLEL, end)

	var key, val *ast.Ident
	if s.Key != nil {
		id, ok := s.Key.(*ast.Ident)
		if !ok {
			g.errorf(s.Key, "only simple identifiers can be used for range loop keys")
			return
		}
		if id.Name != "_" {
			key = id
		}
	}
	if s.Value != nil {
		id, ok := s.Value.(*ast.Ident)
		if !ok {
			g.errorf(s.Value, "only simple identifiers can be used for range loop values")
			return
		}
		if id.Name != "_" {
			val = id
		}
	}
	keyOnStack := false
	if key != nil {
		if isM {
			g.rangeKey()
			if val != nil {
				g.a.op(opcode.DUP)
				keyOnStack = true
			}
		} else {
			g.a.op(opcode.DUP)
		}
		if s.Tok == token.DEFINE {
			g.cur.local(key.Name)
		}
		g.storeName("", key.Name)
	}
	if val != nil {
		if !keyOnStack {
			g.rangeKey()
		}
		if isM {
			g.pushInt(4)
			g.a.op(opcode.PICK, opcode.SWAP, opcode.PICKITEM)
		}
		if s.Tok == token.DEFINE {
			g.cur.local(val.Name)
		}
		g.storeName("", val.Name)
	}
	g.stmt(s.Body)
	g.a.mark(post)
	g.a.op(opcode.INC)
	g.a.jump(opcode.JMPL, start)
	g.a.mark(end)
	g.popLoop()
	g.a.mark(after)
	g.curFor, g.curBreak = outerFor, outerBreak
}

// rangeKey loads the element at the loop index from the collection (or
// key array) two items below it.
func (g *gen) rangeKey() {
	g.pushInt(2)
	g.a.op(opcode.PICK, opcode.OVER, opcode.PICKITEM)
}

func (g *gen) branch(s *ast.BranchStmt) {
	var name string
	switch {
	case s.Label != nil:
		name = s.Label.Name
	case s.Tok == token.BREAK:
		name = g.curBreak
	case s.Tok == token.CONTINUE:
		name = g.curFor
	}
	switch s.Tok {
	case token.BREAK, token.CONTINUE:
	case token.FALLTHROUGH:
		return
	default:
		g.errorf(s, "unsupported statement: %s", s.Tok)
		return
	}
	n := 0
	for i := len(g.loops) - 1; i >= 0 && g.loops[i].name != name; i-- {
		n += g.loops[i].size
	}
	g.dropN(n)
	kind := labelBreak
	if s.Tok == token.CONTINUE {
		kind = labelContinue
	}
	l, ok := g.named[namedLabel{name, kind}]
	if !ok {
		g.errorf(s, "no target for %s", s.Tok)
		return
	}
	g.a.jump(opcode.JMPL, l)
	if s.Label != nil {
		// neo-go then visits the label identifier as an expression: it
		// allocates a local of that name and loads it (dead code after
		// the jump). Kept for identical output.
		g.loadName("", s.Label.Name)
	}
}

// dropN drops n stack items.
func (g *gen) dropN(n int) {
	if n < 4 {
		for range n {
			g.a.op(opcode.DROP)
		}
		return
	}
	g.pushInt(int64(n))
	g.a.op(opcode.PACK, opcode.DROP)
}

// deferStmt opens a TRY block whose catch and finally handlers run the
// deferred call; a local flag records that the defer statement was
// reached.
func (g *gen) deferStmt(s *ast.DeferStmt) {
	catch, finally := g.a.newLabel(), g.a.newLabel()
	g.a.try(catch, finally)
	slot := g.cur.local(fmt.Sprintf("defer@%d", s.Call.Pos()))
	g.a.op(opcode.PUSH1)
	g.storeSlot(inLocal, slot)
	g.cur.defers = append(g.cur.defers, deferred{catch: catch, finally: finally, call: s.Call, flagSlot: slot})
}

// runDefers emits the handlers of the pending defers, innermost first.
// An exception is stored in the exception static slot; the catch handler
// runs the call and marks the finally handler done, the finally handler
// runs the call unless the catch did.
func (g *gen) runDefers() {
	for i := len(g.cur.defers) - 1; i >= 0; i-- {
		d := g.cur.defers[i]
		after := g.a.newLabel()
		g.loadSlot(inLocal, d.flagSlot)
		g.a.op(opcode.ISNULL)
		g.a.jump(opcode.JMPIFL, after)
		g.a.jump(opcode.ENDTRYL, after)
		g.a.mark(d.catch)
		g.storeSlot(inStatic, g.exceptionSlot)
		g.pushInt(1)
		done := g.resolve("", "<finally>")
		g.storeSlot(done.kind, done.index)
		g.expr(d.call)
		if i == 0 && g.cur.decl != nil && g.cur.decl.Type.Results != nil {
			for _, r := range slices.Backward(g.cur.decl.Type.Results.List) {
				g.zero(g.p.typeOf(r.Type))
			}
		}
		g.a.jump(opcode.ENDTRYL, after)
		g.a.mark(d.finally)
		skip := g.a.newLabel()
		g.loadSlot(done.kind, done.index)
		g.a.jump(opcode.JMPIFL, skip)
		g.expr(d.call)
		g.a.mark(skip)
		g.pushInt(0)
		g.storeSlot(done.kind, done.index)
		g.a.op(opcode.ENDFINALLY)
		g.a.mark(after)
	}
}
