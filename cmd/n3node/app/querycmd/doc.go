// Package querycmd is `n3node query`: read-only questions to an RPC node
// (candidates, committee, height, notarypool, tx, voter) printed as neo-go
// 0.120.0's `query` commands print them, so scripts that parse neo-go's
// output work unchanged.
package querycmd
