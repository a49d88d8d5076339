// Package contractcmd is `n3node contract`: deploy, invokefunction,
// testinvokefunction and testinvokescript over RPC, with the arguments and
// signers of package txsend.
package contractcmd
