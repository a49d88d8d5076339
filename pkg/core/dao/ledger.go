package dao

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// Errors of the ledger records.
var (
	// ErrAlreadyExists: the transaction is on chain.
	ErrAlreadyExists = errors.New("transaction already exists")
	// ErrHasConflicts: an on-chain transaction declares a conflict with it.
	ErrHasConflicts = errors.New("transaction has conflicts")
	// ErrCorrupt: a stored record does not decode.
	ErrCorrupt = errors.New("corrupt ledger record")
)

// conflictRecordLen is ExecTransaction plus the block index (LE).
const conflictRecordLen = 1 + 4

// txRecordHeaderLen is ExecTransaction, the block index and the VM state.
const txRecordHeaderLen = 1 + 4 + 1

// lookupKeys are scratch buffers for the executable keys of lookups (the
// already-on-chain check of every transaction): a key passed to Get
// escapes through the store interface, and stores do not keep it.
var lookupKeys = sync.Pool{New: func() any { return new([1 + hash.Uint256Size + hash.Uint160Size]byte) }}

func executableKey(h hash.Uint256) []byte {
	k := make([]byte, 1+hash.Uint256Size, 1+hash.Uint256Size+hash.Uint160Size)
	k[0] = DataExecutable
	copy(k[1:], h[:])
	return k
}

// StoreAsBlock stores the trimmed block: ExecBlock, the header (binary form,
// witness included), the transaction count and hashes.
func (d *Simple) StoreAsBlock(b *block.Block) error {
	w := nio.NewBinWriterWithCap(1 + b.Header.Size() + 3 + len(b.Transactions)*hash.Uint256Size)
	w.WriteU8(ExecBlock)
	b.Header.EncodeBinary(w)
	w.WriteVarUint(uint64(len(b.Transactions)))
	for _, tx := range b.Transactions {
		h := tx.Hash()
		w.WriteBytes(h[:])
	}
	if w.Err != nil {
		return w.Err
	}
	d.Store.PutOwned(executableKey(b.Hash()), w.Bytes())
	return nil
}

// GetTrimmedBlock returns the header and transaction hashes of a stored
// block.
func (d *Simple) GetTrimmedBlock(h hash.Uint256) (*block.Header, []hash.Uint256, error) {
	v, err := d.Store.Get(executableKey(h))
	if err != nil {
		return nil, nil, err
	}
	if len(v) == 0 || v[0] != ExecBlock {
		return nil, nil, ErrNotFound
	}
	r := nio.NewBinReaderFromBuf(v[1:])
	hdr := &block.Header{StateRootEnabled: d.StateRootInHeader}
	hdr.DecodeBinary(r)
	n := r.ReadArrayLen(block.MaxTransactionsPerBlock)
	hashes := make([]hash.Uint256, n)
	for i := range hashes {
		r.ReadBytes(hashes[i][:])
	}
	if r.Err != nil {
		return nil, nil, fmt.Errorf("%w: block %s: %w", ErrCorrupt, h.StringLE(), r.Err)
	}
	return hdr, hashes, nil
}

// GetBlock returns a stored block with its transactions.
func (d *Simple) GetBlock(h hash.Uint256) (*block.Block, error) {
	hdr, hashes, err := d.GetTrimmedBlock(h)
	if err != nil {
		return nil, err
	}
	b := &block.Block{Header: *hdr, Transactions: make([]*transaction.Transaction, len(hashes))}
	for i, th := range hashes {
		tx, _, _, err := d.GetTransaction(th)
		if err != nil {
			return nil, fmt.Errorf("%w: transaction %s of block %s: %w", ErrCorrupt, th.StringLE(), h.StringLE(), err)
		}
		b.Transactions[i] = tx
	}
	return b, nil
}

// StoreAsTransaction stores tx as included in the block at index with the VM
// state of its execution: ExecTransaction, index (u32 LE), VM state, the
// transaction. For each Conflicts attribute it also stores a conflict stub
// under the conflicting hash and one record per signer (ExecTransaction and
// index), unless a block has that hash.
func (d *Simple) StoreAsTransaction(tx *transaction.Transaction, index uint32, vm vmstate.State) error {
	w := nio.NewBinWriterWithCap(txRecordHeaderLen + tx.Size())
	w.WriteU8(ExecTransaction)
	w.WriteU32LE(index)
	w.WriteU8(uint8(vm))
	tx.EncodeBinary(w)
	if w.Err != nil {
		return w.Err
	}
	key := executableKey(tx.Hash())
	val := w.Bytes()
	d.Store.PutOwned(key, val)
	stub := val[:conflictRecordLen]
	for _, attr := range tx.GetAttributes(transaction.ConflictsT) {
		ch := attr.Value.(*transaction.Conflicts).Hash
		copy(key[1:], ch[:])
		if exec, err := d.Store.Get(key); err == nil && len(exec) > 0 && exec[0] != ExecTransaction {
			continue // a block has this hash
		}
		d.Store.Put(key, stub)
		sKey := make([]byte, len(key)+hash.Uint160Size)
		copy(sKey, key)
		for _, s := range tx.Signers {
			copy(sKey[len(key):], s.Account[:])
			d.Store.Put(sKey, stub)
		}
	}
	return nil
}

