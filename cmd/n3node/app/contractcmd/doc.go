// Package contractcmd is `n3node contract`: compile (a thin shell over
// pkg/compiler), deploy, invokefunction,
// testinvokefunction and testinvokescript over RPC, with the arguments and
// signers of package txsend.
package contractcmd
