package compiler

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"golang.org/x/tools/go/packages"
)

// interopPath prefixes the packages of neo-go's contract API. Their
// functions are never compiled on their own: they are inlined at each call
// (their bodies wrap syscalls, native calls and opcodes).
const interopPath = "github.com/nspcc-dev/neo-go/pkg/interop"

func isInterop(path string) bool { return strings.HasPrefix(path, interopPath) }

// inlineFrame is an inlined call in progress.
type inlineFrame struct {
	pkg       *packages.Package
	loopsBase int
	ret       label
}

// loopItem is an enclosing loop or switch with the number of stack items
// it keeps while its body runs (break and continue drop them).
type loopItem struct {
	name string
	size int
}

type namedLabel struct {
	name string
	kind int
}

const (
	labelBreak = iota
	labelContinue
)

// gen is the code generator. It walks the loaded program once, in
// neo-go's order: static slot setup, global initialisers and init
// functions, _deploy, then each used function in package and file order.
type gen struct {
	p    *program
	a    asm
	opts *Options
	use  usage

	funcs       map[string]*fn
	pendingLits []*fn
	litByBody   map[*ast.BlockStmt]*fn
	globals     map[string]int
	importsOf   map[*ast.File]map[string]string

	imports  map[string]string // the import table of the file being walked
	cur      *fn
	inl      []inlineFrame
	loops    []loopItem
	named    map[namedLabel]label
	curFor   string
	curBreak string
	nextName string
	nameSeq  int

	seq                 map[string][]seqPoint
	initEnd, deployEnd  int
	initVars, deployVar []string
	staticVars          []string
	globalInlineLocals  int
	exceptionSlot       int

	events       map[string][]emittedEvent
	invoked      map[hash.Uint160][]string
	invokedOrder []hash.Uint160
	tokens       []nef.MethodToken
}

func newGen(p *program, o *Options) *gen {
	return &gen{
		p: p, opts: o,
		funcs:     map[string]*fn{},
		litByBody: map[*ast.BlockStmt]*fn{},
		globals:   map[string]int{},
		importsOf: map[*ast.File]map[string]string{},
		named:     map[namedLabel]label{},
		seq:       map[string][]seqPoint{},
		initEnd:   -1, deployEnd: -1,
		events:  map[string][]emittedEvent{},
		invoked: map[hash.Uint160][]string{},
	}
}

func (g *gen) errorf(n ast.Node, format string, args ...any) {
	pos := "?"
	if n != nil && n.Pos().IsValid() {
		pos = g.p.where(n)
	}
	g.a.fail(fmt.Errorf("%s: %s", pos, fmt.Sprintf(format, args...)))
}

func (g *gen) failed() bool { return g.a.err != nil }

// fileImports maps the import names of file (and "" for its own package)
// to package paths.
func (g *gen) fileImports(file *ast.File) map[string]string {
	if m, ok := g.importsOf[file]; ok {
		return m
	}
	pkg := g.p.fileOf[file]
	m := map[string]string{"": pkg.PkgPath}
	for _, imp := range file.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		dep := pkg.Imports[path]
		if dep == nil {
			continue
		}
		name := dep.Name
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = dep.PkgPath
	}
	g.importsOf[file] = m
	return m
}

// funcKey names a declared function: package path, receiver type, name.
func funcKey(pkgPath string, d *ast.FuncDecl) string {
	name := d.Name.Name
	if d.Recv != nil && len(d.Recv.List) > 0 {
		t := d.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X
		}
		if id, ok := t.(*ast.Ident); ok {
			name = id.Name + "." + name
		}
	}
	return pkgPath + "." + name
}

// selectorKey names the function a selector calls and tells whether it is
// a method (the receiver is then the first argument).
func (g *gen) selectorKey(se *ast.SelectorExpr, imps map[string]string) (string, bool) {
	if g.p.info.Selections[se] != nil {
		name := qualify(imps, g.p.info.TypeOf(se.X).String(), se.Sel.Name)
		return strings.TrimPrefix(name, "*"), true
	}
	id, ok := se.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	return qualify(imps, id.Name, se.Sel.Name), false
}

func isInitFunc(d *ast.FuncDecl) bool {
	return d.Name.Name == "init" && d.Recv == nil && d.Type.Params.NumFields() == 0 && d.Type.Results.NumFields() == 0
}

