package mempool

import "errors"

// Errors returned by Add and VerifyAndAdd, grouped by the code neo-go
// v0.120.0's RPC server answers sendrawtransaction with (the conflict errors
// after the chain wraps them).
var (
	// ErrDup (-503, already in pool): the transaction is already pooled.
	ErrDup = errors.New("already in the memory pool")
	// ErrOOM (-502, mempool capacity reached): the pool is full and the
	// transaction is not better than the worst pooled one.
	ErrOOM = errors.New("out of memory")

	// ErrInsufficientFunds (-511, insufficient funds): the payer cannot pay
	// this transaction's fees even with nothing else pooled.
	ErrInsufficientFunds = errors.New("insufficient funds")
	// ErrConflict (-511): the payer cannot pay for this transaction together
	// with its other pooled transactions.
	ErrConflict = errors.New("conflicts: insufficient funds for all pooled tx")

	// ErrConflictsAttribute (-500, verification failed): Conflicts
	// attributes (its or the pooled transactions') forbid adding the
	// transaction.
	ErrConflictsAttribute = errors.New("conflicts with memory pool due to Conflicts attribute")
	// ErrOracleResponse (-500): a response with the same oracle request id
	// and a network fee at least as high is pooled.
	ErrOracleResponse = errors.New("conflicts with memory pool due to OracleResponse attribute")
)
