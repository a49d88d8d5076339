package refchain

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// Protocol limits the decoder enforces (names as in C# Neo).
const (
	// HeaderUnsignedSize is the size of a header's hashed part: version,
	// prev hash, merkle root, timestamp, nonce, index, primary index, next
	// consensus.
	HeaderUnsignedSize = 4 + 32 + 32 + 8 + 8 + 4 + 1 + 20
	// MaxTransactionsPerBlock bounds a block's transaction count (C#: the
	// ushort.MaxValue passed to ReadSerializableArray in Block.Deserialize).
	MaxTransactionsPerBlock = 0xffff
	// MaxTransactionSize is Transaction.MaxTransactionSize.
	MaxTransactionSize = 102400
	// MaxTransactionAttributes is Transaction.MaxTransactionAttributes; it
	// also bounds the signer count.
	MaxTransactionAttributes = 16
	// MaxScriptLength bounds a transaction script (C#: ReadVarMemory(ushort.MaxValue)).
	MaxScriptLength = 0xffff
	// MaxInvocationScript is Witness.MaxInvocationScript.
	MaxInvocationScript = 1024
	// MaxVerificationScript is Witness.MaxVerificationScript.
	MaxVerificationScript = 1024
	// MaxSubitems is WitnessCondition.MaxSubitems (and Signer's limit on
	// allowed contracts, groups and rules).
	MaxSubitems = 16
	// MaxNestingDepth bounds witness condition nesting. C# uses 2 or 3
	// depending on the release; this decoder only needs a bound against
	// runaway recursion, so it accepts up to 8.
	MaxNestingDepth = 8
	// MaxOracleResultSize is OracleResponse.MaxResultSize.
	MaxOracleResultSize = 0xffff
)

// Witness scopes and attribute types the decoder understands.
const (
	scopeCustomContracts = 0x10
	scopeCustomGroups    = 0x20
	scopeWitnessRules    = 0x40

	attrHighPriority   = 0x01
	attrOracleResponse = 0x11
	attrNotValidBefore = 0x20
	attrConflicts      = 0x21
	attrNotaryAssisted = 0x22
)

// ErrBlock is wrapped by every block decoding error.
var ErrBlock = errors.New("refchain: bad block")

// Block is the part of a block the fixture checks need.
type Block struct {
	Version       uint32
	PrevHash      hash.Uint256
	MerkleRoot    hash.Uint256
	Timestamp     uint64
	Nonce         uint64
	Index         uint32
	PrimaryIndex  uint8
	NextConsensus hash.Uint160
	// Hash is SHA-256 of the first HeaderUnsignedSize bytes.
	Hash         hash.Uint256
	Transactions []Transaction
}

// Transaction is the part of a transaction the fixture checks need.
type Transaction struct {
	Hash            hash.Uint256 // SHA-256 of the unsigned part
	Raw             []byte       // the whole transaction, aliasing the block bytes
	Nonce           uint32
	SystemFee       int64
	NetworkFee      int64
	ValidUntilBlock uint32
	Signers         []hash.Uint160
	AttributeTypes  []byte
	Script          []byte
}

// DecodeBlock parses a serialized block (header with its single witness and
// the transactions). It checks structure and limits only, not signatures,
// fees or the merkle root.
func DecodeBlock(raw []byte) (*Block, error) {
	if len(raw) < HeaderUnsignedSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrBlock, len(raw))
	}
	r := nio.NewBinReaderFromBuf(raw)
	b := new(Block)
	b.Version = r.ReadU32LE()
	r.ReadBytes(b.PrevHash[:])
	r.ReadBytes(b.MerkleRoot[:])
	b.Timestamp = r.ReadU64LE()
	b.Nonce = r.ReadU64LE()
	b.Index = r.ReadU32LE()
	b.PrimaryIndex = r.ReadU8()
	r.ReadBytes(b.NextConsensus[:])
	b.Hash = hash.Sha256(raw[:HeaderUnsignedSize])
	if b.Version != blockVersion0 {
		return nil, fmt.Errorf("%w: version %d", ErrBlock, b.Version)
	}
	if n := r.ReadArrayLen(1); r.Err == nil && n != 1 {
		return nil, fmt.Errorf("%w: %d header witnesses", ErrBlock, n)
	}
	readWitness(r)
	n := r.ReadArrayLen(MaxTransactionsPerBlock)
	for i := 0; i < n && r.Err == nil; i++ {
		tx, err := decodeTx(r, raw)
		if err != nil {
			return nil, fmt.Errorf("%w: tx %d: %w", ErrBlock, i, err)
		}
		b.Transactions = append(b.Transactions, tx)
	}
	if r.Err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBlock, r.Err)
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrBlock, r.Len())
	}
	return b, nil
}

