// Package vm is the NeoVM execution engine: the C# neo-vm ExecutionEngine
// with the parts of ApplicationEngine that belong to the machine (GAS
// accounting by opcode price, per-invocation data, hardfork variants of
// opcode handlers), exact to the reference.
//
// # Running a script
//
//	v := vm.New()
//	v.SetHooks(vm.Hooks{Syscall: mySyscalls})
//	v.SetExecFeeFactor(30 * vm.FeeFactor) // picoGAS per opcode price unit
//	v.SetGasLimit(10_0000_0000)             // datoshi
//	v.SetRules(rules)                       // hardforks active at this height
//	if _, err := v.LoadScript(vm.NewScript(script)); err != nil { ... }
//	state := v.Execute()                    // HALT or FAULT
//	results := v.ResultStack().Items()      // bottom first
//
// A VM is reusable: Reset empties it but keeps its allocations and hooks, so
// one VM per goroutine can run every transaction of a block.
//
// # Semantics
//
// Every opcode follows neo-vm (HEAD, post-Gorgon) and passes the neo-vm JSON
// suite in testdata/neovm with the C# harness's checks, including the
// reference counter ("refs"). Rules selects the older HASKEY, PICKITEM,
// SETITEM, REMOVE, SHL, SHR (before HF_Gorgon) and SUBSTR (before
// HF_Echidna) handlers that the C# node still uses for old blocks.
//
// Errors inside an instruction fault the VM (FAULT, see FaultError); they are
// never panics. Only THROW, the out-of-range cases of PICKITEM and SETITEM,
// and hooks that call Throw raise catchable exceptions. A fault's message is
// the C# exception message where a script can observe it or the JSON suite
// checks it.
//
// # GAS
//
// Before each instruction the VM charges fee.Opcode(op) times the exec fee
// factor, in picoGAS (1e-12 GAS; FeeFactor picoGAS = 1 datoshi), unless the
// current invocation is fee exempt. The consumed amount includes the
// instruction that exceeded the limit. GasConsumed rounds up to datoshi, as
// C# FeeConsumed does since HF_Faun (before Faun every price is a multiple of
// FeeFactor, so the rounding never shows).
//
// # Interop layer
//
// Hooks connects the interop layer: SYSCALL by 32-bit id, CALLT by token,
// context load and unload notifications (with whether the invocation ended
// normally, so the caller can commit or discard its storage snapshot) and a
// pre-step trace hook. LoadScriptWith loads a contract with its script hash,
// calling script hash, call flags, return-value count, fee exemption and an
// opaque Data value. Push, Pop, Throw, AddPicoGas and the Context accessors
// are what hooks use.
//
// # Ownership
//
// The VM never modifies script bytes; PUSHDATA items alias them. Items on the
// stacks belong to the VM while it runs; after HALT the caller may keep the
// result items. Contexts must not be retained by hooks after the Unloaded
// hook returns.
package vm
