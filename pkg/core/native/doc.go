// Package native implements the Neo N3 native contracts and runs blocks.
//
// # Framework
//
// A native contract (Contract) has a ContractMD: name, id and hash from
// nativenames, the hardfork that deploys it, its methods and events with
// their activation hardforks. Build makes, for every hardfork, the contract
// state C# generates (the script with PUSH0; SYSCALL System.Contract.
// CallNative; RET per method, methods ordered by name and parameter count,
// the NEF "neo-core-v3.0" and the default manifest with the active methods
// and events), and the method table CallNative dispatches on: the method
// is found by the offset of the executing SYSCALL.
//
// Contracts is the set of natives of a chain (constructors in registry.go)
// and implements interop.Natives. ContractManagement's OnPersist deploys
// every native in its activation block and updates it (new NEF and
// manifest, update counter + 1, Initialize, Update notification) when a
// hardfork it registered activates, exactly as neo-go 0.120.0 does.
//
// Native methods convert their own arguments (args.go helpers) and return
// errors, which fault the VM. A method that calls a contract (deploy's
// _deploy, recoverFund's transfer) is a DeferredFunc: it finishes in the
// continuation of interop.Context.CallFromNative. Natives keep decoded state
// in a dao.NativeContractCache per DAO layer.
//
// # Running blocks
//
// ExecuteBlock runs OnPersist, the transactions and PostPersist of a block
// in a DAO layer and returns the execution results; StoreBlock writes the
// ledger records; VerifyWitness checks a witness. docs/native.md explains
// how to add a native contract.
package native
