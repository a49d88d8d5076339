// Package mpttest builds MPTs for tests: a seeded random trie over a
// memory store, flushed at height 1. State sync's tests and the differential
// tests against neo-go (internal/neogodiff) use it.
package mpttest
