// Package clidiff holds the CLI differential test of issue 15 (make
// cli-diff): the same command lines run by neo-go 0.120.0's CLI against a
// neo-go node and against an n3node node, and by n3node's own CLI against
// the n3node node, with hashes, heights and other values that differ
// between two chains masked; the outputs must agree. Offline commands
// (util convert/ops, wallet file commands, contract inspect/calc-hash)
// run once per CLI. It has no code besides the test.
package clidiff
