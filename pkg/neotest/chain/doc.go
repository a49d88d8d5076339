// Package chain makes the ledgers neotest runs on: an n3node
// core.Blockchain over a memory store with one validator (NewSingle) or
// four validators and a six-member committee (NewMulti), with the keys and
// protocol settings of neo-go's neotest/chain (magic 42, the well-known
// test keys), so that contract tests see the same accounts and addresses.
package chain
