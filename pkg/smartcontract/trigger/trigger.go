package trigger

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Type is a trigger type (C# TriggerType).
type Type byte

// The trigger types.
const (
	// OnPersist runs the native contracts' OnPersist before a block's
	// transactions.
	OnPersist Type = 0x01
	// PostPersist runs the native contracts' PostPersist after a block's
	// transactions.
	PostPersist Type = 0x02
	// Verification runs a witness verification script.
	Verification Type = 0x20
	// Application runs a transaction script.
	Application Type = 0x40

	// System is OnPersist | PostPersist.
	System = OnPersist | PostPersist
	// All is every trigger.
	All = OnPersist | PostPersist | Verification | Application
)

// ErrUnknown is returned (wrapped) by FromString for an unknown name.
var ErrUnknown = errors.New("unknown trigger type")

var names = [...]struct {
	t    Type
	name string
}{
	{OnPersist, "OnPersist"},
	{PostPersist, "PostPersist"},
	{Verification, "Verification"},
	{Application, "Application"},
	{System, "System"},
	{All, "All"},
}

// String returns the C# name, or "Type(n)" for a value without one.
func (t Type) String() string {
	for _, n := range names {
		if n.t == t {
			return n.name
		}
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// IsValid reports whether t is one of the four single triggers.
func (t Type) IsValid() bool {
	return t == OnPersist || t == PostPersist || t == Verification || t == Application
}

// FromString parses a name, ignoring case.
func FromString(s string) (Type, error) {
	for _, n := range names {
		if strings.EqualFold(n.name, s) {
			return n.t, nil
		}
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknown, s)
}

// MarshalJSON writes the name as a JSON string.
func (t Type) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.String())
}

// UnmarshalJSON reads a name written by MarshalJSON.
func (t *Type) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	v, err := FromString(s)
	if err != nil {
		return err
	}
	*t = v
	return nil
}
