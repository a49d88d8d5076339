package compiler

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// program is a loaded contract: its packages in initialisation order (imports
// first, the contract's own package last), one type-information table merged
// over all of them (AST nodes are unique across packages) and the source
// documents in file-set order.
type program struct {
	fset   *token.FileSet
	main   *packages.Package
	order  []*packages.Package
	byPath map[string]*packages.Package
	info   *types.Info
	// fileOf gives the package of each parsed file.
	fileOf map[*ast.File]*packages.Package
	docs   []string
	docIdx map[string]int
}

// load parses and type-checks the contract at path (a directory or a single
// .go file; a single file is compiled without its sibling files, as `go run`
// does) with every package it imports.
func load(path string) (*program, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir, single := abs, strings.HasSuffix(abs, ".go")
	if single {
		dir = filepath.Dir(abs)
	}
	fset := token.NewFileSet()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps |
			packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Fset: fset,
		Dir:  dir,
		ParseFile: func(fs *token.FileSet, name string, src []byte) (*ast.File, error) {
			if single && filepath.Dir(name) == dir && name != abs {
				return nil, nil
			}
			return parser.ParseFile(fs, name, src, parser.AllErrors)
		},
	}
	query := "pattern=" + abs
	if single {
		query = "file=" + abs
	}
	pkgs, err := packages.Load(cfg, query)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	if len(pkgs) == 0 {
		return nil, errors.New("empty package")
	}
	for _, p := range pkgs {
		if len(p.Errors) != 0 {
			return nil, p.Errors[0]
		}
	}
	prog := &program{
		fset:   fset,
		main:   pkgs[0],
		byPath: map[string]*packages.Package{},
		fileOf: map[*ast.File]*packages.Package{},
		docIdx: map[string]int{},
		info: &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
		},
	}
	if err := prog.orderFrom(prog.main, map[string]bool{}); err != nil {
		return nil, err
	}
	for _, p := range prog.order {
		for _, f := range p.Syntax {
			prog.fileOf[f] = p
		}
		for k, v := range p.TypesInfo.Types {
			prog.info.Types[k] = v
		}
		for k, v := range p.TypesInfo.Defs {
			prog.info.Defs[k] = v
		}
		for k, v := range p.TypesInfo.Uses {
			prog.info.Uses[k] = v
		}
		for k, v := range p.TypesInfo.Selections {
			prog.info.Selections[k] = v
		}
	}
	// Documents are numbered in initialisation order, file by file. neo-go
	// numbers them in the order the loader happened to parse them, which
	// varies from run to run; ours is stable.
	for _, p := range prog.order {
		for _, f := range p.Syntax {
			name := fset.File(f.Pos()).Name()
			if _, dup := prog.docIdx[name]; !dup {
				prog.docIdx[name] = len(prog.docs)
				prog.docs = append(prog.docs, name)
			}
		}
	}
	return prog, nil
}

// orderFrom appends p after everything it imports (depth first, in the
// order of the type checker's import list).
func (p *program) orderFrom(pkg *packages.Package, seen map[string]bool) error {
	if seen[pkg.PkgPath] {
		return nil
	}
	for _, imp := range pkg.Types.Imports() {
		sub := pkg.Imports[imp.Path()]
		if sub == nil {
			return fmt.Errorf("failed to load %q package from %q, import cycle?", imp.Path(), pkg.PkgPath)
		}
		if err := p.orderFrom(sub, seen); err != nil {
			return err
		}
	}
	seen[pkg.PkgPath] = true
	p.order = append(p.order, pkg)
	p.byPath[pkg.PkgPath] = pkg
	return nil
}

// where formats a position as file:line:column.
func (p *program) where(n ast.Node) string {
	return p.fset.Position(n.Pos()).String()
}

// typeOf returns the type of e, or nil.
func (p *program) typeOf(e ast.Expr) types.Type {
	if e == nil {
		return nil
	}
	return p.info.TypeOf(e)
}

// tv returns the recorded type and constant value of e.
func (p *program) tv(e ast.Expr) types.TypeAndValue {
	if tv, ok := p.info.Types[e]; ok {
		return tv
	}
	if se, ok := e.(*ast.SelectorExpr); ok {
		if s, ok := p.info.Selections[se]; ok {
			return types.TypeAndValue{Type: s.Type()}
		}
	}
	return types.TypeAndValue{}
}
