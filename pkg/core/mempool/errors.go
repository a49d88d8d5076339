package mempool

import "errors"

// Errors returned by Add and VerifyAndAdd. neo-go v0.120.0's RPC server
// answers sendrawtransaction with: ErrDup -> -503 (already in pool), ErrOOM
// -> -502 (mempool capacity reached), ErrInsufficientFunds and ErrConflict
// -> -511 (insufficient funds), ErrConflictsAttribute and ErrOracleResponse
// -> -500 (verification failed, after the chain wraps them).
var (
	// ErrInsufficientFunds: the payer cannot pay this transaction's fees
	// even with nothing else pooled.
	ErrInsufficientFunds = errors.New("insufficient funds")
	// ErrConflict: the payer cannot pay for this transaction together with
	// its other pooled transactions.
	ErrConflict = errors.New("conflicts: insufficient funds for all pooled tx")
	// ErrDup: the transaction is already pooled.
	ErrDup = errors.New("already in the memory pool")
	// ErrOOM: the pool is full and the transaction is not better than the
	// worst pooled one.
	ErrOOM = errors.New("out of memory")
	// ErrConflictsAttribute: Conflicts attributes (its or the pooled
	// transactions') forbid adding the transaction.
	ErrConflictsAttribute = errors.New("conflicts with memory pool due to Conflicts attribute")
	// ErrOracleResponse: a response with the same oracle request id and a
	// network fee at least as high is pooled.
	ErrOracleResponse = errors.New("conflicts with memory pool due to OracleResponse attribute")
)
