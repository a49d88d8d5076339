// Package rpcserver is the node's JSON-RPC 2.0 server: HTTP POST (single
// calls and batches) and WebSocket (/ws, with subscriptions), behaving as
// neo-go 0.120.0's rpcsrv does on the wire — same error codes and texts,
// same limits, same CORS workaround.
//
// # Adding methods
//
// A method is a Handler registered before Start:
//
//	srv := rpcserver.New(cfg)
//	srv.Register("getblockcount", func(ctx context.Context, p neorpc.Params) (any, *neorpc.Error) {
//		return chain.BlockHeight() + 1, nil
//	})
//
// Handlers read positional parameters with neorpc.Params getters (which
// accept neo-go's lenient forms) and return either a result or a
// *neorpc.Error (use the neorpc.Err* values and WrapErrorWithData). Results
// are encoded with encoding/json; a json.RawMessage is written as is, for
// handlers that pre-encode. Unregistered methods answer -32601. Params alias
// the request buffer: copy what outlives the call. A panicking handler
// yields -32603 and the server keeps serving.
//
// # Events
//
// The node calls Publish for each chain event (from one goroutine to keep
// order); HasSubscribers lets it skip building events nobody wants. Events
// carry their JSON payload and an neorpc.EventFields view that filters
// match against. Publish never blocks: each WebSocket client has a queue of
// 1024 events; a client that falls behind misses events and then receives
// event_missed, and its subscriptions stay (as in neo-go; the client decides
// what to do).
//
// # Sessions
//
// With SessionEnabled, Sessions returns the store in which invoke* handlers
// register iterators (Create); traverseiterator and terminatesession are
// built in. Sessions expire after SessionLifetime without access, measured
// with the injected Clock.
//
// # Lifecycle
//
// New, Register..., Start (or Serve with a listener), then Shutdown(ctx),
// which closes listeners, waits for requests in flight, closes WebSocket
// connections, ends sessions and waits for all goroutines.
package rpcserver
