package manifest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// PermissionType is the kind of a permission descriptor.
type PermissionType uint8

// Permission descriptor kinds.
const (
	// PermissionWildcard matches any contract ("*").
	PermissionWildcard PermissionType = 0
	// PermissionHash matches one contract hash.
	PermissionHash PermissionType = 1
	// PermissionGroup matches contracts in a group.
	PermissionGroup PermissionType = 2
)

// PermissionDesc is a contract descriptor: a wildcard, a hash or a group key
// (C# ContractPermissionDescriptor).
type PermissionDesc struct {
	Type PermissionType
	// Hash is set for PermissionHash.
	Hash hash.Uint160
	// Group is set for PermissionGroup.
	Group *keys.PublicKey
}

// Permission allows calling methods of some contracts (C#
// ContractPermission).
type Permission struct {
	Contract PermissionDesc `json:"contract"`
	Methods  WildStrings    `json:"methods"`
}

// Permissions is a list of permissions.
type Permissions []Permission

// NewPermission returns a permission for any method of the contracts the
// descriptor selects: no argument for a wildcard, a hash.Uint160 for a hash,
// a *keys.PublicKey for a group.
func NewPermission(typ PermissionType, arg ...any) *Permission {
	d := PermissionDesc{Type: typ}
	switch typ {
	case PermissionHash:
		d.Hash = arg[0].(hash.Uint160)
	case PermissionGroup:
		d.Group = arg[0].(*keys.PublicKey)
	}
	return &Permission{Contract: d}
}

// Compare orders descriptors by type, then hash or key.
func (d PermissionDesc) Compare(o PermissionDesc) int {
	if r := cmp.Compare(d.Type, o.Type); r != 0 {
		return r
	}
	switch d.Type {
	case PermissionHash:
		return d.Hash.Compare(o.Hash)
	case PermissionGroup:
		return d.Group.Cmp(o.Group)
	default:
		return 0
	}
}

// Equals reports whether the descriptors are the same.
func (d PermissionDesc) Equals(o PermissionDesc) bool { return d.Compare(o) == 0 }

// IsValid checks the permission: no empty or duplicate method names.
func (p *Permission) IsValid() error {
	if slices.Contains(p.Methods.Value, "") {
		return errors.New("empty method name")
	}
	if hasDups(p.Methods.Value, strings.Compare) {
		return errors.New("duplicate method names")
	}
	return nil
}

// AreValid checks each permission and that no contract descriptor repeats.
func (ps Permissions) AreValid() error {
	for i := range ps {
		if err := ps[i].IsValid(); err != nil {
			return err
		}
	}
	if hasDups(ps, func(a, b Permission) int { return a.Contract.Compare(b.Contract) }) {
		return errors.New("contracts have duplicates")
	}
	return nil
}

// IsAllowed reports whether the permission allows calling method of the
// contract with hash h and manifest m.
//
// Deviation from C#, kept for agreement with neo-go 0.120.0 (which has it
// up to 0.122): a group permission allows every method of a contract in the
// group, whatever its method list; C# ContractPermission.IsAllowed also
// checks the method list.
func (p *Permission) IsAllowed(h hash.Uint160, m *Manifest, method string) bool {
	switch p.Contract.Type {
	case PermissionWildcard:
	case PermissionHash:
		if p.Contract.Hash != h {
			return false
		}
	case PermissionGroup:
		return m.Groups.Contains(p.Contract.Group)
	default:
		return false
	}
	return p.Methods.Contains(method)
}

// MarshalJSON writes "*", "0x<hash LE>" or the compressed key in hex.
func (d *PermissionDesc) MarshalJSON() ([]byte, error) {
	switch d.Type {
	case PermissionHash:
		return json.Marshal("0x" + d.Hash.StringLE())
	case PermissionGroup:
		return json.Marshal(d.Group.StringCompressed())
	default:
		return []byte(`"*"`), nil
	}
}

// UnmarshalJSON reads a descriptor: 40 hex digits (optionally 0x-prefixed)
// for a hash, 66 for a compressed key, or "*".
func (d *PermissionDesc) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	desc, err := parsePermissionDesc(s)
	if err == nil {
		*d = desc
	}
	return err
}

// parsePermissionDesc tells the descriptor kinds apart by length, as neo-go
// does; its error texts are neo-go's.
func parsePermissionDesc(s string) (PermissionDesc, error) {
	const hashDigits = 2 * hash.Uint160Size
	byHash := func(digits string) (PermissionDesc, error) {
		u, err := hash.Uint160DecodeStringLE(digits)
		return PermissionDesc{Type: PermissionHash, Hash: u}, err
	}
	switch {
	case s == "*":
		return PermissionDesc{Type: PermissionWildcard}, nil
	case len(s) == hashDigits:
		return byHash(s)
	case len(s) == hashDigits+2:
		if digits, ok := strings.CutPrefix(s, "0x"); ok {
			return byHash(digits)
		}
		return PermissionDesc{}, errors.New("invalid uint160")
	case len(s) == 2*keys.CompressedSize:
		pub, err := keys.NewPublicKeyFromString(s)
		return PermissionDesc{Type: PermissionGroup, Group: pub}, err
	}
	return PermissionDesc{}, errors.New("unknown permission")
}

// ToStackItem returns Null (wildcard), the 20 hash bytes or the 33 key bytes.
func (d *PermissionDesc) ToStackItem() stackitem.Item {
	switch d.Type {
	case PermissionHash:
		return stackitem.NewByteString(bytes.Clone(d.Hash[:]))
	case PermissionGroup:
		return stackitem.NewByteString(d.Group.Bytes())
	default:
		return stackitem.Null{}
	}
}

// FromStackItem decodes the form made by ToStackItem.
func (d *PermissionDesc) FromStackItem(item stackitem.Item) error {
	if _, ok := item.(stackitem.Null); ok {
		*d = PermissionDesc{Type: PermissionWildcard}
		return nil
	}
	bs, ok := item.(*stackitem.ByteString)
	if !ok {
		return fmt.Errorf("%w: unsupported permission descriptor type: %s", ErrInvalidItem, item.Type())
	}
	b := bs.Bytes()
	switch len(b) {
	case hash.Uint160Size:
		*d = PermissionDesc{Type: PermissionHash, Hash: hash.Uint160(b)}
	case keys.CompressedSize:
		pub, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidItem, err)
		}
		*d = PermissionDesc{Type: PermissionGroup, Group: pub}
	default:
		return fmt.Errorf("%w: invalid ByteArray length", ErrInvalidItem)
	}
	return nil
}

// ToStackItem returns Struct [contract, methods (Null for the wildcard)].
func (p *Permission) ToStackItem() stackitem.Item {
	var methods stackitem.Item = stackitem.Null{}
	if !p.Methods.IsWildcard() {
		methods = encodeList(p.Methods.Value, func(s *string) stackitem.Item { return stringItem(*s) })
	}
	return structOf(p.Contract.ToStackItem(), methods)
}

// FromStackItem decodes the form made by ToStackItem.
func (p *Permission) FromStackItem(item stackitem.Item) error {
	str, err := structFields(item, 2, "Permission")
	if err != nil {
		return err
	}
	if err := p.Contract.FromStackItem(str[0]); err != nil {
		return err
	}
	if _, ok := str[1].(stackitem.Null); ok {
		p.Methods = WildStrings{}
		return nil
	}
	methods, err := decodeList(str[1], "Methods", decodeString)
	p.Methods = WildStrings{Value: methods}
	return err
}
