// Package layering holds the test that keeps the import graph in shape: it
// runs `go list` over the module and fails on forbidden edges (the VM must
// not know the ledger, consensus must not know the network, neo-go must never
// enter the main module, not even its tests — they live in the nested module
// internal/neogodiff — and so on). The rules live in layering_test.go.
package layering
