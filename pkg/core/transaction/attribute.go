package transaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// AttrType is a transaction attribute type (C# TransactionAttributeType).
type AttrType byte

// Attribute types.
const (
	HighPriority    AttrType = 0x01
	OracleResponseT AttrType = 0x11
	NotValidBeforeT AttrType = 0x20
	ConflictsT      AttrType = 0x21
	NotaryAssistedT AttrType = 0x22

	// ReservedLowerBound..ReservedUpperBound are the types of Reserved
	// attributes (neo-go's experimental range, accepted on chain only with
	// ProtocolConfiguration.ReservedAttributes).
	ReservedLowerBound AttrType = 0xe0
	ReservedUpperBound AttrType = 0xff
)

// IsReserved reports whether t is in the reserved range.
func (t AttrType) IsReserved() bool { return t >= ReservedLowerBound }

// String returns the C# name of the type.
func (t AttrType) String() string {
	switch t {
	case HighPriority:
		return "HighPriority"
	case OracleResponseT:
		return "OracleResponse"
	case NotValidBeforeT:
		return "NotValidBefore"
	case ConflictsT:
		return "Conflicts"
	case NotaryAssistedT:
		return "NotaryAssisted"
	}
	return fmt.Sprintf("AttrType(%d)", byte(t))
}

// AllowMultiple reports whether a transaction may carry several attributes
// of type t (C# TransactionAttribute.AllowMultiple: only Conflicts).
func (t AttrType) AllowMultiple() bool { return t == ConflictsT }

// Attribute errors.
var (
	ErrInvalidAttributeType = errors.New("invalid attribute type")
	ErrDuplicateAttribute   = errors.New("duplicate attribute")
	ErrInvalidOracle        = errors.New("invalid oracle response")
)

// AttrValue is the payload of an attribute: *OracleResponse,
// *NotValidBefore, *Conflicts, *NotaryAssisted or *Reserved. HighPriority
// has none.
type AttrValue interface {
	attrType() AttrType
	size() int
	jsonFields(m map[string]any)
	copyValue() AttrValue
}

// Attribute is one transaction attribute.
type Attribute struct {
	Type  AttrType
	Value AttrValue
}

// MaxOracleResultSize bounds OracleResponse.Result (C#
// OracleResponse.MaxResultSize).
const MaxOracleResultSize = 0xffff

// OracleResponseCode is the outcome of an oracle request.
type OracleResponseCode byte

// Oracle response codes (C# OracleResponseCode), by who is to blame.
const (
	// The request was served.
	Success OracleResponseCode = 0x00
	// Anything not covered below.
	Error OracleResponseCode = 0xff

	// The oracle nodes could not serve it.
	ProtocolNotSupported OracleResponseCode = 0x10
	ConsensusUnreachable OracleResponseCode = 0x12
	Timeout              OracleResponseCode = 0x16

	// The resource is missing, closed or unsuitable.
	NotFound                OracleResponseCode = 0x14
	Forbidden               OracleResponseCode = 0x18
	ResponseTooLarge        OracleResponseCode = 0x1a
	ContentTypeNotSupported OracleResponseCode = 0x1f

	// The request did not pay enough for the response.
	InsufficientFunds OracleResponseCode = 0x1c
)

var oracleCodeNames = map[OracleResponseCode]string{
	Success: "Success", ProtocolNotSupported: "ProtocolNotSupported",
	ConsensusUnreachable: "ConsensusUnreachable", NotFound: "NotFound", Timeout: "Timeout",
	Forbidden: "Forbidden", ResponseTooLarge: "ResponseTooLarge",
	InsufficientFunds: "InsufficientFunds", ContentTypeNotSupported: "ContentTypeNotSupported",
	Error: "Error",
}

// IsValid reports whether c is a defined code.
func (c OracleResponseCode) IsValid() bool { _, ok := oracleCodeNames[c]; return ok }

// String returns the C# name of the code.
func (c OracleResponseCode) String() string {
	if n, ok := oracleCodeNames[c]; ok {
		return n
	}
	return fmt.Sprintf("OracleResponseCode(%d)", byte(c))
}

// MarshalJSON writes the name.
func (c OracleResponseCode) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// UnmarshalJSON parses a name (case-insensitive, as neo-go).
func (c *OracleResponseCode) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	for k, n := range oracleCodeNames {
		if strings.EqualFold(n, s) {
			*c = k
			return nil
		}
	}
	return fmt.Errorf("%w: code %q", ErrInvalidOracle, s)
}

