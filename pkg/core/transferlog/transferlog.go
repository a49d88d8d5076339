package transferlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/fxamacker/cbor/v2"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
)

// BatchSize is the number of transfers per stored batch (neo-go
// state.TokenTransferBatchSize).
const BatchSize = 128

// MaxTokenIDLen bounds a NEP-11 token id (C# ApplicationEngine.
// MaxStorageKeySize, neo-go limits.MaxStorageKeyLen).
const MaxTokenIDLen = 64

// maxAmountLen bounds a stored amount (a VM integer is at most 32 bytes).
const maxAmountLen = 32

// Record versions (the first value byte).
const (
	infoV1  = 1
	batchV1 = 1
)

// Key prefixes.
const (
	prefixNEP11 = byte(storage.STNEP11Transfers)
	prefixNEP17 = byte(storage.STNEP17Transfers)
	prefixInfo  = byte(storage.STTokenTransferInfo)
)

// ErrCorrupt is wrapped by errors about records that do not decode.
var ErrCorrupt = errors.New("transferlog: corrupt record")

var (
	encMode cbor.EncMode
	decMode cbor.DecMode
)

func init() {
	var err error
	if encMode, err = cbor.CoreDetEncOptions().EncMode(); err != nil {
		panic(err)
	}
	decMode, err = cbor.DecOptions{
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		IndefLength:      cbor.IndefLengthForbidden,
		MaxNestedLevels:  4,
		MaxArrayElements: 1 << 16,
		MaxMapPairs:      1 << 20,
	}.DecMode()
	if err != nil {
		panic(err)
	}
}

// Transfer is one side of a token transfer as seen by one account.
type Transfer struct {
	_ struct{} `cbor:",toarray"`
	// Asset is the token contract's id.
	Asset int32
	// Counterparty is the other side (zero for a mint or burn).
	Counterparty hash.Uint160
	// Amount is negative when the account sent tokens (Neo integer
	// encoding; use AmountInt).
	Amount []byte
	// Block and Timestamp are the index and timestamp of the block.
	Block     uint32
	Timestamp uint64
	// Tx is the transaction, or the block for OnPersist/PostPersist.
	Tx hash.Uint256
	// ID is the NEP-11 token id (nil for NEP-17).
	ID []byte
}

// AmountInt returns the amount as an integer.
func (t *Transfer) AmountInt() *big.Int { return bigint.FromBytes(t.Amount) }

func (t *Transfer) check() error {
	if len(t.Amount) > maxAmountLen || len(t.ID) > MaxTokenIDLen {
		return fmt.Errorf("%w: transfer field too long", ErrCorrupt)
	}
	return nil
}

// Cursor locates the open (last) batch of one standard for an account.
type Cursor struct {
	_ struct{} `cbor:",toarray"`
	// Batch is the open batch's number, Timestamp its key timestamp.
	Batch     uint32
	Timestamp uint64
	// Count is the number of transfers in the open batch (0: none stored).
	Count uint32
}

// Info is the per-account record.
type Info struct {
	_ struct{} `cbor:",toarray"`
	// LastUpdated maps token contract ids to the index of the block that
	// last recorded a transfer of the token for the account.
	LastUpdated map[int32]uint32
	NEP11       Cursor
	NEP17       Cursor
}

func infoKey(acc hash.Uint160) []byte {
	return append([]byte{prefixInfo}, acc[:]...)
}

func batchKey(acc hash.Uint160, nep11 bool, ts uint64, n uint32) []byte {
	k := make([]byte, 1+hash.Uint160Size+8+4)
	k[0] = prefixNEP17
	if nep11 {
		k[0] = prefixNEP11
	}
	copy(k[1:], acc[:])
	binary.BigEndian.PutUint64(k[1+hash.Uint160Size:], ts)
	binary.BigEndian.PutUint32(k[1+hash.Uint160Size+8:], n)
	return k
}

