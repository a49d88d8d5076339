package compiler

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
)

// Errors of contract methods (the manifest cannot describe them).
var (
	// ErrMissingExportedParamName: an exported function has an unnamed or
	// blank parameter.
	ErrMissingExportedParamName = errors.New("exported method is not allowed to have unnamed parameter")
	// ErrInvalidExportedRetCount: an exported function returns more than
	// one value.
	ErrInvalidExportedRetCount = errors.New("exported method is not allowed to have more than one return value")
)

// checkSubset rejects constructs the code generator does not support,
// naming the file, line and construct. It runs over the contract's own
// packages (everything outside the interop module).
func checkSubset(p *program) error {
	var err error
	fail := func(n ast.Node, what string) {
		if err == nil {
			err = fmt.Errorf("%s: %s is not supported", p.where(n), what)
		}
	}
	checkExported := func(n *ast.FuncDecl, _ func(ast.Node, string)) {
		for i, f := range n.Type.Params.List {
			if len(f.Names) == 0 && err == nil {
				err = fmt.Errorf("%s: %w: %s", p.where(f), ErrMissingExportedParamName, n.Name.Name)
			}
			for _, id := range f.Names {
				if id.Name == "_" && err == nil {
					err = fmt.Errorf("%s: %w: %s/%d", p.where(id), ErrMissingExportedParamName, n.Name.Name, i)
				}
			}
		}
		if k := n.Type.Results.NumFields(); k > 1 && err == nil {
			err = fmt.Errorf("%s: %w: %s/%d return values", p.where(n), ErrInvalidExportedRetCount, n.Name.Name, k)
		}
	}
	for _, pkg := range p.order {
		if isInterop(pkg.PkgPath) {
			continue
		}
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if err != nil {
					return false
				}
				switch n := n.(type) {
				case *ast.FuncDecl:
					if pkg == p.main && n.Name.IsExported() && n.Recv == nil {
						checkExported(n, fail)
					}
					if n.Type.TypeParams != nil {
						fail(n, "generic function "+n.Name.Name)
					}
					if n.Recv != nil && len(n.Recv.List) > 0 {
						t := n.Recv.List[0].Type
						if s, ok := t.(*ast.StarExpr); ok {
							t = s.X
						}
						switch t.(type) {
						case *ast.IndexExpr, *ast.IndexListExpr:
							fail(n, "generic receiver")
						}
					}
				case *ast.TypeSpec:
					if n.TypeParams != nil {
						fail(n, "generic type "+n.Name.Name)
					}
				case *ast.GoStmt:
					fail(n, "go statement")
				case *ast.SelectStmt:
					fail(n, "select statement")
				case *ast.SendStmt:
					fail(n, "channel send")
				case *ast.ChanType:
					fail(n, "channel type")
				case *ast.TypeSwitchStmt:
					fail(n, "type switch")
				case *ast.BranchStmt:
					if n.Tok == token.GOTO {
						fail(n, "goto")
					}
				case *ast.UnaryExpr:
					if n.Op == token.ARROW {
						fail(n, "channel receive")
					}
				case *ast.BinaryExpr:
					if n.Op == token.AND_NOT {
						fail(n, "operator &^")
					}
				case *ast.AssignStmt:
					if n.Tok == token.AND_NOT_ASSIGN || n.Tok == token.XOR_ASSIGN {
						fail(n, "operator "+n.Tok.String())
					}
				}
				return true
			})
		}
	}
	return err
}
