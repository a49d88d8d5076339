// Package contractcmd is `n3node contract`: compile (a thin shell over
// pkg/compiler), deploy, update and destroy (lifecycle.go), invokefunction,
// testinvokefunction and testinvokescript (with --historic) over RPC, with
// the arguments and signers of package txsend.
package contractcmd