// DecodeInfo decodes an Info record.
func DecodeInfo(v []byte) (*Info, error) {
	if len(v) == 0 || v[0] != infoV1 {
		return nil, fmt.Errorf("%w: info version", ErrCorrupt)
	}
	info := new(Info)
	if err := decMode.Unmarshal(v[1:], info); err != nil {
		return nil, fmt.Errorf("%w: info: %w", ErrCorrupt, err)
	}
	if info.LastUpdated == nil {
		info.LastUpdated = map[int32]uint32{}
	}
	return info, nil
}

func encodeInfo(info *Info) ([]byte, error) {
	b, err := encMode.Marshal(info)
	if err != nil {
		return nil, err
	}
	return append([]byte{infoV1}, b...), nil
}

// Getter reads records; storage.Store and dao layers' stores satisfy it.
type Getter interface {
	Get(key []byte) ([]byte, error)
}

// GetInfo returns the account's Info (an empty one if it has none).
func GetInfo(s Getter, acc hash.Uint160) (*Info, error) {
	v, err := s.Get(infoKey(acc))
	if errors.Is(err, storage.ErrKeyNotFound) {
		return &Info{LastUpdated: map[int32]uint32{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return DecodeInfo(v)
}

// DecodeBatch decodes a batch into its transfers, oldest first.
func DecodeBatch(v []byte) ([]Transfer, error) {
	if len(v) == 0 || v[0] != batchV1 {
		return nil, fmt.Errorf("%w: batch version", ErrCorrupt)
	}
	var res []Transfer
	rest := v[1:]
	for len(rest) != 0 {
		if len(res) >= BatchSize {
			return nil, fmt.Errorf("%w: batch longer than %d", ErrCorrupt, BatchSize)
		}
		var t Transfer
		r, err := decMode.UnmarshalFirst(rest, &t)
		if err != nil {
			return nil, fmt.Errorf("%w: batch: %w", ErrCorrupt, err)
		}
		if err := t.check(); err != nil {
			return nil, err
		}
		res = append(res, t)
		rest = r
	}
	return res, nil
}

// Seeker walks records; storage.Store satisfies it.
type Seeker interface {
	Seek(rng storage.SeekRange, f func(k, v []byte) bool)
}

// ForEach calls f for the account's transfers of one standard (NEP-11 if
// nep11) recorded in blocks with timestamps up to about newest, newest
// first, until f returns false or an error. Batches whose key timestamp
// exceeds newest are skipped; entries of the others are all passed, so f
// must still filter by Timestamp (as neo-go's RPC server does).
func ForEach(s Seeker, acc hash.Uint160, nep11 bool, newest uint64, f func(*Transfer) (bool, error)) error {
	k := batchKey(acc, nep11, newest, 0)
	pl := 1 + hash.Uint160Size
	var ferr error
	s.Seek(storage.SeekRange{Prefix: k[:pl], Start: k[pl : pl+8], Backwards: true}, func(_, v []byte) bool {
		ts, err := DecodeBatch(v)
		if err != nil {
			ferr = err
			return false
		}
		for i := range slices.Backward(ts) {
			cont, err := f(&ts[i])
			if err != nil {
				ferr = err
				return false
			}
			if !cont {
				return false
			}
		}
		return true
	})
	return ferr
}

// Store is what a Writer needs: reads of the records before the block and
// writes of the block's layer (a private MemCachedStore).
type Store interface {
	Getter
	Put(key, value []byte)
}

type account struct {
	info  *Info
	batch [2][]byte // open batch per standard (0: NEP-17, 1: NEP-11)
}

// Writer records the transfers of one block.
type Writer struct {
	s        Store
	accounts map[hash.Uint160]*account
	order    []hash.Uint160
	block    uint32
	ts       uint64
}

// NewWriter returns a writer for the block with the given index and
// timestamp, reading earlier records from and writing to s.
func NewWriter(s Store, blockIndex uint32, timestamp uint64) *Writer {
	return &Writer{s: s, accounts: make(map[hash.Uint160]*account), block: blockIndex, ts: timestamp}
}

func (w *Writer) account(acc hash.Uint160) (*account, error) {
	if a, ok := w.accounts[acc]; ok {
		return a, nil
	}
	info, err := GetInfo(w.s, acc)
	if err != nil {
		return nil, err
	}
	a := &account{info: info}
	for i, c := range []*Cursor{&info.NEP17, &info.NEP11} {
		if c.Count == 0 {
			a.batch[i] = []byte{batchV1}
			continue
		}
		v, err := w.s.Get(batchKey(acc, i == 1, c.Timestamp, c.Batch))
		if err != nil {
			return nil, fmt.Errorf("%w: open batch of %s: %w", ErrCorrupt, acc.StringLE(), err)
		}
		a.batch[i] = v
	}
	w.accounts[acc] = a
	w.order = append(w.order, acc)
	return a, nil
}

// Add records a transfer of amount tokens of contract asset from one
// account to another (zero for a mint or burn), in container tx; id is the
// NEP-11 token id (nil for NEP-17).
func (w *Writer) Add(asset int32, from, to hash.Uint160, amount *big.Int, id []byte, nep11 bool, tx hash.Uint256) error {
	if len(id) > MaxTokenIDLen {
		return fmt.Errorf("token id of %d bytes", len(id))
	}
	t := Transfer{Asset: asset, Block: w.block, Timestamp: w.ts, Tx: tx}
	if nep11 {
		t.ID = id
		if t.ID == nil {
			t.ID = []byte{}
		}
	}
	if !from.IsZero() {
		t.Counterparty = to
		t.Amount = bigint.ToBytes(new(big.Int).Neg(amount))
		if err := w.append(from, &t, nep11, asset); err != nil {
			return err
		}
	}
	if !to.IsZero() {
		t.Counterparty = from
		t.Amount = bigint.ToBytes(amount)
		if err := w.append(to, &t, nep11, asset); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) append(acc hash.Uint160, t *Transfer, nep11 bool, asset int32) error {
	a, err := w.account(acc)
	if err != nil {
		return err
	}
	i, c := 0, &a.info.NEP17
	if nep11 {
		i, c = 1, &a.info.NEP11
	}
	b, err := encMode.Marshal(t)
	if err != nil {
		return err
	}
	a.batch[i] = append(a.batch[i], b...)
	c.Count++
	if c.Count >= BatchSize {
		w.s.Put(batchKey(acc, nep11, c.Timestamp, c.Batch), a.batch[i])
		a.batch[i] = []byte{batchV1}
		c.Batch++
		c.Timestamp = w.ts
		c.Count = 0
	}
	a.info.LastUpdated[asset] = w.block
	return nil
}

// Flush writes the records the block changed.
func (w *Writer) Flush() error {
	for _, acc := range w.order {
		a := w.accounts[acc]
		v, err := encodeInfo(a.info)
		if err != nil {
			return err
		}
		w.s.Put(infoKey(acc), v)
		for i, c := range []*Cursor{&a.info.NEP17, &a.info.NEP11} {
			if c.Count != 0 {
				w.s.Put(batchKey(acc, i == 1, c.Timestamp, c.Batch), a.batch[i])
			}
		}
	}
	return nil
}

// GCKeep returns the SeekGC keep function that drops transfer batches whose
// entries are all from blocks with timestamps below ts (neo-go
// removeOldTransfers): walking an account's batches from new to old, a batch
// is dropped if a newer batch of the account starts at or before ts. Use it
// backwards over each of Prefixes.
func GCKeep(ts uint64) func(k, v []byte) bool {
	var (
		acc     hash.Uint160
		seen    bool
		canDrop bool
	)
	return func(k, _ []byte) bool {
		if len(k) != 1+hash.Uint160Size+8+4 {
			return true
		}
		bAcc := hash.Uint160(k[1 : 1+hash.Uint160Size])
		bTs := binary.BigEndian.Uint64(k[1+hash.Uint160Size:])
		if !seen || bAcc != acc {
			acc, seen = bAcc, true
		} else if canDrop {
			return false
		}
		canDrop = bTs <= ts
		return true
	}
}

// Prefixes are the key prefixes of the transfer batches.
var Prefixes = [][]byte{{prefixNEP11}, {prefixNEP17}}
