package chainrpc

import (
	"math/big"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// Ledger is what the chain methods need of the node's blockchain: the
// union of the per-family interfaces below. Each handler uses only its
// family, so the contract of a method is read next to the handlers that
// call it. Every method must be safe for concurrent use; values handed out
// are shared and must not be modified. "Not found" is any error (the
// handlers map it to the method's code) unless a method says otherwise.
type Ledger interface {
	Blocks
	Contracts
	Policy
	States
	Invoker
	TokenIndex
	Relay
}

// Blocks is the chain itself: blocks, headers, transactions, their
// execution results and the memory pool (blocks.go).
type Blocks interface {
	// Config returns the chain settings (protocol and ledger).
	Config() *config.Blockchain
	// BlockHeight is the index of the latest committed block.
	BlockHeight() uint32
	// HeaderHeight is the index of the latest known header.
	HeaderHeight() uint32
	CurrentBlockHash() hash.Uint256
	// GetHeaderHash returns the hash of the header at index (zero if none).
	GetHeaderHash(index uint32) hash.Uint256
	// GetBlock returns a committed block; the error text is getblock's
	// -101 data.
	GetBlock(h hash.Uint256) (*block.Block, error)
	GetHeader(h hash.Uint256) (*block.Header, error)
	// GetTransaction returns a transaction and its block index
	// (math.MaxUint32 for a pooled one).
	GetTransaction(h hash.Uint256) (*transaction.Transaction, uint32, error)
	// GetAppExecResults returns the execution results of a block or a
	// transaction whose trigger is in trig (the error text is
	// getapplicationlog's -105 data).
	GetAppExecResults(h hash.Uint256, trig trigger.Type) ([]state.AppExecResult, error)
	// GetVerifiedTransactions returns the pooled verified transactions.
	GetVerifiedTransactions() []*transaction.Transaction
}

// Contracts is the current contract state: deployed contracts, their
// storage and the governance lists (contracts.go).
type Contracts interface {
	// GetContractState returns a deployed or native contract, or nil.
	GetContractState(h hash.Uint160) *state.Contract
	// GetContractStateByID returns the contract with that id, or nil.
	GetContractStateByID(id int32) *state.Contract
	// GetNatives returns the native contracts active at the current
	// height, in id order (-1 first).
	GetNatives() []state.Contract
	// GetStorageItem returns a storage value, or nil.
	GetStorageItem(id int32, key []byte) []byte
	// SeekStorage walks the items of contract id whose key starts with
	// prefix in key order; f gets keys without the prefix and returns
	// false to stop. k and v are valid only during the call.
	SeekStorage(id int32, prefix []byte, f func(k, v []byte) bool)
	// GetCommittee returns the committee (sorted).
	GetCommittee() []*keys.PublicKey
	// GetNextBlockValidators returns the next block's validators.
	GetNextBlockValidators() []*keys.PublicKey
}

// Policy is the values of the current height (Policy's after
// HF_Echidna) that getversion and the fee methods report.
type Policy interface {
	GetMillisecondsPerBlock() uint32
	GetMaxTraceableBlocks() uint32
	GetMaxValidUntilBlockIncrement() uint32
	GetMaxVerificationGAS() int64
	FeePerByte() int64
	CalculateAttributesFee(tx *transaction.Transaction) int64
}

// States is the state tries: roots, values and proofs of any kept height
// (state.go).
type States interface {
	// GetStateRoot returns the state root of a committed height.
	GetStateRoot(height uint32) (*result.StateRoot, error)
	// CurrentValidatedHeight is the height of the latest root signed by the
	// state validators.
	CurrentValidatedHeight() uint32
	// GetState returns the value of key (contract id LE + storage key) in
	// the trie with root; an error wrapping mpt.ErrNotFound if absent.
	GetState(root hash.Uint256, key []byte) ([]byte, error)
	// GetStateProof returns the proof of key in the trie with root
	// (mpt.ErrNotFound if absent).
	GetStateProof(root hash.Uint256, key []byte) ([][]byte, error)
	// FindStates returns up to max items (full keys) whose keys start with
	// prefix, after prefix+start (mpt.Trie.Find semantics).
	FindStates(root hash.Uint256, prefix, start []byte, max int) ([]result.KeyValue, error)
	// SeekStates walks the items whose keys start with prefix in the trie
	// with root, in key order; f gets keys without the prefix.
	SeekStates(root hash.Uint256, prefix []byte, f func(k, v []byte) bool)
	// GetLatestStateHeight returns the highest height whose local root is
	// root.
	GetLatestStateHeight(root hash.Uint256) (uint32, error)
}

// Invoker prepares test executions (invoke.go).
type Invoker interface {
	// GetTestVM returns a context for a test run of tx (may be nil) in
	// block b (nil: a fake next block) over a private layer of the
	// current state, with a VM ready to load scripts (no GAS limit).
	GetTestVM(trig trigger.Type, tx *transaction.Transaction, b *block.Block) (*interop.Context, error)
	// GetTestHistoricVM is GetTestVM over the state after block
	// nextBlockHeight-1.
	GetTestHistoricVM(trig trigger.Type, tx *transaction.Transaction, nextBlockHeight uint32) (*interop.Context, error)
	// GetFakeNextBlock returns a block with index and the timestamp the
	// block after index-1 would have.
	GetFakeNextBlock(index uint32) (*block.Block, error)
	// InitVerificationContext loads the verification of witness w of h
	// into ic's VM (contract verify method or verification script, then
	// the invocation script). Errors wrap interop.ErrUnknownVerification-
	// Contract or interop.ErrInvalidVerificationContract when they apply.
	InitVerificationContext(ic *interop.Context, h hash.Uint160, w *transaction.Witness) error
	// VerifyWitness checks witness w of h for container c with a GAS limit
	// and returns the GAS used (interop.ErrInvalidSignature with the GAS
	// used if the script returns false).
	VerifyWitness(h hash.Uint160, c interop.Container, w *transaction.Witness, gas int64) (int64, error)
}

// TokenIndex is the node's index of token contracts and transfers
// (tokens.go).
type TokenIndex interface {
	// GetNEP17Contracts and GetNEP11Contracts list the deployed token
	// contracts (natives included), in deployment order.
	GetNEP17Contracts() []hash.Uint160
	GetNEP11Contracts() []hash.Uint160
	// GetTokenLastUpdated returns, per contract id, the last block that
	// changed a token balance of acc (an empty map for an account without
	// transfers).
	GetTokenLastUpdated(acc hash.Uint160) (map[int32]uint32, error)
	// ForEachTransfer walks the NEP-17 (nep11 false) or NEP-11 transfers
	// of acc from the newest to the oldest, starting at timestamps <=
	// newest, until f returns false or an error.
	ForEachTransfer(acc hash.Uint160, nep11 bool, newest uint64, f func(*Transfer) (bool, error)) error
}

// Relay takes transactions and blocks from clients (relay.go).
type Relay interface {
	// PoolTx verifies tx and adds it to the memory pool (used for
	// sendrawtransaction when there is no Network). Errors are classified
	// as for Network.RelayTx.
	PoolTx(tx *transaction.Transaction) error
	// AddBlock verifies and adds a block (submitblock). Errors are
	// classified as for Network.RelayTx.
	AddBlock(b *block.Block) error
}

// Transfer is one token transfer of an account (see
// Ledger.ForEachTransfer). Amount is positive for tokens received and
// negative for tokens sent; Counterparty is zero for mints and burns.
type Transfer struct {
	Asset        int32
	Counterparty hash.Uint160
	Amount       *big.Int
	Block        uint32
	Timestamp    uint64
	Tx           hash.Uint256
	// ID is the NEP-11 token id (nil for NEP-17).
	ID []byte
}

// Network is what the node methods need of the P2P server. It may be nil:
// getversion then reports port 0 and nonce 0, getpeers empty lists and
// getconnectioncount 0, and sendrawtransaction only pools.
type Network interface {
	// Port returns the port the node listens on for peers.
	Port() (uint16, error)
	// ID is the node's nonce in version messages.
	ID() uint32
	UserAgent() string
	PeerCount() int
	ConnectedPeers() []result.PeerInfo
	UnconnectedPeers() []string
	BadPeers() []string
	// RelayTx verifies and pools tx and announces it (sendrawtransaction).
	// Errors are classified with RelayError.
	RelayTx(tx *transaction.Transaction) error
}

// DirectRelayer is implemented by a Network that can send a transaction
// itself to peers (used with RPC DirectRelay).
type DirectRelayer interface {
	RelayTxDirectly(tx *transaction.Transaction) error
}

// OracleHandler takes oracle nodes' response signatures
// (submitoracleresponse); nil disables the method.
type OracleHandler interface {
	AddResponse(pub *keys.PublicKey, reqID uint64, txSig []byte)
}

// NotaryRequest is a P2P notary request: a main transaction and its
// fallback. Payload is the node's own representation (passed back to
// Notary.RelayNotaryRequest).
type NotaryRequest struct {
	Main     *transaction.Transaction
	Fallback *transaction.Transaction
	Payload  any
}

// Notary is the notary request pool of a node with P2PSigExtensions.
type Notary interface {
	// NotaryRequests returns the pooled requests in pool order.
	NotaryRequests() []NotaryRequest
	// DecodeNotaryRequest decodes a P2PNotaryRequest payload.
	DecodeNotaryRequest(b []byte) (NotaryRequest, error)
	// RelayNotaryRequest verifies, pools and announces a request. Errors
	// are classified with RelayError.
	RelayNotaryRequest(r NotaryRequest) error
}

// RelayError classifies a failed relay (transaction, block, notary
// request): Code is the neorpc error whose code answers it; the cause's
// text becomes the answer's data. Errors that are not RelayErrors answer
// -500 (verification failed).
type RelayError struct {
	Code *neorpc.Error
	Err  error
}

func (e *RelayError) Error() string { return e.Err.Error() }
func (e *RelayError) Unwrap() error { return e.Err }

// ChainEvent is one event of the chain for WebSocket subscribers; exactly
// one field is set. A Feeder gets them in the chain's order: per execution
// the execution result, its notifications, then the transaction; then the
// header and the block.
type ChainEvent struct {
	Block        *block.Block
	Header       *block.Header
	Tx           *transaction.Transaction
	Execution    *state.AppExecResult
	Notification *result.ContainedNotificationEvent
	Mempool      *mempoolevent.Event
}
