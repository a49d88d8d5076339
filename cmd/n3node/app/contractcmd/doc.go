// Package contractcmd is `n3node contract`: compile (a thin shell over
// pkg/compiler), deploy, update and destroy (lifecycle.go), invokefunction,
// testinvokefunction and testinvokescript (with --historic) over RPC, with
// the arguments and signers of package txsend; and the local tools, whose
// output is neo-go 0.120.0's: init (a skeleton project), inspect
// (disassembly, with source lines from debug information), calc-hash and
// manifest add-group (tools.go, inspect.go, debugsrc.go), generate-wrapper
// and generate-rpcwrapper (generate.go, over pkg/smartcontract/binding).
package contractcmd
