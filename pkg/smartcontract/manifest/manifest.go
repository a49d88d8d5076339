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
	NEP22StandardName = "NEP-22"
	NEP24StandardName = "NEP-24"
	NEP24Payable      = "NEP-24-Payable"
	NEP26StandardName = "NEP-26"
	NEP27StandardName = "NEP-27"
	NEP29StandardName = "NEP-29"
	NEP30StandardName = "NEP-30"
	NEP31StandardName = "NEP-31"
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
	Groups Groups `json:"groups"`
	// Permissions restrict the contracts and methods this contract calls.
	Permissions Permissions `json:"permissions"`
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
// Every list is empty rather than nil, so that it encodes as [] in JSON.
func NewManifest(name string) *Manifest {
	var m Manifest
	m.Name = name
	m.ABI.Methods, m.ABI.Events = []Method{}, []Event{}
	m.Features, m.Extra = json.RawMessage(emptyFeatures), json.RawMessage("null")
	m.Groups, m.Permissions, m.SupportedStandards = Groups{}, Permissions{}, []string{}
	m.Trusts.Restrict()
	return &m
}

// DefaultManifest is NewManifest with a wildcard permission (call anything),
// the manifest native contracts start from.
func DefaultManifest(name string) *Manifest {
	m := NewManifest(name)
	m.Permissions = append(m.Permissions, *NewPermission(PermissionWildcard))
	return m
}

// CanCall reports whether this manifest's permissions allow calling method of
// the contract with the given hash and manifest (C# ContractManifest.CanCall
// via ContractState.CanCall).
func (m *Manifest) CanCall(h hash.Uint160, toCall *Manifest, method string) bool {
	return firstOf(m.Permissions, func(p *Permission) bool { return p.IsAllowed(h, toCall, method) }) != nil
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
	if err := m.Groups.AreValid(h); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if m.Trusts.Value == nil && !m.Trusts.Wildcard {
		return fmt.Errorf("%w: invalid (null?) trusts", ErrInvalid)
	}
	if hasDups(m.Trusts.Value, PermissionDesc.Compare) {
		return fmt.Errorf("%w: duplicate trusted contracts", ErrInvalid)
	}
	if err := m.Permissions.AreValid(); err != nil {
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
	var trusts stackitem.Item = stackitem.Null{}
	if !m.Trusts.IsWildcard() {
		trusts = encodeList(m.Trusts.Value, (*PermissionDesc).ToStackItem)
	}
	standards := make([]stackitem.Item, 0, len(m.SupportedStandards))
	for _, s := range m.SupportedStandards {
		standards = append(standards, stringItem(s))
	}
	return structOf(
		stringItem(m.Name),
		encodeList(m.Groups, (*Group).ToStackItem),
		stackitem.NewMap(),
		stackitem.NewArray(standards),
		m.ABI.ToStackItem(),
		encodeList(m.Permissions, (*Permission).ToStackItem),
		trusts,
		stackitem.NewByteString(extraBytes(m.Extra)),
	), nil
}

// FromStackItem decodes the stack item form made by ToStackItem.
func (m *Manifest) FromStackItem(item stackitem.Item) error {
	fields, err := structFields(item, 8, "Manifest")
	if err == nil {
		m.Name, err = itemString(fields[0])
	}
	if err == nil {
		m.Groups, err = decodeList(fields[1], "Groups", (*Group).FromStackItem)
	}
	if err == nil {
		err = checkFeaturesItem(fields[2])
		m.Features = json.RawMessage(emptyFeatures)
	}
	if err == nil {
		m.SupportedStandards, err = decodeList(fields[3], "SupportedStandards", decodeString)
	}
	if err == nil {
		err = m.ABI.FromStackItem(fields[4])
	}
	if err == nil {
		m.Permissions, err = decodeList(fields[5], "Permissions", (*Permission).FromStackItem)
	}
	if err == nil {
		m.Trusts, err = trustsFromItem(fields[6])
	}
	var extra []byte
	if err == nil {
		extra, err = fields[7].TryBytes()
		if err != nil {
			err = fmt.Errorf("%w: extra: %w", ErrInvalidItem, err)
		} else if !json.Valid(extra) {
			// C# parses it (JToken.Parse); ToStackItem always writes JSON.
			err = fmt.Errorf("%w: extra is not JSON", ErrInvalidItem)
		}
	}
	m.Extra = slices.Clone(extra)
	return err
}

// checkFeaturesItem accepts only the empty Map, the one features value.
func checkFeaturesItem(item stackitem.Item) error {
	if f, ok := item.(*stackitem.Map); ok && f.Len() == 0 {
		return nil
	}
	return fmt.Errorf("%w: invalid Features stackitem", ErrInvalidItem)
}

// trustsFromItem decodes the trusts: Null for the wildcard or an Array of
// descriptors.
func trustsFromItem(item stackitem.Item) (WildPermissionDescs, error) {
	if _, null := item.(stackitem.Null); null {
		return WildPermissionDescs{Wildcard: true}, nil
	}
	descs, err := decodeList(item, "Trusts", (*PermissionDesc).FromStackItem)
	return WildPermissionDescs{Value: descs}, err
}
