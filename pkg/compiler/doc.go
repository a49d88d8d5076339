// Package compiler compiles Go smart contracts written against neo-go's
// contract API (github.com/nspcc-dev/neo-go/pkg/interop/...) into NeoVM
// NEF files, manifests and NeoDebugger debug information, byte for byte
// as neo-go 0.120.0's `contract compile` does.
//
// Use:
//
//	cfg, _ := compiler.ParseConfig(ymlBytes)
//	f, m, di, err := compiler.Compile("./mycontract", compiler.Options{Config: *cfg})
//	bc, err := compiler.Bindings(di, compiler.Options{Config: *cfg}, guessEventTypes)
//	yml, err := binding.MarshalConfig(bc) // pkg/smartcontract/binding
//
// Passes, one concern each (see docs/compiler.md):
//
//	load.go   packages.Load, initialisation order, merged type info, documents
//	check.go  the supported subset: unsupported constructs fail with file:line
//	usage.go  reachable functions and used globals
//	gen.go    program layout: statics, _initialize, _deploy, functions
//	stmt.go, expr.go, call.go, inline.go   code generation
//	asm.go    labels, jump shortening and INITSLOT removal (link)
//	debug.go  debug information; compile.go the manifest and NEF
//	bindings.go  the bindings configuration (Bindings, for `--bindings`):
//	          Go and structured types of signatures, named structures,
//	          event parameter types guessed from runtime.Notify calls
//
// Compile is not safe for concurrent use of one Options value; returned
// values are owned by the caller.
package compiler
