// Package bintriediff holds the differential tests and side-by-side
// benchmarks of pkg/core/bintrie against go-ethereum's trie/bintrie
// (module github.com/ethereum/go-ethereum, pinned to v1.17.10).
//
// It is a separate Go module so that go-ethereum never enters the main
// go.mod, go.sum or any shipped binary, and so that the main module's
// `go test ./...` skips it. Run it with `make bintrie-diff` (tests) and
// `make bintrie-bench` (benchmarks). The package has no non-test code.
package bintriediff
