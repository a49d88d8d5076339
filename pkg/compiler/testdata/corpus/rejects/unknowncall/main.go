// want: main.go:7:9: unsupported call of *ast.IndexExpr
package unknowncall

var fs = []func() int{}

func Main() int {
	return fs[0]()
}
