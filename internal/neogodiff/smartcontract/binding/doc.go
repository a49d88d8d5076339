// Package binding holds the build check of the RPC bindings n3node
// generates (pkg/smartcontract/binding): the generated code imports
// neo-go's rpcclient, as neo-go's does, so it is compiled here, in the
// test-only module that may import neo-go.
package binding
