// Package utilcmd is `n3node util`: convert (every reading of a value, as
// neo-go prints it; --explain for n3node's annotated form), ops (a script's
// instructions), txdump and sendtx (parameter context files), canceltx (a conflicting
// transaction), with the
// outputs of neo-go 0.120.0's util commands. DumpTx is shared
// with `n3node query`.
package utilcmd
