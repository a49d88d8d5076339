// Package interop is the execution environment of Neo N3 scripts (the C#
// ApplicationEngine): the Context of one execution and the 41 System.*
// syscalls.
//
// # Running an execution
//
//	ic := interop.NewContext(trigger.Application, chain, natives, &cfg, d.GetPrivate(),
//		block, tx, execFeeFactor, storagePrice)
//	ic.InitVM(v)                  // or ic.SpawnVM(); v may be reused
//	ic.VM.SetGasLimit(tx.SystemFee)
//	aer := ic.Execute(tx.Hash(), tx.Script, callflag.All)
//	if aer.VMState == vmstate.Halt { ic.DAO.Persist() }
//
// Package native builds contexts with the Policy prices (native.Contracts.
// NewContext) and runs whole blocks; VerifyWitness checks one witness in a
// Verification context.
//
// # Semantics
//
// The reference is neo-go 0.120.0, so that application logs and states
// agree with it; C# behaviour is followed where neo-go has the same. Known
// places where neo-go differs from C# and is followed: GetTime requires
// ReadStates; GetCallingScriptHash of the entry script is 20 zero bytes, not
// Null; CheckWitness with no signers (persist triggers) faults; call flags
// and Find options are the integer's low byte; CheckSig and CheckMultisig
// fault on an invalid key; the one-byte key 0x00 (point at infinity) is
// accepted by CheckWitness and CreateStandardAccount; notifications sent
// before a FAULT stay in the result, and the result stack of a FAULT is the
// faulting context's evaluation stack.
//
// Storage writes of a contract call go to a nested private DAO layer, and
// its notifications are dropped, when the call ends with an exception that
// the caller's invocation may catch (neo-go's rule: the calling invocation
// has an active TRY and the call may write). Otherwise an exception faults
// the whole execution, which discards everything anyway.
//
// # Fault texts
//
// A syscall's error is the FAULT text clients see, so it is neo-go's:
// "<syscall> failed: <reason>", except for the errors neo-go raises as Go
// panics (argument conversions, native methods, iterator values), which are
// PanicErrors and read bare. Errors keep their sentinels for errors.Is;
// Worded gives a sentinel neo-go's text, and ItemBytes, ItemInteger,
// ItemString and ItemBool convert arguments with neo-go's texts (package
// native uses them too).
//
// # Invariants
//
// A Context and its VM are used by one goroutine. Finalize (called by Run
// and Execute) must run after every execution: it releases storage
// iterators, which hold storage walks open.
package interop
