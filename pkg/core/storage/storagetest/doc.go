// Package storagetest holds test helpers for code built on storage.Store:
// the conformance suite every Store implementation must pass (Run), a
// reference model of the Store semantics (Model), and a fault-injecting
// wrapper (FaultStore) that fails writes on demand or holds them at a hook.
//
// It is imported only from tests. Run fails the test if it was given no
// implementation to check.
package storagetest