// OracleResponse carries the result of oracle request ID.
type OracleResponse struct {
	ID     uint64
	Code   OracleResponseCode
	Result []byte
}

func (*OracleResponse) attrType() AttrType { return OracleResponseT }
func (o *OracleResponse) size() int        { return 8 + 1 + nio.VarBytesSize(len(o.Result)) }
func (o *OracleResponse) encode(w *nio.BinWriter) {
	w.WriteU64LE(o.ID)
	w.WriteU8(byte(o.Code))
	w.WriteVarBytes(o.Result)
}
func (o *OracleResponse) jsonFields(m map[string]any) {
	m["id"] = o.ID
	m["code"] = o.Code
	m["result"] = nonNil(o.Result)
}
func (o *OracleResponse) copyValue() AttrValue {
	return &OracleResponse{ID: o.ID, Code: o.Code, Result: append([]byte{}, o.Result...)}
}

// NotValidBefore makes a transaction invalid below block Height.
type NotValidBefore struct {
	Height uint32
}

func (*NotValidBefore) attrType() AttrType            { return NotValidBeforeT }
func (*NotValidBefore) size() int                     { return 4 }
func (n *NotValidBefore) encode(w *nio.BinWriter)     { w.WriteU32LE(n.Height) }
func (n *NotValidBefore) jsonFields(m map[string]any) { m["height"] = n.Height }
func (n *NotValidBefore) copyValue() AttrValue        { c := *n; return &c }

// Conflicts names a transaction this one conflicts with.
type Conflicts struct {
	Hash hash.Uint256
}

func (*Conflicts) attrType() AttrType            { return ConflictsT }
func (*Conflicts) size() int                     { return hash.Uint256Size }
func (c *Conflicts) encode(w *nio.BinWriter)     { w.WriteBytes(c.Hash[:]) }
func (c *Conflicts) jsonFields(m map[string]any) { m["hash"] = c.Hash }
func (c *Conflicts) copyValue() AttrValue        { cp := *c; return &cp }

// NotaryAssisted marks a notary request with NKeys signing keys.
type NotaryAssisted struct {
	NKeys uint8
}

func (*NotaryAssisted) attrType() AttrType            { return NotaryAssistedT }
func (*NotaryAssisted) size() int                     { return 1 }
func (n *NotaryAssisted) encode(w *nio.BinWriter)     { w.WriteU8(n.NKeys) }
func (n *NotaryAssisted) jsonFields(m map[string]any) { m["nkeys"] = n.NKeys }
func (n *NotaryAssisted) copyValue() AttrValue        { c := *n; return &c }

// Reserved is the payload of an attribute of a reserved type (0xe0..0xff):
// var-bytes the protocol does not interpret. Type is the attribute's type.
type Reserved struct {
	Type  AttrType
	Value []byte
}

func (r *Reserved) attrType() AttrType          { return r.Type }
func (r *Reserved) size() int                   { return nio.VarBytesSize(len(r.Value)) }
func (r *Reserved) encode(w *nio.BinWriter)     { w.WriteVarBytes(r.Value) }
func (r *Reserved) jsonFields(m map[string]any) { m["value"] = nonNil(r.Value) }
func (r *Reserved) copyValue() AttrValue {
	return &Reserved{Type: r.Type, Value: append([]byte{}, r.Value...)}
}

// Size returns the encoded size.
func (a *Attribute) Size() int {
	if a.Value == nil {
		return 1
	}
	return 1 + a.Value.size()
}

// EncodeBinary writes the attribute. A Value that does not match Type sets
// w.Err.
func (a *Attribute) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(byte(a.Type))
	if a.Type == HighPriority {
		if a.Value != nil {
			w.SetError(fmt.Errorf("%w: HighPriority with a value", ErrInvalidAttributeType))
		}
		return
	}
	if a.Value == nil || a.Value.attrType() != a.Type {
		w.SetError(fmt.Errorf("%w: %s value mismatch", ErrInvalidAttributeType, a.Type))
		return
	}
	// A type switch, not the interface method, keeps w from escaping.
	switch v := a.Value.(type) {
	case *OracleResponse:
		v.encode(w)
	case *NotValidBefore:
		v.encode(w)
	case *Conflicts:
		v.encode(w)
	case *NotaryAssisted:
		v.encode(w)
	case *Reserved:
		v.encode(w)
	}
}

