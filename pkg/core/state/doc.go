// Package state holds the records the ledger persists and the execution
// results it produces.
//
// # Consensus records
//
// Contract states, NEP-17 and NEO balances and NEO candidates are stored in
// contract storage (and so enter the state root) in the C# IInteroperable
// form: the stack item ToStackItem returns, serialized with the StdLib binary
// format (stackitem.Serialize). Each type implements stackitem.Convertible,
// so one definition serves storage, the VM (ContractManagement.getContract
// returns the same item) and RPC. These encodings are byte-identical to the
// reference nodes'.
//
// # Node records
//
// Execution results (AppExecResult: trigger, VM state, GAS, result stack,
// notifications, fault message) are the node's own records: they are stored
// as deterministic CBOR arrays behind a version byte (see EncodeAppExecResult),
// so that later versions can still read old records. Their JSON form is
// neo-go 0.120.0's getapplicationlog form. The result stack is kept in its
// RPC JSON form once stored: interop items, pointers and unserializable
// values cannot be rebuilt, but their JSON can.
//
// # Ownership
//
// Decoders copy what they keep. State values decoded from a shared cache must
// not be modified; copy them first.
package state
