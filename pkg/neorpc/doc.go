// Package neorpc holds the JSON-RPC protocol types shared by the RPC server
// (pkg/rpcserver) and client (pkg/rpcclient): requests and responses, error
// codes and texts, subscription streams, event filters and the positional
// parameter getters. Its reference is neo-go 0.120.0: field names, error
// codes, error texts and the lenient parameter forms are neo-go's, and
// docs/rpc.md lists where and why we differ.
//
// # Decoding requests
//
// Incoming.DecodeBody decodes an HTTP body; Incoming.DecodeMessage a
// WebSocket message. A hand-written scanner handles the common shapes (an
// object with the four standard keys, or a batch of them) without
// encoding/json; everything else goes to a slow path in internal/params that
// replays neo-go's encoding/json steps so that error texts agree. The fuzz
// test checks that both paths agree on every input the fast one accepts.
//
// # Ownership
//
// A decoded Incoming aliases the buffer it was decoded from: Call.Params and
// Call.ID stay valid only while that buffer is unchanged (on the server, for
// the duration of the handler call). Param getters return fresh values
// (strings, byte slices, hashes), except GetArray whose elements alias the
// parameter. DecodeResponse aliases its input the same way.
//
// # Filters and events
//
// The filter types (BlockFilter, TxFilter, ...) have neo-go's JSON form.
// DecodeFilter decodes the "subscribe" filter parameter with neo-go's rules.
// Matching works on EventFields, a small view of an event that the node
// fills in, so this package needs neither blocks nor the VM.
package neorpc
