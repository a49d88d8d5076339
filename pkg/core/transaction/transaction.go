package transaction

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// Protocol limits.
const (
	// MaxTransactionSize is the largest valid transaction (C#
	// Transaction.MaxTransactionSize); checked by CheckSize, not decoding.
	MaxTransactionSize = 102400
	// MaxTransactionAttributes bounds signers plus attributes (C#
	// Transaction.MaxTransactionAttributes).
	MaxTransactionAttributes = 16
	// MaxScriptLength bounds the script (C#: ReadVarMemory(ushort.MaxValue)).
	MaxScriptLength = math.MaxUint16
	// HeaderSize is the size of the fixed fields (C# Transaction.HeaderSize).
	HeaderSize = 1 + 4 + 8 + 8 + 4
)

// Decoding and validity errors.
var (
	ErrInvalidVersion  = errors.New("invalid transaction version")
	ErrNegativeFee     = errors.New("negative fee")
	ErrFeeOverflow     = errors.New("system fee + network fee overflows")
	ErrNoSigners       = errors.New("transaction has no signers")
	ErrTooManySigners  = errors.New("too many signers")
	ErrDuplicateSigner = errors.New("duplicate signer")
	ErrTooManyAttrs    = errors.New("too many attributes")
	ErrEmptyScript     = errors.New("empty script")
	ErrWitnessCount    = errors.New("witness count does not match signer count")
	ErrOversized       = errors.New("transaction exceeds MaxTransactionSize")
	ErrTrailingBytes   = errors.New("trailing bytes after transaction")
	ErrScriptTooLong   = errors.New("script too long")
)

// Transaction is a Neo N3 transaction. See the package documentation for
// hash caching and slice ownership.
type Transaction struct {
	Version         uint8
	Nonce           uint32
	SystemFee       int64
	NetworkFee      int64
	ValidUntilBlock uint32
	Signers         []Signer
	Attributes      []Attribute
	Script          []byte
	Witnesses       []Witness

	hash   hash.Uint256
	hashed bool
	size   int

	// Inline storage for the usual single signer and witness.
	signer1  [1]Signer
	witness1 [1]Witness
}

// New returns a transaction for script with the given nonce and fees and
// no signers yet.
func New(script []byte, nonce uint32, systemFee, networkFee int64, validUntilBlock uint32) *Transaction {
	return &Transaction{
		Nonce:           nonce,
		SystemFee:       systemFee,
		NetworkFee:      networkFee,
		ValidUntilBlock: validUntilBlock,
		Script:          script,
	}
}

// NewTransactionFromBytes decodes a transaction that must span all of b.
// b is copied once; the result aliases the copy, not b.
func NewTransactionFromBytes(b []byte) (*Transaction, error) {
	return NewTransactionFromOwnedBytes(append([]byte(nil), b...))
}

// NewTransactionFromOwnedBytes decodes a transaction that must span all of
// b and aliases b: the caller hands b over and must not modify it.
func NewTransactionFromOwnedBytes(b []byte) (*Transaction, error) {
	t := &Transaction{}
	r := nio.NewBinReaderFromBuf(b)
	t.decode(r, b)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, ErrTrailingBytes
	}
	return t, nil
}

// DecodeBinary implements io.Decodable. It keeps copies of the bytes it
// needs, not aliases of r's input.
func (t *Transaction) DecodeBinary(r *nio.BinReader) {
	rest := r.Unread()
	if rest == nil {
		r.SetError(nio.ErrUnexpectedEOF)
		return
	}
	sub := nio.NewBinReaderFromBuf(rest)
	t.decode(sub, rest)
	if sub.Err != nil {
		r.SetError(sub.Err)
		return
	}
	r.ReadBytesAlias(sub.Offset())
	t.ownBytes()
}

// DecodeAliased decodes a transaction from r whose input is buf (r reads
// buf from its current offset). Byte-slice fields alias buf. Block decoding
// uses it to share one copy between all transactions.
func (t *Transaction) DecodeAliased(r *nio.BinReader, buf []byte) { t.decode(r, buf) }