// GetTransaction returns a stored transaction, the index of its block and
// the VM state of its execution. Conflict stubs are reported as not found.
func (d *Simple) GetTransaction(h hash.Uint256) (*transaction.Transaction, uint32, vmstate.State, error) {
	v, err := d.Store.Get(executableKey(h))
	if err != nil {
		return nil, 0, 0, err
	}
	if len(v) < txRecordHeaderLen || v[0] != ExecTransaction {
		return nil, 0, 0, ErrNotFound
	}
	index := binary.LittleEndian.Uint32(v[1:5])
	vm := vmstate.State(v[5])
	tx, err := transaction.NewTransactionFromOwnedBytes(v[txRecordHeaderLen:])
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%w: transaction %s: %w", ErrCorrupt, h.StringLE(), err)
	}
	return tx, index, vm, nil
}

// HasTransaction reports whether h may not be accepted: ErrAlreadyExists if
// the transaction is on chain; ErrHasConflicts if a transaction within the
// last maxTraceableBlocks blocks declared a conflict with h and shares a
// signer with signers (any conflict if signers is empty). Block hashes are
// not transactions.
func (d *Simple) HasTransaction(h hash.Uint256, signers []transaction.Signer, currentIndex, maxTraceableBlocks uint32) error {
	buf := lookupKeys.Get().(*[1 + hash.Uint256Size + hash.Uint160Size]byte)
	defer lookupKeys.Put(buf)
	buf[0] = DataExecutable
	copy(buf[1:], h[:])
	key := buf[:1+hash.Uint256Size]
	v, err := d.Store.Get(key)
	if err != nil || len(v) < conflictRecordLen || v[0] != ExecTransaction {
		return nil
	}
	if len(v) != conflictRecordLen {
		return ErrAlreadyExists
	}
	if len(signers) == 0 {
		return ErrHasConflicts
	}
	if !isTraceable(v[1:], currentIndex, maxTraceableBlocks) {
		return nil
	}
	for _, s := range signers {
		sv, err := d.Store.Get(append(key, s.Account[:]...))
		if err == nil && len(sv) == conflictRecordLen && isTraceable(sv[1:], currentIndex, maxTraceableBlocks) {
			return ErrHasConflicts
		}
	}
	return nil
}

func isTraceable(indexLE []byte, height, maxTraceableBlocks uint32) bool {
	index := binary.LittleEndian.Uint32(indexLE)
	return index <= height && uint64(index)+uint64(maxTraceableBlocks) > uint64(height)
}

func appExecKey(h hash.Uint256, trig trigger.Type) []byte {
	k := make([]byte, 0, 2+hash.Uint256Size)
	k = append(k, DataAppExecResult)
	k = append(k, h[:]...)
	return append(k, byte(trig))
}

// StoreAppExecResult stores an execution result under its container hash
// and trigger.
func (d *Simple) StoreAppExecResult(aer *state.AppExecResult) error {
	b, err := state.EncodeAppExecResult(aer)
	if err != nil {
		return err
	}
	d.Store.PutOwned(appExecKey(aer.Container, aer.Trigger), b)
	return nil
}

