// Package neogo runs the reference node neo-go as a child process for
// differential tests, benchmarks and fixture generation.
//
// It knows nothing of n3node's own packages: it finds (or fetches, through
// scripts/get-neogo.sh) the neo-go binary, renders a node configuration from a
// template, starts `neogo node`, waits until its JSON-RPC server answers, and
// stops it again; it also wraps `neogo db dump` and `neogo db restore`. Client
// is a minimal JSON-RPC 2.0 client over HTTP that returns the raw result or
// error JSON, so callers can record and compare answers byte for byte.
//
// Caller obligations: every started Node must be stopped (Stop is idempotent
// and also kills the process if it ignores SIGINT); a node's directory holds
// its database and log and belongs to the caller. Raw JSON returned by Client
// is a fresh slice owned by the caller.
package neogo
