package core

import (
	"errors"

	"github.com/n3node/n3node/pkg/core/interop"
)

// Errors of transaction verification and pooling. They are neo-go 0.120.0's
// (pkg/core), so that the RPC layer maps them to the same
// sendrawtransaction codes: ErrTxExpired and ErrTxNotYetValid -510,
// ErrAlreadyExists -501, ErrAlreadyInPool -503, ErrOOM -502, ErrPolicy -505,
// ErrInvalidScript -506, ErrTxTooBig -509, ErrTxSmallNetworkFee -504,
// ErrInvalidAttribute -507, ErrInsufficientFunds and ErrMemPoolConflict
// -511, ErrInvalidSignature -508, anything else -500 (verification failed).
var (
	// ErrAlreadyExists: the transaction (or block) is already on chain.
	ErrAlreadyExists = errors.New("already exists in blockchain")
	// ErrAlreadyInPool: the transaction is already in the memory pool.
	ErrAlreadyInPool = errors.New("already exists in mempool")
	// ErrOOM: the memory pool is full and the transaction is not better
	// than the worst pooled one.
	ErrOOM = errors.New("no space left in the memory pool")
	// ErrPolicy: a signer is blocked by Policy, or the system fee exceeds
	// MaxBlockSystemFee.
	ErrPolicy = errors.New("not allowed by policy")
	// ErrInvalidBlockIndex: the block does not follow the chain's height.
	ErrInvalidBlockIndex = errors.New("invalid block index")
	// ErrHasConflicts: an on-chain or pooled transaction's Conflicts
	// attribute names this transaction.
	ErrHasConflicts = errors.New("has conflicts")
	// ErrTxExpired: ValidUntilBlock <= current height.
	ErrTxExpired = errors.New("transaction has expired")
	// ErrTxNotYetValid: ValidUntilBlock > height +
	// MaxValidUntilBlockIncrement.
	ErrTxNotYetValid = errors.New("transaction is not yet valid")
	// ErrInsufficientFunds: the sender's GAS does not cover the fees.
	ErrInsufficientFunds = errors.New("insufficient funds")
	// ErrTxSmallNetworkFee: the network fee does not cover size and
	// attribute fees.
	ErrTxSmallNetworkFee = errors.New("too small network fee")
	// ErrTxTooBig: the transaction exceeds MaxTransactionSize.
	ErrTxTooBig = errors.New("too big transaction")
	// ErrMemPoolConflict: the sender cannot pay for this transaction
	// together with its pooled ones.
	ErrMemPoolConflict = errors.New("invalid transaction due to conflicts with the memory pool")
	// ErrInvalidScript: the script is not a valid NeoVM script.
	ErrInvalidScript = errors.New("invalid script")
	// ErrInvalidAttribute: an attribute breaks its rules.
	ErrInvalidAttribute = errors.New("invalid attribute")
)

// Witness verification errors (from interop; ErrInvalidSignature is the
// only one the RPC layer maps to its own code, -508).
var (
	ErrVerificationFailed          = interop.ErrVerificationFailed
	ErrInvalidSignature            = interop.ErrInvalidSignature
	ErrWitnessHashMismatch         = interop.ErrWitnessHashMismatch
	ErrNativeContractWitness       = interop.ErrNativeContractWitness
	ErrInvalidInvocationScript     = interop.ErrInvalidInvocationScript
	ErrInvalidVerificationScript   = interop.ErrInvalidVerificationScript
	ErrUnknownVerificationContract = interop.ErrUnknownVerificationContract
	ErrInvalidVerificationContract = interop.ErrInvalidVerificationContract
)

// ErrWritesPaused: the database refused the latest background write (a
// full disk, an I/O error), so the chain takes no blocks or transactions
// until a write succeeds again (Blockchain.WritesPaused).
var ErrWritesPaused = errors.New("not accepting blocks and transactions while the database refuses writes")

// Header and block verification errors.
var (
	ErrHdrHashMismatch     = errors.New("previous header hash doesn't match")
	ErrHdrIndexMismatch    = errors.New("previous header index doesn't match")
	ErrHdrInvalidTimestamp = errors.New("block is not newer than the previous one")
	// ErrHdrPrimaryIndex: PrimaryIndex is not below the validators count
	// (C# Header.Verify; neo-go does not check it).
	ErrHdrPrimaryIndex = errors.New("primary index is out of the validators range")
	// ErrHdrStateRootSetting: a block's header format (with or without
	// the previous state root) is not the network's StateRootInHeader.
	ErrHdrStateRootSetting = errors.New("state root setting mismatch")
	// ErrHdrInvalidStateRoot: with StateRootInHeader, the header's
	// PrevStateRoot is not the local state root of the previous block.
	ErrHdrInvalidStateRoot = errors.New("state root for previous block is invalid")
	// ErrHdrWitness: the header witness does not verify against the
	// previous header's NextConsensus.
	ErrHdrWitness = errors.New("header witness verification failed")
	// ErrMerkleRoot: the header's merkle root does not match the
	// transactions.
	ErrMerkleRoot = errors.New("invalid block: MerkleRoot mismatch")
	// ErrBlockHashMismatch: a block whose header is known has another hash.
	ErrBlockHashMismatch = errors.New("invalid block: hash mismatch")
	// ErrTxVerification: a transaction of a block failed verification
	// (wraps the transaction's error).
	ErrTxVerification = errors.New("transaction failed to verify")
	// ErrUnknownHeader: the previous header of a header is not known.
	ErrUnknownHeader = errors.New("previous header is not known")
)

// Errors of opening a database.
var (
	// ErrVersionMismatch: the database was made by another format version
	// or with other ledger settings.
	ErrVersionMismatch = errors.New("database version or settings mismatch")
	// ErrGenesisMismatch: the database holds another network's chain.
	ErrGenesisMismatch = errors.New("database holds another chain (genesis or magic mismatch)")
	// ErrClosed: the chain is closed.
	ErrClosed = errors.New("blockchain is closed")
	// ErrNotFound: the item is not stored.
	ErrNotFound = errors.New("not found")
)

// ErrTrustedHeader: the header at the TrustedHeader index is not the
// configured one (neo-go's text).
var ErrTrustedHeader = errors.New("trusted header hash mismatch")
