package compiler

import (
	"fmt"
	"go/ast"
	"go/token"
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
