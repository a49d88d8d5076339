package transferlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/fxamacker/cbor/v2"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
)

// MaxTokenIDLen bounds a NEP-11 token id (C# ApplicationEngine.
// MaxStorageKeySize, neo-go limits.MaxStorageKeyLen).
const MaxTokenIDLen = 64

// maxAmountLen bounds a stored amount (a VM integer is at most 32 bytes).
const maxAmountLen = 32

// maxRecordTransfers bounds the transfers of one record (one account, one
// block) a decoder accepts.
const maxRecordTransfers = 1 << 16

// Record versions (the first value byte).
const (
	recordV1  = 1
	updatedV1 = 1
)

// Key prefixes.
const (
	prefixNEP11   = byte(storage.STNEP11Transfers)
	prefixNEP17   = byte(storage.STNEP17Transfers)
	prefixUpdated = byte(storage.STTokenTransferInfo)
)

// ErrCorrupt is wrapped by errors about records that do not decode.
var ErrCorrupt = errors.New("transferlog: corrupt record")

var (
	encMode cbor.UserBufferEncMode // Marshal, and MarshalToBuffer into a record
	decMode cbor.DecMode
)

func init() {
	var err error
	if encMode, err = cbor.CoreDetEncOptions().UserBufferEncMode(); err != nil {
		panic(err)
	}
	decMode, err = cbor.DecOptions{
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		IndefLength:      cbor.IndefLengthForbidden,
		MaxNestedLevels:  4,
		MaxArrayElements: 1 << 16,
		MaxMapPairs:      1 << 16,
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

// updated is the value of a last-updated record.
type updated struct {
	_     struct{} `cbor:",toarray"`
	Block uint32
}

func recordKey(acc hash.Uint160, nep11 bool, ts uint64, index uint32) []byte {
	k := make([]byte, 1+hash.Uint160Size+8+4)
	k[0] = prefixNEP17
	if nep11 {
		k[0] = prefixNEP11
	}
	copy(k[1:], acc[:])
	binary.BigEndian.PutUint64(k[1+hash.Uint160Size:], ts)
	binary.BigEndian.PutUint32(k[1+hash.Uint160Size+8:], index)
	return k
}

func updatedKey(acc hash.Uint160, asset int32) []byte {
	k := make([]byte, 1+hash.Uint160Size+4)
	k[0] = prefixUpdated
	copy(k[1:], acc[:])
	binary.BigEndian.PutUint32(k[1+hash.Uint160Size:], uint32(asset))
	return k
}

// Seeker walks records; storage.Store satisfies it.
type Seeker interface {
	Seek(rng storage.SeekRange, f func(k, v []byte) bool)
}

// GetLastUpdated returns, per token contract id, the index of the block
// that last recorded a transfer of the token for acc (empty if none).
func GetLastUpdated(s Seeker, acc hash.Uint160) (map[int32]uint32, error) {
	res := map[int32]uint32{}
	var err error
	s.Seek(storage.SeekRange{Prefix: append([]byte{prefixUpdated}, acc[:]...)}, func(k, v []byte) bool {
		if len(k) != 1+hash.Uint160Size+4 || len(v) == 0 || v[0] != updatedV1 {
			err = fmt.Errorf("%w: last-updated record", ErrCorrupt)
			return false
		}
		var u updated
		if e := decMode.Unmarshal(v[1:], &u); e != nil {
			err = fmt.Errorf("%w: last-updated record: %w", ErrCorrupt, e)
			return false
		}
		res[int32(binary.BigEndian.Uint32(k[1+hash.Uint160Size:]))] = u.Block
		return true
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// DecodeRecord decodes the transfers of one account in one block, in the
// order they were recorded.
func DecodeRecord(v []byte) ([]Transfer, error) {
	if len(v) == 0 || v[0] != recordV1 {
		return nil, fmt.Errorf("%w: record version", ErrCorrupt)
	}
	var res []Transfer
	rest := v[1:]
	for len(rest) != 0 {
		if len(res) >= maxRecordTransfers {
			return nil, fmt.Errorf("%w: record longer than %d", ErrCorrupt, maxRecordTransfers)
		}
		var t Transfer
		r, err := decMode.UnmarshalFirst(rest, &t)
		if err != nil {
			return nil, fmt.Errorf("%w: record: %w", ErrCorrupt, err)
		}
		if err := t.check(); err != nil {
			return nil, err
		}
		res = append(res, t)
		rest = r
	}
	return res, nil
}

// ForEach calls f for the account's transfers of one standard (NEP-11 if
// nep11) recorded in blocks with timestamps up to newest, newest first,
// until f returns false or an error.
func ForEach(s Seeker, acc hash.Uint160, nep11 bool, newest uint64, f func(*Transfer) (bool, error)) error {
	k := recordKey(acc, nep11, newest, 0)
	pl := 1 + hash.Uint160Size
	var ferr error
	s.Seek(storage.SeekRange{Prefix: k[:pl], Start: k[pl : pl+8], Backwards: true}, func(_, v []byte) bool {
		ts, err := DecodeRecord(v)
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

// Putter receives a block's records (a private MemCachedStore).
type Putter interface {
	Put(key, value []byte)
}

// ownedPutter is a Putter that can keep a value instead of copying it
// (storage.MemCachedStore.PutOwned); the records are built to be stored.
type ownedPutter interface {
	PutOwned(key, value []byte)
}

type account struct {
	recs    [2]bytes.Buffer // NEP-17, NEP-11 record (version byte, then transfers); empty if none
	updated map[int32]struct{}
}

// Writer records the transfers of one block. It only writes: every record
// is new (one per account, standard and block) and last-updated records
// are overwritten.
type Writer struct {
	p        Putter
	accounts map[hash.Uint160]*account
	order    []hash.Uint160
	block    uint32
	ts       uint64
	amt      [8]byte // scratch of amount
}

// NewWriter returns a writer for the block with the given index and
// timestamp, writing to p.
func NewWriter(p Putter, blockIndex uint32, timestamp uint64) *Writer {
	return &Writer{p: p, accounts: make(map[hash.Uint160]*account), block: blockIndex, ts: timestamp}
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
		t.Amount = w.amount(amount, true)
		if err := w.append(from, &t, nep11, asset); err != nil {
			return err
		}
	}
	if !to.IsZero() {
		t.Counterparty = from
		t.Amount = w.amount(amount, false)
		if err := w.append(to, &t, nep11, asset); err != nil {
			return err
		}
	}
	return nil
}

// amount returns the encoding of x (negated if neg) as bigint.ToBytes
// does (nil for zero). An int64 is encoded into the writer's scratch,
// which stays valid until the next call: append copies it.
func (w *Writer) amount(x *big.Int, neg bool) []byte {
	if x.IsInt64() && x.Int64() != math.MinInt64 {
		v := x.Int64()
		if neg {
			v = -v
		}
		if b := bigint.AppendInt64(w.amt[:0], v); len(b) > 0 {
			return b
		}
		return nil
	}
	if neg {
		return bigint.ToBytes(new(big.Int).Neg(x))
	}
	return bigint.ToBytes(x)
}

func (w *Writer) append(acc hash.Uint160, t *Transfer, nep11 bool, asset int32) error {
	a, ok := w.accounts[acc]
	if !ok {
		a = &account{updated: map[int32]struct{}{}}
		w.accounts[acc] = a
		w.order = append(w.order, acc)
	}
	i := 0
	if nep11 {
		i = 1
	}
	rec := &a.recs[i]
	if rec.Len() == 0 {
		rec.WriteByte(recordV1)
	}
	if err := encMode.MarshalToBuffer(t, rec); err != nil {
		return err
	}
	a.updated[asset] = struct{}{}
	return nil
}

// Flush writes the block's records.
func (w *Writer) Flush() error {
	u, err := encMode.Marshal(&updated{Block: w.block})
	if err != nil {
		return err
	}
	uv := append([]byte{updatedV1}, u...)
	put := w.p.Put
	if o, ok := w.p.(ownedPutter); ok {
		put = o.PutOwned
	}
	for _, acc := range w.order {
		a := w.accounts[acc]
		for i := range a.recs {
			if rec := &a.recs[i]; rec.Len() != 0 {
				put(recordKey(acc, i == 1, w.ts, w.block), rec.Bytes())
				*rec = bytes.Buffer{} // the store owns the bytes now
			}
		}
		for asset := range a.updated {
			w.p.Put(updatedKey(acc, asset), uv)
		}
	}
	return nil
}

// GCKeep returns the SeekGC keep function that drops the transfer records
// of blocks with timestamps below ts. Use it over each of Prefixes.
func GCKeep(ts uint64) func(k, v []byte) bool {
	return func(k, _ []byte) bool {
		if len(k) != 1+hash.Uint160Size+8+4 {
			return true
		}
		return binary.BigEndian.Uint64(k[1+hash.Uint160Size:]) >= ts
	}
}

// Prefixes are the key prefixes of the transfer records.
var Prefixes = [][]byte{{prefixNEP11}, {prefixNEP17}}

// Truncate adds to cs (nil value: delete) what rolls the log back to the
// end of block height: the records of later blocks are deleted, and each
// last-updated height above height becomes the newest remaining block
// that recorded a transfer of the token for the account (or is deleted
// when none is left). s must not yet have cs applied.
func Truncate(s Seeker, height uint32, cs map[string][]byte) error {
	const recLen = 1 + hash.Uint160Size + 8 + 4
	for _, p := range Prefixes {
		s.Seek(storage.SeekRange{Prefix: p}, func(k, _ []byte) bool {
			if len(k) == recLen && binary.BigEndian.Uint32(k[recLen-4:]) > height {
				cs[string(k)] = nil
			}
			return true
		})
	}
	type stale struct {
		acc   hash.Uint160
		asset int32
		key   string
	}
	var todo []stale
	var err error
	s.Seek(storage.SeekRange{Prefix: []byte{prefixUpdated}}, func(k, v []byte) bool {
		var u updated
		if len(k) != 1+hash.Uint160Size+4 || len(v) == 0 || v[0] != updatedV1 || decMode.Unmarshal(v[1:], &u) != nil {
			err = fmt.Errorf("%w: last-updated record %x", ErrCorrupt, k)
			return false
		}
		if u.Block > height {
			todo = append(todo, stale{hash.Uint160(k[1 : 1+hash.Uint160Size]), int32(binary.BigEndian.Uint32(k[1+hash.Uint160Size:])), string(k)})
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, st := range todo {
		var last uint32
		found := false
		for _, p := range Prefixes {
			s.Seek(storage.SeekRange{Prefix: append(append([]byte{}, p...), st.acc[:]...)}, func(k, v []byte) bool {
				if len(k) != recLen {
					return true
				}
				idx := binary.BigEndian.Uint32(k[recLen-4:])
				if idx > height || found && idx <= last {
					return true
				}
				ts, derr := DecodeRecord(v)
				if derr != nil {
					err = derr
					return false
				}
				for i := range ts {
					if ts[i].Asset == st.asset {
						last, found = idx, true
						break
					}
				}
				return true
			})
			if err != nil {
				return err
			}
		}
		if !found {
			cs[st.key] = nil
			continue
		}
		u, merr := encMode.Marshal(&updated{Block: last})
		if merr != nil {
			return merr
		}
		cs[st.key] = append([]byte{updatedV1}, u...)
	}
	return nil
}