// decode reads a transaction from r, whose input is buf.
func (t *Transaction) decode(r *nio.BinReader, buf []byte) {
	*t = Transaction{}
	d := decoder{r: r}
	start := r.Offset()
	t.decodeUnsigned(&d)
	if r.Err != nil {
		return
	}
	unsignedEnd := r.Offset()
	n := d.count(len(t.Signers), 2)
	if r.Err != nil {
		r.Err = wrapLimit(ErrWitnessCount, r.Err)
		return
	}
	if n != len(t.Signers) {
		r.SetError(fmt.Errorf("%w: %d witnesses, %d signers", ErrWitnessCount, n, len(t.Signers)))
		return
	}
	if n == 1 {
		t.Witnesses = t.witness1[:]
	} else {
		t.Witnesses = make([]Witness, n)
	}
	for i := range t.Witnesses {
		d.witness(&t.Witnesses[i])
	}
	if r.Err != nil {
		return
	}
	if d.nonCanonical {
		// C# hashes and sizes the canonical re-encoding.
		t.hash = t.computeHash()
		t.size = t.computeSize()
	} else {
		t.hash = sha256.Sum256(buf[start:unsignedEnd])
		t.size = r.Offset() - start
	}
	t.hashed = true
}

// decodeUnsigned follows C# Transaction.DeserializeUnsigned.
func (t *Transaction) decodeUnsigned(d *decoder) {
	r := d.r
	fixed := r.ReadBytesAlias(HeaderSize)
	if r.Err != nil {
		return
	}
	t.Version = fixed[0]
	t.Nonce = binary.LittleEndian.Uint32(fixed[1:])
	t.SystemFee = int64(binary.LittleEndian.Uint64(fixed[5:]))
	t.NetworkFee = int64(binary.LittleEndian.Uint64(fixed[13:]))
	t.ValidUntilBlock = binary.LittleEndian.Uint32(fixed[21:])
	if err := t.checkFixed(); err != nil {
		r.SetError(err)
		return
	}
	n := d.count(MaxTransactionAttributes, hash.Uint160Size+1)
	if r.Err != nil {
		r.Err = wrapLimit(ErrTooManySigners, r.Err)
		return
	}
	if n == 0 {
		r.SetError(ErrNoSigners)
		return
	}
	if n == 1 {
		t.Signers = t.signer1[:]
	} else {
		t.Signers = make([]Signer, n)
	}
	for i := range t.Signers {
		d.signer(&t.Signers[i])
		if r.Err != nil {
			return
		}
		for j := range i {
			if t.Signers[j].Account == t.Signers[i].Account {
				r.SetError(fmt.Errorf("%w: %s", ErrDuplicateSigner, t.Signers[i].Account))
				return
			}
		}
	}
	na := d.count(MaxTransactionAttributes-n, 1)
	if r.Err != nil {
		r.Err = wrapLimit(ErrTooManyAttrs, r.Err)
		return
	}
	if na > 0 {
		t.Attributes = make([]Attribute, na)
		var seen [256 / 64]uint64
		for i := range t.Attributes {
			a := &t.Attributes[i]
			d.attribute(a)
			if r.Err != nil {
				return
			}
			if !a.Type.AllowMultiple() {
				bit := uint64(1) << (a.Type % 64)
				if seen[a.Type/64]&bit != 0 {
					r.SetError(fmt.Errorf("%w: %s", ErrDuplicateAttribute, a.Type))
					return
				}
				seen[a.Type/64] |= bit
			}
		}
	}
	t.Script = d.varBytes(MaxScriptLength)
	if r.Err == nil && len(t.Script) == 0 {
		r.SetError(ErrEmptyScript)
	}
}

// checkFixed applies the checks on the fixed fields.
func (t *Transaction) checkFixed() error {
	if t.Version > 0 {
		return fmt.Errorf("%w: %d", ErrInvalidVersion, t.Version)
	}
	if t.SystemFee < 0 || t.NetworkFee < 0 {
		return fmt.Errorf("%w: %d, %d", ErrNegativeFee, t.SystemFee, t.NetworkFee)
	}
	if t.SystemFee+t.NetworkFee < t.SystemFee {
		return ErrFeeOverflow
	}
	return nil
}

// Validate checks a transaction built in code (or from JSON) against the
// rules decoding enforces, by the field checks of checkFields and a
// round trip through the binary encoding.
func (t *Transaction) Validate() error {
	if err := t.checkFields(); err != nil {
		return err
	}
	// The encoding catches the rest (subitem limits, nesting, values).
	b, err := t.encodeAll()
	if err != nil {
		return err
	}
	_, err = NewTransactionFromOwnedBytes(b)
	return err
}

