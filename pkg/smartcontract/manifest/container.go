package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
)

// WildStrings is a list of strings or a wildcard (C# WildcardContainer of
// strings). A nil Value is the wildcard; an empty non-nil Value matches
// nothing.
type WildStrings struct {
	Value []string
}

// Contains reports whether v is in the list or the list is the wildcard.
func (c *WildStrings) Contains(v string) bool {
	return c.IsWildcard() || slices.Contains(c.Value, v)
}

// IsWildcard reports whether the list is the wildcard.
func (c *WildStrings) IsWildcard() bool { return c.Value == nil }

// Restrict makes the list empty (matching nothing).
func (c *WildStrings) Restrict() { c.Value = []string{} }

// Add appends v.
func (c *WildStrings) Add(v string) { c.Value = append(c.Value, v) }

// WildPermissionDescs is a list of contract descriptors or a wildcard.
type WildPermissionDescs struct {
	Value    []PermissionDesc
	Wildcard bool
}

// Contains reports whether v is in the list or the list is the wildcard.
func (c *WildPermissionDescs) Contains(v PermissionDesc) bool {
	return c.IsWildcard() || slices.ContainsFunc(c.Value, v.Equals)
}

// IsWildcard reports whether the list is the wildcard.
func (c *WildPermissionDescs) IsWildcard() bool { return c.Wildcard }

// Restrict makes the list empty (matching nothing).
func (c *WildPermissionDescs) Restrict() { c.Value = []PermissionDesc{}; c.Wildcard = false }

// Add appends v and clears the wildcard.
func (c *WildPermissionDescs) Add(v PermissionDesc) { c.Value = append(c.Value, v); c.Wildcard = false }

// The JSON form of both containers is the string "*" for the wildcard and a
// list otherwise.
var wildcardJSON = []byte(`"*"`)

// marshalWild writes the wildcard or the list.
func marshalWild[T any](wild bool, list []T) ([]byte, error) {
	if wild {
		return slices.Clone(wildcardJSON), nil
	}
	return json.Marshal(list)
}

// unmarshalWild reads the wildcard (wild set, list untouched) or a list. A
// JSON null decodes to a nil list, as in neo-go.
func unmarshalWild[T any](data []byte, list *[]T) (wild bool, err error) {
	if bytes.Equal(data, wildcardJSON) {
		return true, nil
	}
	decoded := []T{}
	if err := json.Unmarshal(data, &decoded); err != nil {
		return false, err
	}
	*list = decoded
	return false, nil
}

// MarshalJSON writes "*" or the list.
func (c WildStrings) MarshalJSON() ([]byte, error) { return marshalWild(c.IsWildcard(), c.Value) }

// MarshalJSON writes "*" or the list.
func (c WildPermissionDescs) MarshalJSON() ([]byte, error) {
	return marshalWild(c.IsWildcard(), c.Value)
}

// UnmarshalJSON reads "*" or a list. As in neo-go, null gives the wildcard
// (a nil list).
func (c *WildStrings) UnmarshalJSON(data []byte) error {
	_, err := unmarshalWild(data, &c.Value)
	return err
}

// UnmarshalJSON reads "*" or a list. As in neo-go, null gives a list that
// IsValid rejects (nil, not the wildcard).
func (c *WildPermissionDescs) UnmarshalJSON(data []byte) error {
	wild, err := unmarshalWild(data, &c.Value)
	c.Wildcard = wild
	return err
}
