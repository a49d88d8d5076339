// Package stateroot is the StateService: the exchange of state roots signed
// by the state validators (the keys RoleManagement designates for the
// StateValidator role), as the C# StateService plugin and neo-go's
// stateroot service run it, byte for byte.
//
// # Protocol
//
// Messages travel as extensible payloads of Category "StateService"; the
// data is a type byte and a body:
//
//	Vote (0)      validator index (int32 LE), height (u32 LE),
//	              signature (var-bytes, 64)
//	StateRoot (1) version (u8), index (u32 LE), root hash, witnesses
//	              (var-array, at most one)
//
// After each block, every node holding a key designated for that height
// signs the local root's sign data (network magic u32 LE || SHA-256 of
// version|index|root) and broadcasts a Vote (valid for VoteValidBlocks
// blocks). Votes are checked against the designated key of their index and
// the local root. Once M = n - (n-1)/3 signatures are in, the sender
// (validator (index - retries) mod n) builds the witness, the M-of-N
// multisig of the designated keys with the signatures in key order, and
// broadcasts the StateRoot (valid for RootValidBlocks blocks). Vote timers
// resend the vote after FirstVoteResendDelay, then after TimePerBlock <<
// (retries-1), and move the sender role to the next validator each time.
//
// Every node (with keys or not) checks the StateRoot messages it receives:
// a root above the local height waits (up to MaxCachedRoots heights), the
// witness must verify within MaxVerificationGAS for the multisig account of
// the keys designated at the root's height, and the root must equal the
// local one; it is then stored (Ledger.AddValidatedStateRoot: the root
// record gets the witness and the validated height, getstateheight's
// validatedrootindex, moves up). A validly signed root that differs from the
// local one is logged as an error (and reported to Config.OnMismatch): the
// node's state has diverged from the validators'.
//
// # Use
//
//	svc, err := stateroot.New(cfg, stateroot.ChainLedger(bc), func(e *payload.Extensible) { _ = srv.BroadcastExtensible(e) })
//	srv.AddExtensibleHandler(stateroot.Category, svc.OnPayload)
//	svc.Start()
//	defer svc.Shutdown()
//
// Start subscribes to the chain's blocks and runs OnBlock for each, and Tick
// every Config.TickInterval. Tests drive OnBlock, OnPayload and Tick
// themselves with explicit times; nothing else in the service reads a clock.
//
// # Concurrency and ownership
//
// All methods are safe for concurrent use; payloads are broadcast outside
// the service's lock. Payloads given to OnPayload are not kept; payloads
// given to the Broadcaster are the receiver's (the service does not modify
// them afterwards, but resends the same vote).
package stateroot
