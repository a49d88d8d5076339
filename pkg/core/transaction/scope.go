package transaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// WitnessScope limits where a signer's witness is valid (C# WitnessScope).
type WitnessScope byte

// Witness scopes.
const (
	// None: only the transaction itself (fee payment), no contract.
	None WitnessScope = 0x00
	// CalledByEntry: the entry script and contracts it calls directly.
	CalledByEntry WitnessScope = 0x01
	// CustomContracts: the contracts in AllowedContracts.
	CustomContracts WitnessScope = 0x10
	// CustomGroups: contracts in the groups of AllowedGroups.
	CustomGroups WitnessScope = 0x20
	// WitnessRules: the rules in Rules decide.
	WitnessRules WitnessScope = 0x40
	// Global: everywhere; cannot be combined.
	Global WitnessScope = 0x80
)

const allScopes = CalledByEntry | CustomContracts | CustomGroups | WitnessRules | Global

// ErrInvalidScope is returned for unknown scope bits or Global combined
// with other scopes.
var ErrInvalidScope = errors.New("invalid witness scope")

// Valid reports whether s is a valid scope combination (C#
// Signer.Deserialize checks).
func (s WitnessScope) Valid() bool {
	return s&^allScopes == 0 && (s&Global == 0 || s == Global)
}

var scopeNames = [...]struct {
	s    WitnessScope
	name string
}{
	{CalledByEntry, "CalledByEntry"},
	{CustomContracts, "CustomContracts"},
	{CustomGroups, "CustomGroups"},
	{WitnessRules, "WitnessRules"},
}

// String returns the flag names joined with ", " as C# and neo-go print
// them ("None", "Global", "CalledByEntry, CustomContracts").
func (s WitnessScope) String() string {
	switch s {
	case None:
		return "None"
	case Global:
		return "Global"
	}
	var b strings.Builder
	for _, n := range scopeNames {
		if s&n.s != 0 {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n.name)
		}
	}
	if rest := s &^ (allScopes &^ Global); rest != 0 || b.Len() == 0 {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", byte(rest))
	}
	return b.String()
}

// ScopesFromString parses a comma-separated list of scope names.
func ScopesFromString(str string) (WitnessScope, error) {
	var res WitnessScope
	for part := range strings.SplitSeq(str, ",") {
		var s WitnessScope
		switch strings.TrimSpace(part) {
		case "None":
			s = None
		case "CalledByEntry":
			s = CalledByEntry
		case "CustomContracts":
			s = CustomContracts
		case "CustomGroups":
			s = CustomGroups
		case "WitnessRules":
			s = WitnessRules
		case "Global":
			s = Global
		default:
			return 0, fmt.Errorf("%w: %q", ErrInvalidScope, part)
		}
		res |= s
	}
	if !res.Valid() {
		return 0, fmt.Errorf("%w: %q", ErrInvalidScope, str)
	}
	return res, nil
}

// MarshalJSON writes the String form.
func (s WitnessScope) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON parses the String form.
func (s *WitnessScope) UnmarshalJSON(data []byte) error {
	var str string
	if err := json.Unmarshal(data, &str); err != nil {
		return err
	}
	v, err := ScopesFromString(str)
	if err != nil {
		return err
	}
	*s = v
	return nil
}