// checkFields applies the transaction-level decoding rules to the fields.
// JSON decoding relies on it: the JSON decoders of signers, rules,
// attributes and witnesses apply their own limits.
func (t *Transaction) checkFields() error {
	if err := t.checkFixed(); err != nil {
		return err
	}
	if len(t.Signers) == 0 {
		return ErrNoSigners
	}
	if len(t.Signers)+len(t.Attributes) > MaxTransactionAttributes {
		return ErrTooManyAttrs
	}
	for i := range t.Signers {
		if !t.Signers[i].Scopes.Valid() {
			return ErrInvalidScope
		}
		for j := range i {
			if t.Signers[j].Account == t.Signers[i].Account {
				return ErrDuplicateSigner
			}
		}
	}
	var seen [256]bool
	for i := range t.Attributes {
		typ := t.Attributes[i].Type
		if !typ.AllowMultiple() && seen[typ] {
			return fmt.Errorf("%w: %s", ErrDuplicateAttribute, typ)
		}
		seen[typ] = true
	}
	if len(t.Script) == 0 {
		return ErrEmptyScript
	}
	if len(t.Script) > MaxScriptLength {
		return ErrScriptTooLong
	}
	if len(t.Witnesses) != len(t.Signers) {
		return ErrWitnessCount
	}
	return nil
}

// CheckSize returns ErrOversized if the transaction is larger than
// MaxTransactionSize (C# VerifyStateIndependent's first check).
func (t *Transaction) CheckSize() error {
	if t.Size() > MaxTransactionSize {
		return fmt.Errorf("%w: %d bytes", ErrOversized, t.Size())
	}
	return nil
}

// ownBytes replaces every aliased byte slice with a copy in one new buffer.
func (t *Transaction) ownBytes() {
	n := len(t.Script)
	for i := range t.Witnesses {
		n += len(t.Witnesses[i].InvocationScript) + len(t.Witnesses[i].VerificationScript)
	}
	for i := range t.Attributes {
		if o, ok := t.Attributes[i].Value.(*OracleResponse); ok {
			n += len(o.Result)
		}
	}
	buf := make([]byte, 0, n)
	own := func(b []byte) []byte {
		s := len(buf)
		buf = append(buf, b...)
		return buf[s:len(buf):len(buf)]
	}
	t.Script = own(t.Script)
	for i := range t.Witnesses {
		w := &t.Witnesses[i]
		w.InvocationScript = own(w.InvocationScript)
		w.VerificationScript = own(w.VerificationScript)
	}
	for i := range t.Attributes {
		if o, ok := t.Attributes[i].Value.(*OracleResponse); ok {
			o.Result = own(o.Result)
		}
	}
}

// Hash returns the transaction hash: SHA-256 of the unsigned part. It is
// cached on first use (or at decoding).
func (t *Transaction) Hash() hash.Uint256 {
	if !t.hashed {
		t.hash = t.computeHash()
		t.hashed = true
	}
	return t.hash
}

// writerPool recycles buffers for hashing transactions built in code.
var writerPool = sync.Pool{New: func() any { return nio.NewBinWriterWithCap(512) }}

func (t *Transaction) computeHash() hash.Uint256 {
	w := writerPool.Get().(*nio.BinWriter)
	w.Reset()
	t.encodeUnsigned(w)
	h := sha256.Sum256(w.Bytes())
	if w.Len() <= 1<<16 {
		writerPool.Put(w)
	}
	return h
}

// Size returns the encoded size, cached on first use (or at decoding).
func (t *Transaction) Size() int {
	if t.size == 0 {
		t.size = t.computeSize()
	}
	return t.size
}

func (t *Transaction) unsignedSize() int {
	n := HeaderSize + nio.VarUintSize(uint64(len(t.Signers)))
	for i := range t.Signers {
		n += t.Signers[i].Size()
	}
	n += nio.VarUintSize(uint64(len(t.Attributes)))
	for i := range t.Attributes {
		n += t.Attributes[i].Size()
	}
	return n + nio.VarBytesSize(len(t.Script))
}

func (t *Transaction) computeSize() int {
	n := t.unsignedSize() + nio.VarUintSize(uint64(len(t.Witnesses)))
	for i := range t.Witnesses {
		n += t.Witnesses[i].Size()
	}
	return n
}

// FeePerByte returns NetworkFee / Size (C# Transaction.FeePerByte).
func (t *Transaction) FeePerByte() int64 { return t.NetworkFee / int64(t.Size()) }

