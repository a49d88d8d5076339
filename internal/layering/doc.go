// Package layering holds the test that keeps the import graph in shape: it
// runs `go list` over the module and fails on forbidden edges (the VM must
// not know the ledger, consensus must not know the network, neo-go must never
// enter production code, and so on). The rules live in layering_test.go.
package layering
