// Package neotest is a framework for contract unit tests: it deploys and
// calls contracts on an in-process n3node ledger (a core.Blockchain over a
// memory store, made by the chain subpackage), signs the transactions
// and blocks, and checks results, notifications, GAS balances and FAULT
// messages. Its API is that of neo-go's neotest, so that a contract's
// tests written for neo-go run after changing the import paths.
//
//	bc, acc := chain.NewSingle(t)
//	e := neotest.NewExecutor(t, bc, acc, acc)
//	c := neotest.CompileFile(t, e.CommitteeHash, "./contract", "./contract/contract.yml")
//	e.DeployContract(t, c, nil)
//	inv := e.CommitteeInvoker(c.Hash)
//	inv.Invoke(t, 42, "answer")             // HALT with 42 on the stack
//	inv.InvokeFail(t, "not owner", "burn")  // FAULT with that text
//
// Transactions: every transaction lists its signers with the Global scope
// (the first one pays), its network fee is computed by running each
// witness's verification against the chain's state, and its system fee
// (unless given) is the GAS a test run of its script consumes. Each call
// (Invoke, InvokeFail, DeployContract, NewAccount, ...) adds one block
// signed by the validators, so the chain grows by one block per call.
//
// Signers: NewSingleSigner (a key), NewMultiSigner (an m-of-n multisig, at
// least m of the keys), NewContractSigner (a deployed contract's verify
// method with given arguments). The validators and the committee are
// multi-signature signers.
//
// Results: Invoke compares the result stack with stackitem.Make(result); stack items
// are compared by type and contents. A stored execution result keeps its
// stack in JSON form; CheckHalt and friends decode it back into items.
//
// Coverage: under `go test -coverprofile`, contract lines are reported in
// the profile (see coverage.go). Contracts compiled here carry the NEF
// compiler name neo-go's neotest writes (CompilerName), so their hashes are
// the ones neo-go's tests see.
//
// An Executor is not safe for concurrent use; the compilation cache and
// the coverage profile are shared by the tests of a process and locked.
package neotest