func isDeployFunc(d *ast.FuncDecl) bool {
	if d.Name.Name != "_deploy" || d.Recv != nil || d.Type.Params.NumFields() != 2 || d.Type.Results.NumFields() != 0 {
		return false
	}
	id, ok := d.Type.Params.List[len(d.Type.Params.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "bool"
}

// forEachFile visits the files of every package in initialisation order
// with g.imports set to the file's import table.
func (g *gen) forEachFile(visit func(pkg *packages.Package, file *ast.File)) {
	for _, pkg := range g.p.order {
		for _, file := range pkg.Syntax {
			g.imports = g.fileImports(file)
			visit(pkg, file)
		}
	}
}

// generate emits the whole program.
func (g *gen) generate() error {
	g.use = g.analyseUsage()
	if g.failed() {
		return g.a.err
	}
	g.forEachFile(func(pkg *packages.Package, file *ast.File) {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				f := newFn(fd.Name.Name, fd, pkg, g.a.newLabel())
				f.file = file
				g.funcs[funcKey(pkg.PkgPath, fd)] = f
			}
		}
	})
	hasDeploy := g.emitInit()
	if hasDeploy {
		g.emitDeploy()
	}
	g.forEachFile(func(pkg *packages.Package, file *ast.File) {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || isInitFunc(fd) || isDeployFunc(fd) || isInterop(pkg.PkgPath) ||
				inlined(pkg.PkgPath, fd.Name.Name, false) || g.failed() {
				continue
			}
			key := funcKey(pkg.PkgPath, fd)
			if g.use.funcs[key] {
				g.function(g.funcs[key], file)
			}
		}
	})
	return g.a.err
}

// emitInit emits _initialize: the static slot count, every package's
// global initialisers and init functions. It reports whether any package
// declares _deploy.
func (g *gen) emitInit() bool {
	var nVars, nConsts int
	var blankCall, hasDefer, hasDeploy bool
	for _, pkg := range g.p.order {
		for _, file := range pkg.Syntax {
			for _, d := range file.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || (gd.Tok != token.VAR && gd.Tok != token.CONST) {
					continue
				}
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for j, id := range vs.Names {
						switch {
						case !g.blank(id) && gd.Tok == token.VAR:
							nVars++
						case !g.blank(id):
							nConsts++
						case gd.Tok == token.VAR && len(vs.Values) != 0 && !blankCall:
							k := j
							if len(vs.Values) != len(vs.Names) {
								k = 0
							}
							blankCall = containsCall(vs.Values[k])
						}
					}
				}
			}
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					hasDeploy = hasDeploy || isDeployFunc(n)
				case *ast.DeferStmt:
					hasDefer = true
				}
				return true
			})
		}
	}
	if hasDefer {
		nVars++
	}
	if nVars > 255 {
		g.a.fail(fmt.Errorf("too many global variables"))
		return hasDeploy
	}
	if nVars != 0 {
		g.a.instr(opcode.INITSSLOT, byte(nVars))
	}
	initAt := g.a.pos()
	inits := sharedFrame{name: "init", prev: -1}
	g.a.initSlot(&inits.locals, 0, "init")
	for _, pkg := range g.p.order {
		if nVars+nConsts > 0 || blankCall {
			for _, file := range pkg.Syntax {
				g.imports = g.fileImports(file)
				for _, d := range file.Decls {
					if gd, ok := d.(*ast.GenDecl); ok {
						g.genDecl(gd)
					}
				}
			}
		}
		for _, file := range pkg.Syntax {
			g.imports = g.fileImports(file)
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !isInitFunc(fd) {
					continue
				}
				g.sharedBody(&inits, fd, pkg, file)
			}
		}
		g.cur = nil
	}
	inits.locals = max(inits.locals, g.globalInlineLocals)
	g.initVars = inits.vars
	if g.a.pos() == initAt+3 {
		g.a.truncate(initAt)
	} else {
		initAt = -1
	}
	if g.a.pos() != 0 {
		g.initEnd = g.a.pos()
		g.a.op(opcode.RET)
	}
	if hasDefer {
		g.exceptionSlot = len(g.globals)
		g.globals["<exception>"] = g.exceptionSlot
	}
	return hasDeploy
}

// clearLocals resets the first n local slots between two init or _deploy
// functions sharing one frame.
func (g *gen) clearLocals(n int) {
	for i := range max(n, 0) {
		g.a.op(opcode.PUSHNULL)
		g.storeSlot(inLocal, i)
	}
}

// emitDeploy emits _deploy: every package's _deploy functions in one frame
// with the two arguments (data, isUpdate).
func (g *gen) emitDeploy() {
	deploys := sharedFrame{name: "_deploy", prev: -1}
	g.a.initSlot(&deploys.locals, 2, "_deploy")
	g.forEachFile(func(pkg *packages.Package, file *ast.File) {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && isDeployFunc(fd) {
				g.sharedBody(&deploys, fd, pkg, file)
			}
		}
	})
	g.deployVar = deploys.vars
	g.deployEnd = g.a.pos()
	g.a.op(opcode.RET)
}

