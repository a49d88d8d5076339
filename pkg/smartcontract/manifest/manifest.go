package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// MaxManifestSize is the largest manifest JSON accepted on deploy and update
// (C# ContractManifest.MaxLength).
const MaxManifestSize = math.MaxUint16

// Standard names used by the node.
const (
	NEP11StandardName = "NEP-11"
	NEP17StandardName = "NEP-17"
	NEP24StandardName = "NEP-24"
	NEP26StandardName = "NEP-26"
	NEP27StandardName = "NEP-27"
	NEP29StandardName = "NEP-29"
	NEP30StandardName = "NEP-30"
)

// emptyFeatures is the only features value a valid manifest may have.
const emptyFeatures = "{}"

// Errors of manifest validation; the error text adds details.
var (
	ErrInvalid      = errors.New("invalid manifest")
	ErrInvalidItem  = errors.New("invalid manifest stack item")
	ErrInvalidGroup = errors.New("invalid group")
)

// Manifest is a contract manifest. Field order is neo-go's JSON key order.
type Manifest struct {
	// Name is the contract name (part of the contract hash).
	Name string `json:"name"`
	// ABI lists the methods and events.
	ABI ABI `json:"abi"`
	// Features is reserved and must be the empty object.
	Features json.RawMessage `json:"features"`
	// Groups are the keys that signed the contract hash.
	Groups []Group `json:"groups"`
	// Permissions restrict the contracts and methods this contract calls.
	Permissions []Permission `json:"permissions"`
	// SupportedStandards lists the NEP standards the contract claims.
	SupportedStandards []string `json:"supportedstandards"`
	// Trusts lists the contracts and groups allowed to call this one without
	// a wallet warning ("*" for any).
	Trusts WildPermissionDescs `json:"trusts"`
	// Extra is arbitrary JSON data.
	Extra json.RawMessage `json:"extra"`
}

// NewManifest returns a manifest with the given name, no methods or events,
// empty features, groups, permissions, standards and trusts, and null extra.
func NewManifest(name string) *Manifest {
	m := &Manifest{
		Name: name,
		ABI: ABI{
			Methods: []Method{},
			Events:  []Event{},
		},
		Features:           json.RawMessage(emptyFeatures),
		Groups:             []Group{},
		Permissions:        []Permission{},
		SupportedStandards: []string{},
		Extra:              json.RawMessage("null"),
	}
	m.Trusts.Restrict()
	return m
}

// DefaultManifest is NewManifest with a wildcard permission (call anything),
// the manifest native contracts start from.
func DefaultManifest(name string) *Manifest {
	m := NewManifest(name)
	m.Permissions = []Permission{*NewPermission(PermissionWildcard)}
	return m
}

// CanCall reports whether this manifest's permissions allow calling method of
// the contract with the given hash and manifest (C# ContractManifest.CanCall
// via ContractState.CanCall).
func (m *Manifest) CanCall(h hash.Uint160, toCall *Manifest, method string) bool {
	for i := range m.Permissions {
		if m.Permissions[i].IsAllowed(h, toCall, method) {
			return true
		}
	}
	return false
}

// IsStandardSupported reports whether the manifest lists standard.
func (m *Manifest) IsStandardSupported(standard string) bool {
	return slices.Contains(m.SupportedStandards, standard)
}

// IsValid checks the manifest for the contract with hash h (group
// signatures are not checked for the zero hash). With checkSize it also
// checks that the manifest serializes within the VM limits (C#
// ContractManifest.IsValid).
func (m *Manifest) IsValid(h hash.Uint160, checkSize bool) error {
	if m.Name == "" {
		return fmt.Errorf("%w: no name", ErrInvalid)
	}
	if slices.Contains(m.SupportedStandards, "") {
		return fmt.Errorf("%w: invalid nameless supported standard", ErrInvalid)
	}
	if hasDups(m.SupportedStandards, strings.Compare) {
		return fmt.Errorf("%w: duplicate supported standards", ErrInvalid)
	}
	if err := m.ABI.IsValid(); err != nil {
		return fmt.Errorf("%w: ABI: %w", ErrInvalid, err)
	}
	if strings.Map(func(c rune) rune {
		switch c {
		case ' ', '\n', '\t', '\r':
			return -1
		}
		return c
	}, string(m.Features)) != emptyFeatures {
		return fmt.Errorf("%w: invalid features", ErrInvalid)
	}
	if err := Groups(m.Groups).AreValid(h); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if m.Trusts.Value == nil && !m.Trusts.Wildcard {
		return fmt.Errorf("%w: invalid (null?) trusts", ErrInvalid)
	}
	if hasDups(m.Trusts.Value, PermissionDesc.Compare) {
		return fmt.Errorf("%w: duplicate trusted contracts", ErrInvalid)
	}
	if err := Permissions(m.Permissions).AreValid(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if !checkSize {
		return nil
	}
	si, err := m.ToStackItem()
	if err != nil {
		return fmt.Errorf("%w: failed to check manifest serialisation: %w", ErrInvalid, err)
	}
	if _, err := stackitem.Serialize(si); err != nil {
		return fmt.Errorf("%w: manifest is not serializable: %w", ErrInvalid, err)
	}
	return nil
}

// FromJSON decodes a manifest as neo-go's deploy does (json.Unmarshal into
// Manifest); it does not validate it.
func FromJSON(data []byte) (*Manifest, error) {
	m := new(Manifest)
	if err := json.Unmarshal(data, m); err != nil {
		return nil, err
	}
	return m, nil
}

// ToStackItem returns the C# ContractManifest stack item: Struct [name,
// groups, features (empty Map), supportedstandards, abi, permissions, trusts
// (Null for the wildcard), extra (ByteString)].
func (m *Manifest) ToStackItem() (stackitem.Item, error) {
	groups := make([]stackitem.Item, len(m.Groups))
	for i := range m.Groups {
		groups[i] = m.Groups[i].ToStackItem()
	}
	standards := make([]stackitem.Item, len(m.SupportedStandards))
	for i := range m.SupportedStandards {
		standards[i] = stackitem.NewByteString([]byte(m.SupportedStandards[i]))
	}
	permissions := make([]stackitem.Item, len(m.Permissions))
	for i := range m.Permissions {
		permissions[i] = m.Permissions[i].ToStackItem()
	}
	var trusts stackitem.Item = stackitem.Null{}
	if !m.Trusts.IsWildcard() {
		items := make([]stackitem.Item, len(m.Trusts.Value))
		for i := range m.Trusts.Value {
			items[i] = m.Trusts.Value[i].ToStackItem()
		}
		trusts = stackitem.NewArray(items)
	}
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.NewByteString([]byte(m.Name)),
		stackitem.NewArray(groups),
		stackitem.NewMap(),
		stackitem.NewArray(standards),
		m.ABI.ToStackItem(),
		stackitem.NewArray(permissions),
		trusts,
		stackitem.NewByteString(extraBytes(m.Extra)),
	}), nil
}