// DecodeBinary reads one attribute (C# TransactionAttribute.DeserializeFrom).
// An oracle result and a reserved value are copied. Reserved types decode
// as neo-go decodes them (whether a transaction may carry one is the
// ledger's check); C# has no reserved range.
func (a *Attribute) DecodeBinary(r *nio.BinReader) {
	d := decoder{r: r}
	d.attribute(a)
	if r.Err != nil {
		return
	}
	switch v := a.Value.(type) {
	case *OracleResponse:
		v.Result = append([]byte{}, v.Result...)
	case *Reserved:
		v.Value = append([]byte{}, v.Value...)
	}
}

func (d *decoder) attribute(a *Attribute) {
	r := d.r
	a.Type = AttrType(r.ReadU8())
	if r.Err != nil {
		return
	}
	switch a.Type {
	case HighPriority:
	case OracleResponseT:
		o := &OracleResponse{}
		o.ID = r.ReadU64LE()
		o.Code = OracleResponseCode(r.ReadU8())
		if r.Err != nil {
			return
		}
		if !o.Code.IsValid() {
			r.SetError(fmt.Errorf("%w: code 0x%02x", ErrInvalidOracle, byte(o.Code)))
			return
		}
		o.Result = d.varBytes(MaxOracleResultSize)
		if r.Err == nil && o.Code != Success && len(o.Result) != 0 {
			r.SetError(fmt.Errorf("%w: result with code %s", ErrInvalidOracle, o.Code))
			return
		}
		a.Value = o
	case NotValidBeforeT:
		a.Value = &NotValidBefore{Height: r.ReadU32LE()}
	case ConflictsT:
		c := &Conflicts{}
		r.ReadBytes(c.Hash[:])
		a.Value = c
	case NotaryAssistedT:
		a.Value = &NotaryAssisted{NKeys: r.ReadU8()}
	default:
		if a.Type.IsReserved() {
			a.Value = &Reserved{Type: a.Type, Value: d.varBytes(MaxTransactionSize)}
			return
		}
		r.SetError(fmt.Errorf("%w: 0x%02x", ErrInvalidAttributeType, byte(a.Type)))
	}
}

// MarshalJSON writes the neo-go form: an object with sorted keys, "type"
// and the value's fields.
func (a *Attribute) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": a.Type.String()}
	if a.Value != nil {
		a.Value.jsonFields(m)
	}
	return json.Marshal(m)
}

type attributeJSON struct {
	Type   string              `json:"type"`
	ID     uint64              `json:"id"`
	Code   *OracleResponseCode `json:"code"`
	Result []byte              `json:"result"`
	Height uint32              `json:"height"`
	Hash   hash.Uint256        `json:"hash"`
	NKeys  uint8               `json:"nkeys"`
}

// UnmarshalJSON parses the JSON form.
func (a *Attribute) UnmarshalJSON(data []byte) error {
	var aux attributeJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*a = Attribute{}
	switch aux.Type {
	case "HighPriority":
		a.Type = HighPriority
	case "OracleResponse":
		a.Type = OracleResponseT
		if aux.Code == nil {
			return fmt.Errorf("%w: no code", ErrInvalidOracle)
		}
		if len(aux.Result) > MaxOracleResultSize || (*aux.Code != Success && len(aux.Result) != 0) {
			return ErrInvalidOracle
		}
		a.Value = &OracleResponse{ID: aux.ID, Code: *aux.Code, Result: nonNil(aux.Result)}
	case "NotValidBefore":
		a.Type = NotValidBeforeT
		a.Value = &NotValidBefore{Height: aux.Height}
	case "Conflicts":
		a.Type = ConflictsT
		a.Value = &Conflicts{Hash: aux.Hash}
	case "NotaryAssisted":
		a.Type = NotaryAssistedT
		a.Value = &NotaryAssisted{NKeys: aux.NKeys}
	default:
		return fmt.Errorf("%w: %q", ErrInvalidAttributeType, aux.Type)
	}
	return nil
}

// Copy returns a deep copy.
func (a *Attribute) Copy() Attribute {
	cp := Attribute{Type: a.Type}
	if a.Value != nil {
		cp.Value = a.Value.copyValue()
	}
	return cp
}