// GetAppExecResults returns the execution results stored for a block or
// transaction hash whose trigger is in trig (trigger.All for all), in
// trigger order (OnPersist, PostPersist, Application).
func (d *Simple) GetAppExecResults(h hash.Uint256, trig trigger.Type) ([]state.AppExecResult, error) {
	var res []state.AppExecResult
	for _, t := range []trigger.Type{trigger.OnPersist, trigger.PostPersist, trigger.Verification, trigger.Application} {
		if trig&t == 0 {
			continue
		}
		v, err := d.Store.Get(appExecKey(h, t))
		if err != nil {
			continue
		}
		aer, err := state.DecodeAppExecResult(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		res = append(res, *aer)
	}
	if res == nil {
		return nil, ErrNotFound
	}
	return res, nil
}

// DeleteBlock deletes a stored block, its transactions, their execution
// results and the conflict records they made, and returns the block's
// timestamp (for garbage collection of old blocks).
func (d *Simple) DeleteBlock(h hash.Uint256) (uint64, error) {
	hdr, hashes, err := d.GetTrimmedBlock(h)
	if err != nil {
		return 0, err
	}
	d.Store.Delete(executableKey(h))
	d.Store.Delete(appExecKey(h, trigger.OnPersist))
	d.Store.Delete(appExecKey(h, trigger.PostPersist))
	for _, th := range hashes {
		tx, _, _, err := d.GetTransaction(th)
		if err != nil {
			return 0, fmt.Errorf("%w: transaction %s: %w", ErrCorrupt, th.StringLE(), err)
		}
		d.Store.Delete(executableKey(th))
		d.Store.Delete(appExecKey(th, trigger.Application))
		for _, attr := range tx.GetAttributes(transaction.ConflictsT) {
			ch := attr.Value.(*transaction.Conflicts).Hash
			key := executableKey(ch)
			v, err := d.Store.Get(key)
			if err != nil || len(v) != conflictRecordLen || v[0] != ExecTransaction {
				continue
			}
			if binary.LittleEndian.Uint32(v[1:]) == hdr.Index {
				d.Store.Delete(key)
			}
			for _, s := range tx.Signers {
				sKey := append(key, s.Account[:]...)
				if sv, err := d.Store.Get(sKey); err == nil && len(sv) == conflictRecordLen &&
					binary.LittleEndian.Uint32(sv[1:]) == hdr.Index {
					d.Store.Delete(sKey)
				}
			}
		}
	}
	return hdr.Timestamp, nil
}

func hashIndexValue(h hash.Uint256, index uint32) []byte {
	v := make([]byte, hash.Uint256Size+4)
	copy(v, h[:])
	binary.LittleEndian.PutUint32(v[hash.Uint256Size:], index)
	return v
}

func getHashIndex(d *Simple, key byte) (hash.Uint256, uint32, error) {
	v, err := d.Store.Get([]byte{key})
	if err != nil {
		return hash.Uint256{}, 0, err
	}
	if len(v) != hash.Uint256Size+4 {
		return hash.Uint256{}, 0, ErrCorrupt
	}
	return hash.Uint256(v[:hash.Uint256Size]), binary.LittleEndian.Uint32(v[hash.Uint256Size:]), nil
}

// StoreAsCurrentBlock records the latest persisted block.
func (d *Simple) StoreAsCurrentBlock(h hash.Uint256, index uint32) {
	d.Store.Put([]byte{SYSCurrentBlock}, hashIndexValue(h, index))
}

// GetCurrentBlock returns the latest persisted block's hash and index.
func (d *Simple) GetCurrentBlock() (hash.Uint256, uint32, error) {
	return getHashIndex(d, SYSCurrentBlock)
}

// PutCurrentHeader records the latest stored header.
func (d *Simple) PutCurrentHeader(h hash.Uint256, index uint32) {
	d.Store.Put([]byte{SYSCurrentHeader}, hashIndexValue(h, index))
}

// GetCurrentHeader returns the latest stored header's hash and index.
func (d *Simple) GetCurrentHeader() (hash.Uint256, uint32, error) {
	return getHashIndex(d, SYSCurrentHeader)
}

func headerHashKey(index uint32) []byte {
	k := make([]byte, 5)
	k[0] = IXHeaderHash
	binary.BigEndian.PutUint32(k[1:], index)
	return k
}

// PutHeaderHash records the hash of the header at index.
func (d *Simple) PutHeaderHash(index uint32, h hash.Uint256) {
	d.Store.Put(headerHashKey(index), h[:])
}

// GetHeaderHash returns the hash of the header at index.
func (d *Simple) GetHeaderHash(index uint32) (hash.Uint256, error) {
	v, err := d.Store.Get(headerHashKey(index))
	if err != nil {
		return hash.Uint256{}, err
	}
	if len(v) != hash.Uint256Size {
		return hash.Uint256{}, ErrCorrupt
	}
	return hash.Uint256(v), nil
}

// DeleteHeaderHash deletes the header hash record at index.
func (d *Simple) DeleteHeaderHash(index uint32) {
	d.Store.Delete(headerHashKey(index))
}

// Version is the database format record.
type Version struct {
	_ struct{} `cbor:",toarray"`
	// Value names the format, e.g. "n3node-1".
	Value string
	// KeepOnlyLatestState and RemoveUntraceableBlocks are the ledger
	// settings the database was made with; they cannot change later.
	KeepOnlyLatestState     bool
	RemoveUntraceableBlocks bool
}

const versionRecordV1 = 1

// PutVersion stores the database version record.
func (d *Simple) PutVersion(v Version) error {
	b, err := state.EncodeRecord(versionRecordV1, &v)
	if err != nil {
		return err
	}
	d.Store.Put([]byte{SYSVersion}, b)
	return nil
}

// GetVersion returns the database version record.
func (d *Simple) GetVersion() (Version, error) {
	var v Version
	b, err := d.Store.Get([]byte{SYSVersion})
	if err != nil {
		return v, err
	}
	err = state.DecodeRecord(b, versionRecordV1, &v)
	return v, err
}