// TxHashes returns the block's transaction hashes in block order.
func (b *Block) TxHashes() []hash.Uint256 {
	hs := make([]hash.Uint256, len(b.Transactions))
	for i := range b.Transactions {
		hs[i] = b.Transactions[i].Hash
	}
	return hs
}

func readWitness(r *nio.BinReader) {
	r.ReadVarBytesAlias(MaxInvocationScript)
	r.ReadVarBytesAlias(MaxVerificationScript)
}

func decodeTx(r *nio.BinReader, raw []byte) (Transaction, error) {
	var tx Transaction
	start := r.Offset()
	if v := r.ReadU8(); r.Err == nil && v != 0 {
		return tx, fmt.Errorf("version %d", v)
	}
	tx.Nonce = r.ReadU32LE()
	tx.SystemFee = r.ReadI64LE()
	tx.NetworkFee = r.ReadI64LE()
	tx.ValidUntilBlock = r.ReadU32LE()
	ns := r.ReadArrayLen(MaxTransactionAttributes)
	if r.Err == nil && ns == 0 {
		return tx, errors.New("no signers")
	}
	for i := 0; i < ns && r.Err == nil; i++ {
		var acc hash.Uint160
		r.ReadBytes(acc[:])
		tx.Signers = append(tx.Signers, acc)
		scopes := r.ReadU8()
		if scopes&scopeCustomContracts != 0 {
			r.ReadBytesAlias(20 * r.ReadArrayLen(MaxSubitems))
		}
		if scopes&scopeCustomGroups != 0 {
			r.ReadBytesAlias(33 * r.ReadArrayLen(MaxSubitems))
		}
		if scopes&scopeWitnessRules != 0 {
			nr := r.ReadArrayLen(MaxSubitems)
			for j := 0; j < nr && r.Err == nil; j++ {
				r.ReadU8() // action
				readCondition(r, 0)
			}
		}
	}
	na := r.ReadArrayLen(MaxTransactionAttributes - ns)
	for i := 0; i < na && r.Err == nil; i++ {
		t := r.ReadU8()
		tx.AttributeTypes = append(tx.AttributeTypes, t)
		switch t {
		case attrHighPriority:
		case attrOracleResponse:
			r.ReadU64LE()
			r.ReadU8()
			r.ReadVarBytesAlias(MaxOracleResultSize)
		case attrNotValidBefore:
			r.ReadU32LE()
		case attrConflicts:
			r.ReadBytesAlias(32)
		case attrNotaryAssisted:
			r.ReadU8()
		default:
			if r.Err == nil {
				return tx, fmt.Errorf("unknown attribute type 0x%02x", t)
			}
		}
	}
	tx.Script = r.ReadVarBytesAlias(MaxScriptLength)
	if r.Err == nil && len(tx.Script) == 0 {
		return tx, errors.New("empty script")
	}
	if r.Err != nil {
		return tx, r.Err
	}
	tx.Hash = hash.Sha256(raw[start:r.Offset()])
	nw := r.ReadArrayLen(MaxTransactionAttributes)
	if r.Err == nil && nw != ns {
		return tx, fmt.Errorf("%d witnesses for %d signers", nw, ns)
	}
	for i := 0; i < nw && r.Err == nil; i++ {
		readWitness(r)
	}
	if r.Err != nil {
		return tx, r.Err
	}
	if size := r.Offset() - start; size > MaxTransactionSize {
		return tx, fmt.Errorf("size %d > %d", size, MaxTransactionSize)
	}
	tx.Raw = raw[start:r.Offset():r.Offset()]
	return tx, nil
}

// Witness condition types (C#: WitnessConditionType).
const (
	condBoolean          = 0x00
	condNot              = 0x01
	condAnd              = 0x02
	condOr               = 0x03
	condScriptHash       = 0x18
	condGroup            = 0x19
	condCalledByEntry    = 0x20
	condCalledByContract = 0x28
	condCalledByGroup    = 0x29
)

func readCondition(r *nio.BinReader, depth int) {
	if depth > MaxNestingDepth {
		r.Errorf("witness condition nested deeper than %d", MaxNestingDepth)
		return
	}
	switch t := r.ReadU8(); t {
	case condBoolean:
		r.ReadU8()
	case condNot:
		readCondition(r, depth+1)
	case condAnd, condOr:
		n := r.ReadArrayLen(MaxSubitems)
		for i := 0; i < n && r.Err == nil; i++ {
			readCondition(r, depth+1)
		}
	case condScriptHash, condCalledByContract:
		r.ReadBytesAlias(20)
	case condGroup, condCalledByGroup:
		r.ReadBytesAlias(33)
	case condCalledByEntry:
	default:
		r.Errorf("unknown witness condition type 0x%02x", t)
	}
}
