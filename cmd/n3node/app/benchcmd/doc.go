// Package benchcmd is `n3node bench`: the TPS benchmark against a running
// node, its transaction cache (gen) and its reports (report, compare), over
// pkg/bench.
package benchcmd
