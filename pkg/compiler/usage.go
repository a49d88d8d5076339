package compiler

import (
	"go/ast"
	"go/token"
)

// usage is the result of the reachability pass: the functions whose code
// is emitted and the global variables that get a static slot.
type usage struct {
	funcs map[string]bool
	// dead holds the names of global variables nobody reads; they are
	// compiled as if declared `_`.
	dead map[*ast.Ident]bool
}

// globalDecl is a named package-level variable.
type globalDecl struct {
	spec    *ast.ValueSpec
	idx     int
	ident   *ast.Ident
	imports map[string]string
	pkgPath string
}

// valueOf returns the expression initialising the variable, if it is its
// own (not the second result of a multi-value call).
func (d globalDecl) valueOf() ast.Expr {
	if len(d.spec.Values) == 0 {
		return nil
	}
	if d.idx == 0 || len(d.spec.Values) == len(d.spec.Names) {
		return d.spec.Values[d.idx]
	}
	return nil
}

// refScan is an expression with the import table its names resolve in.
type refScan struct {
	node    ast.Node
	imports map[string]string
	pkgPath string
}

// analyseUsage finds the used functions and global variables, breadth
// first from the roots: exported functions and methods of the contract
// package, init and _deploy functions, and calls made by package-level
// variable initialisers of any package. A global is used when a used
// function or a used global's initialiser names it, or when its
// initialiser contains a call. Names are matched textually (package path
// plus name), as neo-go does, so a local variable shadowing a global keeps
// the global alive.
func (g *gen) analyseUsage() usage {
	funcDecls := map[string]*ast.FuncDecl{}
	funcCtx := map[string]refScan{}
	globals := map[string]globalDecl{}
	pending := map[string]bool{}
	var scans []refScan

	for _, pkg := range g.p.order {
		isMain := pkg == g.p.main
		for _, file := range pkg.Syntax {
			imps := g.fileImports(file)
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if name, ok := g.calleeName(n.Fun, imps); ok {
						pending[name] = true
					}
				case *ast.FuncDecl:
					name := funcKey(pkg.PkgPath, n)
					if isMain && n.Name.IsExported() || isInitFunc(n) || isDeployFunc(n) {
						pending[name] = true
					}
					funcDecls[name] = n
					funcCtx[name] = refScan{node: n.Body, imports: imps, pkgPath: pkg.PkgPath}
					return false
				case *ast.GenDecl:
					if n.Tok != token.VAR {
						return true
					}
					for _, s := range n.Specs {
						vs := s.(*ast.ValueSpec)
						for j, id := range vs.Names {
							d := globalDecl{spec: vs, idx: j, ident: id, imports: imps, pkgPath: pkg.PkgPath}
							if id.Name != "_" {
								globals[pkg.PkgPath+"."+id.Name] = d
							}
							if v := d.valueOf(); v != nil && containsCall(v) {
								scans = append(scans, refScan{node: v, imports: imps, pkgPath: pkg.PkgPath})
							}
						}
					}
				}
				return true
			})
		}
	}

	usedGlobals := map[string]bool{}
	pendingGlobals := map[string]bool{}
	mark := func(name string) {
		if _, ok := globals[name]; ok {
			pendingGlobals[name] = true
		}
	}
	g.scanRefs(scans, mark)

	used := map[string]bool{}
	for len(pending) != 0 || len(pendingGlobals) != 0 {
		scans = scans[:0]
		nextFuncs := map[string]bool{}
		for name := range pending {
			decl, ok := funcDecls[name]
			if !ok || used[name] {
				continue
			}
			used[name] = true
			ctx := funcCtx[name]
			ast.Inspect(decl, func(n ast.Node) bool {
				if ce, ok := n.(*ast.CallExpr); ok {
					if callee, ok := g.calleeName(ce.Fun, ctx.imports); ok {
						nextFuncs[callee] = true
					}
				}
				return true
			})
			scans = append(scans, ctx)
		}
		for name := range pendingGlobals {
			if usedGlobals[name] {
				continue
			}
			usedGlobals[name] = true
			d := globals[name]
			if v := d.valueOf(); v != nil {
				scans = append(scans, refScan{node: v, imports: d.imports, pkgPath: d.pkgPath})
			}
		}
		pendingGlobals = map[string]bool{}
		g.scanRefs(scans, mark)
		pending = nextFuncs
	}

	u := usage{funcs: used, dead: map[*ast.Ident]bool{}}
	for name, d := range globals {
		if !usedGlobals[name] {
			u.dead[d.ident] = true
		}
	}
	return u
}

// calleeName is the function key a call's callee expression names, for
// identifiers and selectors.
func (g *gen) calleeName(fun ast.Expr, imps map[string]string) (string, bool) {
	switch f := fun.(type) {
	case *ast.Ident:
		return imps[""] + "." + f.Name, true
	case *ast.SelectorExpr:
		name, _ := g.selectorKey(f, imps)
		return name, true
	}
	return "", false
}

// scanRefs reports the qualified names the given nodes refer to. It looks
// where neo-go looks: identifiers, package-qualified names, receivers of
// field and method selectors, call arguments and composite literal
// elements that are not literals, and the callee of a deferred call.
func (g *gen) scanRefs(work []refScan, mark func(string)) {
	for len(work) != 0 {
		var next []refScan
		for _, w := range work {
			sub := func(n ast.Node) { next = append(next, refScan{node: n, imports: w.imports, pkgPath: w.pkgPath}) }
			ast.Inspect(w.node, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.KeyValueExpr:
					sub(n.Value)
				case *ast.CallExpr:
					if se, ok := n.Fun.(*ast.SelectorExpr); ok {
						sub(se)
					}
					for _, a := range n.Args {
						if _, lit := a.(*ast.BasicLit); !lit {
							sub(a)
						}
					}
				case *ast.SelectorExpr:
					if g.p.info.Selections[n] != nil {
						switch n.X.(type) {
						case *ast.Ident, *ast.CompositeLit, *ast.SelectorExpr:
							sub(n.X)
						}
					} else if id, ok := n.X.(*ast.Ident); ok {
						mark(qualify(w.imports, id.Name, n.Sel.Name))
					}
				case *ast.CompositeLit:
					for _, e := range n.Elts {
						if _, lit := e.(*ast.BasicLit); !lit {
							sub(e)
						}
					}
				case *ast.Ident:
					mark(w.pkgPath + "." + n.Name)
				case *ast.DeferStmt:
					sub(n.Call.Fun)
				case *ast.BasicLit:
				default:
					return true
				}
				return false
			})
		}
		work = next
	}
}

// containsCall reports whether n has a call anywhere outside identifiers.
func containsCall(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n.(type) {
		case *ast.CallExpr:
			found = true
		case *ast.Ident:
			return false
		}
		return !found
	})
	return found
}

// qualify resolves pkg (an import alias, or "" for the file's own package)
// through an import table; unknown qualifiers are kept as they are.
func qualify(imps map[string]string, pkg, name string) string {
	if full, ok := imps[pkg]; ok {
		pkg = full
	}
	return pkg + "." + name
}
