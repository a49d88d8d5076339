package compiler

import (
	"go/ast"
	"slices"
	"strconv"

	"golang.org/x/tools/go/packages"
)

// slotKind says which slot array a variable lives in.
type slotKind int

const (
	inStatic slotKind = iota
	inLocal
	inArg
	// inAlias marks a parameter of an inlined call bound to the argument
	// expression itself, evaluated at each use.
	inAlias
)

// binding is what a name resolves to inside a function.
type binding struct {
	kind  slotKind
	index int
	alias *aliasExpr
}

// aliasExpr is an inlined call's argument with the context it must be
// evaluated in.
type aliasExpr struct {
	expr    ast.Expr
	imports map[string]string
	blocks  []map[string]binding
}

// deferred is one `defer` of a function.
type deferred struct {
	catch, finally label
	call           *ast.CallExpr
	flagSlot       int
}

// fn is a function being compiled: a declared function, an init or
// _deploy function, a function literal or the temporary frame of an inlined
// call made while initialising globals.
type fn struct {
	name string // short name; sequence points are keyed by it
	decl *ast.FuncDecl
	pkg  *packages.Package
	file *ast.File
	lbl  label
	// start and end are the pre-link positions of the first and last byte.
	start, end int
	compiled   bool
	// lit marks a function literal.
	lit bool

	args    map[string]int
	blocks  []map[string]binding
	nlocals int
	vars    []string
	defers  []deferred
	void    map[*ast.CallExpr]bool
}

func newFn(name string, decl *ast.FuncDecl, pkg *packages.Package, lbl label) *fn {
	return &fn{name: name, decl: decl, pkg: pkg, lbl: lbl, args: map[string]int{}, void: map[*ast.CallExpr]bool{}, vars: []string{}}
}

func (f *fn) push() { f.blocks = append(f.blocks, map[string]binding{}) }
func (f *fn) pop()  { f.blocks = f.blocks[:len(f.blocks)-1] }

// local allocates the next local slot for name in the innermost block.
// Slots are never reused within a function.
func (f *fn) local(name string) int {
	f.blocks[len(f.blocks)-1][name] = binding{kind: inLocal, index: f.nlocals}
	f.nlocals++
	return f.nlocals - 1
}

// arg allocates the next argument slot; blank names get a unique
// placeholder.
func (f *fn) arg(name string) {
	if name == "_" {
		name = "%_" + strconv.Itoa(len(f.args))
	}
	f.args[name] = len(f.args)
}

func (f *fn) lookup(name string) (binding, bool) {
	for _, b := range slices.Backward(f.blocks) {
		if v, ok := b[name]; ok {
			return v, true
		}
	}
	if i, ok := f.args[name]; ok {
		return binding{kind: inArg, index: i}, true
	}
	return binding{}, false
}

// markVoidCalls records the calls used as statements: their results are
// dropped.
func (f *fn) markVoidCalls(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok {
			if ce, ok := es.X.(*ast.CallExpr); ok {
				f.void[ce] = true
			}
		}
		return true
	})
}

func (f *fn) argCount() int {
	n := f.decl.Type.Params.NumFields()
	if f.decl.Recv != nil {
		n += f.decl.Recv.NumFields()
	}
	return n
}