// Sender returns the first signer's account (the fee payer). It returns the
// zero hash if there are no signers, which a decoded transaction always
// has.
func (t *Transaction) Sender() hash.Uint160 {
	if len(t.Signers) == 0 {
		return hash.Uint160{}
	}
	return t.Signers[0].Account
}

// HasSigner reports whether account is among the signers.
func (t *Transaction) HasSigner(account hash.Uint160) bool {
	for i := range t.Signers {
		if t.Signers[i].Account == account {
			return true
		}
	}
	return false
}

// HasAttribute reports whether t has an attribute of type typ.
func (t *Transaction) HasAttribute(typ AttrType) bool {
	for i := range t.Attributes {
		if t.Attributes[i].Type == typ {
			return true
		}
	}
	return false
}

// GetAttributes returns the attributes of type typ (nil if none).
func (t *Transaction) GetAttributes(typ AttrType) []Attribute {
	var res []Attribute
	for i := range t.Attributes {
		if t.Attributes[i].Type == typ {
			res = append(res, t.Attributes[i])
		}
	}
	return res
}

// SignData returns the signed message: network magic (uint32 LE) || hash.
func (t *Transaction) SignData(magic uint32) [4 + hash.Uint256Size]byte {
	return SignData(magic, t.Hash())
}

// SignData returns network magic (uint32 LE) || h, the message signed for a
// transaction or block hash h.
func SignData(magic uint32, h hash.Uint256) [4 + hash.Uint256Size]byte {
	var b [4 + hash.Uint256Size]byte
	binary.LittleEndian.PutUint32(b[:], magic)
	copy(b[4:], h[:])
	return b
}

// EncodeBinary implements io.Encodable.
func (t *Transaction) EncodeBinary(w *nio.BinWriter) {
	t.encodeUnsigned(w)
	nio.WriteValues(w, t.Witnesses)
}

// encodeUnsigned writes the part the hash covers: the fixed header
// (version, nonce, fees, validity), signers, attributes and script.
func (t *Transaction) encodeUnsigned(w *nio.BinWriter) {
	w.WriteU8(t.Version)
	w.WriteU32LE(t.Nonce)
	for _, fee := range [...]int64{t.SystemFee, t.NetworkFee} {
		w.WriteI64LE(fee)
	}
	w.WriteU32LE(t.ValidUntilBlock)
	nio.WriteValues(w, t.Signers)
	nio.WriteValues(w, t.Attributes)
	w.WriteVarBytes(t.Script)
}

// EncodeHashableFields returns the unsigned part (what the hash covers).
func (t *Transaction) EncodeHashableFields() ([]byte, error) {
	w := nio.NewBinWriterWithCap(t.unsignedSize())
	t.encodeUnsigned(w)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

func (t *Transaction) encodeAll() ([]byte, error) {
	var w nio.BinWriter
	w.Grow(t.Size())
	t.EncodeBinary(&w)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// Bytes returns the encoding in a fresh slice, or nil if a field cannot be
// encoded (see Validate).
func (t *Transaction) Bytes() []byte {
	b, err := t.encodeAll()
	if err != nil {
		return nil
	}
	return b
}

// Copy returns a deep copy with the cached hash and size dropped.
func (t *Transaction) Copy() *Transaction {
	cp := &Transaction{
		Version:         t.Version,
		Nonce:           t.Nonce,
		SystemFee:       t.SystemFee,
		NetworkFee:      t.NetworkFee,
		ValidUntilBlock: t.ValidUntilBlock,
		Script:          append([]byte(nil), t.Script...),
	}
	if t.Signers != nil {
		cp.Signers = make([]Signer, len(t.Signers))
		for i := range t.Signers {
			cp.Signers[i] = t.Signers[i].Copy()
		}
	}
	if t.Attributes != nil {
		cp.Attributes = make([]Attribute, len(t.Attributes))
		for i := range t.Attributes {
			cp.Attributes[i] = t.Attributes[i].Copy()
		}
	}
	if t.Witnesses != nil {
		cp.Witnesses = make([]Witness, len(t.Witnesses))
		for i := range t.Witnesses {
			cp.Witnesses[i] = t.Witnesses[i].Copy()
		}
	}
	return cp
}

// wrapLimit tags a var-int limit error with the sentinel of the field.
func wrapLimit(sentinel, err error) error {
	if errors.Is(err, nio.ErrTooLarge) {
		return fmt.Errorf("%w: %w", sentinel, err)
	}
	return err
}