// sharedFrame is the one frame all init (or all _deploy) functions of the
// program run in, one after another.
type sharedFrame struct {
	name   string
	locals int // the largest frame needed
	prev   int // locals of the previous function, -1 before the first
	vars   []string
}

// sharedBody emits one init or _deploy function into its shared frame,
// first resetting the locals the previous one used.
func (g *gen) sharedBody(s *sharedFrame, fd *ast.FuncDecl, pkg *packages.Package, file *ast.File) {
	g.clearLocals(s.prev)
	f := newFn(s.name, fd, pkg, g.a.newLabel())
	f.file = file
	g.body(f, false)
	s.vars = append(s.vars, f.vars...)
	s.prev = f.nlocals
	s.locals = max(s.locals, f.nlocals)
}

// function emits a declared function (or a literal) at its label, then the
// literals it contains.
func (g *gen) function(f *fn, file *ast.File) {
	g.a.mark(f.lbl)
	f.file = file
	g.body(f, true)
	if !f.lit {
		for len(g.pendingLits) != 0 {
			lit := g.pendingLits[0]
			g.pendingLits = g.pendingLits[1:]
			g.function(lit, file)
		}
	}
}

// body emits a function body. Ordinary functions get their own INITSLOT;
// init and _deploy bodies share the frame set up by their caller.
func (g *gen) body(f *fn, own bool) {
	f.start = g.a.pos()
	f.compiled = true
	g.cur = f
	f.markVoidCalls(f.decl)
	if own {
		n := f.argCount()
		if n > 255 {
			g.errorf(f.decl, "maximum of 255 local variables is allowed")
		}
		g.a.initSlot(&f.nlocals, n, f.name)
	}
	f.push()
	if f.decl.Recv != nil {
		for _, r := range f.decl.Recv.List {
			name := "_"
			if len(r.Names) != 0 {
				name = r.Names[0].Name
			}
			f.arg(name)
		}
	}
	for _, p := range f.decl.Type.Params.List {
		for _, id := range p.Names {
			f.arg(id.Name)
		}
	}
	if f.decl.Type.Results != nil {
		for _, r := range f.decl.Type.Results.List {
			for _, id := range r.Names {
				if id.Name != "_" {
					i := f.local(id.Name)
					g.zero(g.p.typeOf(r.Type))
					g.storeSlot(inLocal, i)
				}
			}
		}
	}
	g.stmt(f.decl.Body)
	if own && !endsWithReturn(f.decl.Body) {
		g.runDefers()
		g.seqPoint(f.decl.Body)
		g.a.op(opcode.RET)
	}
	f.pop()
	f.end = g.a.pos() - 1
}

func endsWithReturn(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.BlockStmt:
		return endsWithReturn(s)
	case *ast.ReturnStmt:
		return true
	}
	return false
}

// blank reports whether a declared name gets no slot: `_` or an unused
// global.
func (g *gen) blank(id *ast.Ident) bool { return id.Name == "_" || g.use.dead[id] }

// isBool and friends classify Go types the way code generation needs.
func basicInfo(t types.Type) (types.BasicInfo, types.BasicKind, bool) {
	if t == nil {
		return 0, 0, false
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return 0, 0, false
	}
	return b.Info(), b.Kind(), true
}

func isBool(t types.Type) bool {
	_, k, ok := basicInfo(t)
	return ok && (k == types.Bool || k == types.UntypedBool)
}

func isNumber(t types.Type) bool {
	i, _, ok := basicInfo(t)
	return ok && i&types.IsNumeric != 0
}

func isString(t types.Type) bool {
	_, k, ok := basicInfo(t)
	return ok && k == types.String
}

func isByte(t types.Type) bool {
	_, k, ok := basicInfo(t)
	return ok && (k == types.Uint8 || k == types.Int8)
}

func isByteSlice(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Slice)
	return ok && isByte(s.Elem())
}

func isMap(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// structOf returns the struct type of t or of the type t points to.
func structOf(t types.Type) (*types.Struct, bool) {
	if t == nil {
		return nil, false
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return u, true
	case *types.Pointer:
		s, ok := u.Elem().Underlying().(*types.Struct)
		return s, ok
	}
	return nil, false
}

// fieldPath locates a field, descending into embedded structs; the path is
// innermost first.
func fieldPath(s *types.Struct, name string) []int {
	for i := range s.NumFields() {
		if s.Field(i).Name() == name {
			return []int{i}
		}
	}
	for i := range s.NumFields() {
		f := s.Field(i)
		if !f.Embedded() {
			continue
		}
		if inner, ok := structOf(f.Type()); ok {
			if p := fieldPath(inner, name); p != nil {
				return append(p, i)
			}
		}
	}
	return nil
}
