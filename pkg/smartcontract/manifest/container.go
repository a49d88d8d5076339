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

// WildPermissionDescs is a list of contract descriptors or a wildcard.
type WildPermissionDescs struct {
	Value    []PermissionDesc
	Wildcard bool
}

// Contains reports whether v is in the list or the list is the wildcard.
func (c *WildStrings) Contains(v string) bool {
	return c.IsWildcard() || slices.Contains(c.Value, v)
}

// Contains reports whether v is in the list or the list is the wildcard.
func (c *WildPermissionDescs) Contains(v PermissionDesc) bool {
	return c.IsWildcard() || slices.ContainsFunc(c.Value, v.Equals)
}

// IsWildcard reports whether the list is the wildcard.
func (c *WildStrings) IsWildcard() bool { return c.Value == nil }

// IsWildcard reports whether the list is the wildcard.
func (c *WildPermissionDescs) IsWildcard() bool { return c.Wildcard }

// Restrict makes the list empty (matching nothing).
func (c *WildStrings) Restrict() { c.Value = []string{} }

// Restrict makes the list empty (matching nothing).
func (c *WildPermissionDescs) Restrict() { c.Value = []PermissionDesc{}; c.Wildcard = false }

// Add appends v.
func (c *WildStrings) Add(v string) { c.Value = append(c.Value, v) }

// Add appends v and clears the wildcard.
func (c *WildPermissionDescs) Add(v PermissionDesc) { c.Value = append(c.Value, v); c.Wildcard = false }

// MarshalJSON writes "*" or the list.
func (c WildStrings) MarshalJSON() ([]byte, error) {
	if c.IsWildcard() {
		return []byte(`"*"`), nil
	}
	return json.Marshal(c.Value)
}

// MarshalJSON writes "*" or the list.
func (c WildPermissionDescs) MarshalJSON() ([]byte, error) {
	if c.IsWildcard() {
		return []byte(`"*"`), nil
	}
	return json.Marshal(c.Value)
}

// UnmarshalJSON reads "*" or a list. As in neo-go, null gives the wildcard.
func (c *WildStrings) UnmarshalJSON(data []byte) error {
	if !bytes.Equal(data, []byte(`"*"`)) {
		ss := []string{}
		if err := json.Unmarshal(data, &ss); err != nil {
			return err
		}
		c.Value = ss
	}
	return nil
}

// UnmarshalJSON reads "*" or a list. As in neo-go, null gives a list that
// IsValid rejects.
func (c *WildPermissionDescs) UnmarshalJSON(data []byte) error {
	c.Wildcard = bytes.Equal(data, []byte(`"*"`))
	if !c.Wildcard {
		us := []PermissionDesc{}
		if err := json.Unmarshal(data, &us); err != nil {
			return err
		}
		c.Value = us
	}
	return nil
}
