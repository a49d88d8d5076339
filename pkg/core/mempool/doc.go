// Package mempool is the pool of verified transactions waiting for a block.
//
// # Order
//
// Transactions are kept in priority order, best first: a HighPriority
// attribute first, then the higher fee per byte (NetworkFee / Size), then
// the higher network fee, then arrival order (first come, first served).
// The first three keys are C# PoolItem.CompareTo's and neo-go's; the last
// is neo-go's (C# breaks ties by hash instead). The order lives in a B-tree
// keyed by (priority, arrival number), so an insert, a removal and an
// eviction of the worst transaction each cost O(log n).
//
// # Admission
//
// Add inserts a transaction the caller has already verified against the
// chain. It enforces the rules that depend on the pool's contents, as
// neo-go v0.120.0 does:
//
//   - a transaction already in the pool is refused (ErrDup);
//   - Conflicts attributes work both ways: pooled transactions that declare
//     a conflict with the new one, and pooled transactions the new one
//     declares a conflict with, are replaced only if the new transaction's
//     network fee exceeds the sum of theirs (counting, for the first kind,
//     only those that the new payer also signed) and, for the second kind,
//     only if the two share a signer; otherwise ErrConflictsAttribute;
//   - an OracleResponse for an id already pooled replaces the pooled one
//     only with a higher network fee (ErrOracleResponse);
//   - the payer (signer PayerIndex, 0 except for notary pools) must hold
//     enough GAS for this transaction (ErrInsufficientFunds) and for the
//     system and network fees of all its pooled transactions, minus those
//     this one replaces (ErrConflict);
//   - when the pool is full, a transaction better than the worst evicts it,
//     any other is refused (ErrOOM).
//
// VerifyAndAdd runs the caller's chain verification first, without any pool
// lock held, and deduplicates it: concurrent calls for the same hash verify
// once; the others wait and get what a serial run would give them (ErrDup
// once the first is in, or the first one's error). If a block is processed
// (RemoveStale) while a verification is under way, the transaction is
// verified again against the new state before it is inserted.
//
// # After a block
//
// RemoveStale re-verifies every pooled transaction through the caller's
// function, spread over several goroutines, then rebuilds the fee
// accounting and conflict index sequentially in priority order, dropping
// the transactions that no longer verify, have expired (ValidUntilBlock <=
// height), pay less per byte than a raised FeePerByte policy, or whose payer
// can no longer cover them. The caller's function must be safe for
// concurrent use and must not call back into the pool; Feer must be safe for
// concurrent use too (balances are fetched in parallel).
//
// # Events
//
// Subscribers get TransactionAdded and TransactionRemoved events through a
// queue drained by one goroutine: the pool never waits for a subscriber. A
// subscriber that stops reading stalls delivery to all subscribers; once
// MaxQueuedEvents events are waiting, newer ones are dropped and counted.
//
// # Ownership
//
// The pool keeps the *Transaction pointers it is given and hands the same
// pointers out; nobody may modify a pooled transaction. Slices returned by
// GetVerifiedTransactions are fresh.
package mempool
