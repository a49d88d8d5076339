// Package transferlog keeps the NEP-17 and NEP-11 transfer history of every
// account and the height at which each of its token balances last changed:
// the data behind getnep17transfers, getnep11transfers, getnep17balances and
// getnep11balances. It is a node index, not consensus state (the MPT does
// not cover it).
//
// # Semantics (neo-go 0.120.0)
//
// Every Transfer notification of a HALTed execution (block triggers
// included) with 3 (NEP-17) or 4 (NEP-11: the token id) arguments, valid
// addresses (20 bytes or Null for mint/burn) and an integer amount is
// recorded twice: for the sender with the negated amount and the receiver as
// counterparty, and for the receiver with the amount and the sender as
// counterparty (a mint or burn only for the side that is an account). Each
// side also records the block index as the last update of that token.
// Transfers are listed newest first: in reverse order of recording.
//
// # Storage
//
//	0x74 account               Info: last-updated heights per token id and
//	                           the open batch of each standard
//	0x73 account ts(BE) n(BE)  NEP-17 batch n, whose first entry was
//	0x72 account ts(BE) n(BE)  recorded in a block with timestamp >= ts
//
// A batch holds up to BatchSize transfers. Values are a version byte then
// deterministic CBOR: the Info as one array; a batch as a sequence of
// arrays, one per transfer, so that appending does not rewrite the batch.
// A reader for a later version can still read old records by their version
// byte.
//
// # Use
//
// The ledger makes a Writer per block over the block's record layer, calls
// Add for each qualifying notification in execution order, then Flush.
// ForEach and GetInfo read any store (normally the committed layer).
package transferlog
