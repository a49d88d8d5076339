// Package neogodiff holds the tests that import neo-go 0.120.0 as a
// library: differential tests (the same input through n3node's code and
// neo-go's, compared byte for byte) and side-by-side benchmarks. The tree
// mirrors the main module's: neogodiff/consensus tests pkg/consensus,
// neogodiff/rpcserver/chainrpc tests pkg/rpcserver/chainrpc, and so on.
//
// It is a separate Go module (with `replace github.com/n3node/n3node =>
// ../..`) so that neo-go never enters the main go.mod, go.sum or any
// shipped binary, and the main module's `go test ./...` skips it; the
// layering test fails on any import of neo-go from the main module. Run it
// with `make neogo-diff` (part of `make integration`). The tests use only
// the exported API of the main module; where they need more, the package
// under test exports a small hook named for what it does.
//
// Testdata: the tests read the main module's testdata through relative
// paths (../../pkg/...), and keep their own fuzz corpora under testdata/.
package neogodiff
