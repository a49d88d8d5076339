// Package binding generates Go bindings of a contract from its manifest:
// the wrapper other contracts import to call it (`n3node contract
// generate-wrapper`), with the output neo-go 0.120.0's generator writes
// (its format is a fact clients of the bindings see; the generator is our
// own: the source is written directly, then gofmt'ed).
//
// A Config carries the manifest, the contract hash (empty: the wrapper
// takes the hash at run time) and the optional YAML configuration
// `contract compile --bindings` writes: package name, per-method or
// per-parameter type overrides, call flags, and structured type
// descriptions (read and kept; the contract wrapper does not use them).
package binding
