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
//	0x73 account ts(BE) index(BE)  NEP-17 transfers of the account in the
//	0x72 account ts(BE) index(BE)  block (NEP-11), in recording order
//	0x74 account id(BE)            last-updated height of a token
//
// Values are a version byte and deterministic CBOR: a record is a sequence
// of CBOR arrays (one per transfer), a last-updated value one array. A
// reader for a later version can still read old records by their version
// byte. A block only adds records and overwrites last-updated values, so
// recording never reads the store (neo-go appends to 128-entry batches,
// which it reads and rewrites; the answers are the same).
//
// # Use
//
// The ledger makes a Writer per block over the block's record layer, calls
// Add for each qualifying notification in execution order, then Flush.
// ForEach and GetLastUpdated read any store (normally the committed layer).
package transferlog