// FromStackItem decodes the stack item form made by ToStackItem.
func (m *Manifest) FromStackItem(item stackitem.Item) error {
	str, err := structFields(item, 8, "Manifest")
	if err != nil {
		return err
	}
	if m.Name, err = itemString(str[0]); err != nil {
		return err
	}
	groups, err := arrayItems(str[1], "Groups")
	if err != nil {
		return err
	}
	m.Groups = make([]Group, len(groups))
	for i := range groups {
		if err := m.Groups[i].FromStackItem(groups[i]); err != nil {
			return err
		}
	}
	if f, ok := str[2].(*stackitem.Map); !ok || f.Len() != 0 {
		return fmt.Errorf("%w: invalid Features stackitem", ErrInvalidItem)
	}
	m.Features = json.RawMessage(emptyFeatures)
	standards, err := arrayItems(str[3], "SupportedStandards")
	if err != nil {
		return err
	}
	m.SupportedStandards = make([]string, len(standards))
	for i := range standards {
		if m.SupportedStandards[i], err = itemString(standards[i]); err != nil {
			return err
		}
	}
	if err := m.ABI.FromStackItem(str[4]); err != nil {
		return err
	}
	permissions, err := arrayItems(str[5], "Permissions")
	if err != nil {
		return err
	}
	m.Permissions = make([]Permission, len(permissions))
	for i := range permissions {
		if err := m.Permissions[i].FromStackItem(permissions[i]); err != nil {
			return err
		}
	}
	if _, ok := str[6].(stackitem.Null); ok {
		m.Trusts = WildPermissionDescs{Wildcard: true}
	} else {
		trusts, err := arrayItems(str[6], "Trusts")
		if err != nil {
			return err
		}
		m.Trusts = WildPermissionDescs{Value: make([]PermissionDesc, len(trusts))}
		for i := range trusts {
			if err := m.Trusts.Value[i].FromStackItem(trusts[i]); err != nil {
				return err
			}
		}
	}
	extra, err := str[7].TryBytes()
	if err != nil {
		return fmt.Errorf("%w: extra: %w", ErrInvalidItem, err)
	}
	m.Extra = slices.Clone(extra)
	return nil
}

// structFields returns the fields of a Struct item with exactly n fields.
func structFields(item stackitem.Item, n int, what string) ([]stackitem.Item, error) {
	a, ok := item.(*stackitem.Array)
	if !ok || !a.IsStruct() {
		return nil, fmt.Errorf("%w: invalid %s stackitem type", ErrInvalidItem, what)
	}
	if a.Len() != n {
		return nil, fmt.Errorf("%w: invalid %s stackitem length", ErrInvalidItem, what)
	}
	return a.Items(), nil
}

// arrayItems returns the elements of an Array (not Struct) item.
func arrayItems(item stackitem.Item, what string) ([]stackitem.Item, error) {
	a, ok := item.(*stackitem.Array)
	if !ok || a.IsStruct() {
		return nil, fmt.Errorf("%w: invalid %s stackitem type", ErrInvalidItem, what)
	}
	return a.Items(), nil
}

// itemString is neo-go's stackitem.ToString: the bytes of a primitive item
// as strict UTF-8.
func itemString(item stackitem.Item) (string, error) {
	if _, ok := item.(stackitem.Null); ok {
		return "", fmt.Errorf("%w: null string", ErrInvalidItem)
	}
	s, _, err := stackitem.ToString(item)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	return s, nil
}

// hasDups reports whether x has two elements that compare equal.
func hasDups[S ~[]E, E any](x S, cmp func(a, b E) int) bool {
	if len(x) < 2 {
		return false
	}
	if len(x) > 2 {
		x = slices.Clone(x)
		slices.SortFunc(x, cmp)
	}
	for i := 1; i < len(x); i++ {
		if cmp(x[i-1], x[i]) == 0 {
			return true
		}
	}
	return false
}
