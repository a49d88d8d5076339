package callflag

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CallFlag is a set of permissions for a contract call (C# CallFlags).
type CallFlag byte

// The flags. The composite values are those C# names.
const (
	// None allows nothing.
	None CallFlag = 0
	// ReadStates allows reading the ledger state.
	ReadStates CallFlag = 1 << 0
	// WriteStates allows writing the ledger state.
	WriteStates CallFlag = 1 << 1
	// AllowCall allows calling other contracts.
	AllowCall CallFlag = 1 << 2
	// AllowNotify allows sending notifications.
	AllowNotify CallFlag = 1 << 3

	// States is ReadStates | WriteStates.
	States = ReadStates | WriteStates
	// ReadOnly is ReadStates | AllowCall.
	ReadOnly = ReadStates | AllowCall
	// All is every flag.
	All = States | AllowCall | AllowNotify
)

// ErrInvalid is returned (wrapped) when a string does not name a valid
// combination of flags.
var ErrInvalid = errors.New("invalid call flags")

// names maps every named value (single and composite) to its name.
var names = map[CallFlag]string{
	None:        "None",
	ReadStates:  "ReadStates",
	WriteStates: "WriteStates",
	AllowCall:   "AllowCall",
	AllowNotify: "AllowNotify",
	States:      "States",
	ReadOnly:    "ReadOnly",
	All:         "All",
}

// greedyOrder is the order neo-go tries the named parts of a combination.
var greedyOrder = [...]CallFlag{ReadOnly, States, ReadStates, WriteStates, AllowCall, AllowNotify}

// dotNetOrder lists the named values by descending value, as .NET's enum
// formatter scans them (None excluded).
var dotNetOrder = [...]CallFlag{All, AllowNotify, ReadOnly, AllowCall, States, WriteStates, ReadStates}

// Has reports whether every bit of cf is set in f.
func (f CallFlag) Has(cf CallFlag) bool { return f&cf == cf }

// IsValid reports whether f uses only defined bits.
func (f CallFlag) IsValid() bool { return f&^All == 0 }

// IsValid reports whether f uses only defined bits.
func IsValid(f CallFlag) bool { return f.IsValid() }

// String returns the neo-go form (see the package doc). Invalid values are
// printed as their decimal number, as .NET does.
func (f CallFlag) String() string {
	if s, ok := names[f]; ok {
		return s
	}
	if !f.IsValid() {
		return strconv.Itoa(int(f))
	}
	var b strings.Builder
	for _, part := range greedyOrder {
		if f.Has(part) {
			if b.Len() != 0 {
				b.WriteString(", ")
			}
			b.WriteString(names[part])
			f &^= part
		}
	}
	return b.String()
}

// DotNetString returns the form the C# node prints (.NET [Flags] enum
// ToString): the largest named values contained in f, listed by ascending
// value. Invalid values are printed as their decimal number.
func (f CallFlag) DotNetString() string {
	if s, ok := names[f]; ok {
		return s
	}
	if !f.IsValid() {
		return strconv.Itoa(int(f))
	}
	var found []CallFlag
	rest := f
	for _, v := range dotNetOrder {
		if rest&v == v {
			rest -= v
			found = append(found, v)
		}
	}
	var b strings.Builder
	for i := len(found) - 1; i >= 0; i-- {
		if b.Len() != 0 {
			b.WriteString(", ")
		}
		b.WriteString(names[found[i]])
	}
	return b.String()
}

// FromString parses the forms String and DotNetString produce, following
// neo-go: a single name must match exactly (any name, including None and
// All); a ", "-separated list may only use the non-trivial names (not None
// or All), with spaces around each part ignored. Names are case-sensitive.
func FromString(s string) (CallFlag, error) {
	parts := strings.Split(s, ",")
	if len(parts) == 1 {
		for f, name := range names {
			if s == name {
				return f, nil
			}
		}
		return None, fmt.Errorf("%w: unknown flag %q", ErrInvalid, s)
	}
	var res CallFlag
	for _, p := range parts {
		p = strings.TrimSpace(p)
		f, ok := byName(p)
		if !ok || f == None || f == All {
			return None, fmt.Errorf("%w: unknown or inappropriate flag %q in %q", ErrInvalid, p, s)
		}
		res |= f
	}
	return res, nil
}

func byName(s string) (CallFlag, bool) {
	for f, name := range names {
		if s == name {
			return f, true
		}
	}
	return None, false
}

// MarshalText implements encoding.TextMarshaler (and so JSON and YAML) with
// String.
func (f CallFlag) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with FromString.
func (f *CallFlag) UnmarshalText(text []byte) error {
	v, err := FromString(string(text))
	if err != nil {
		return err
	}
	*f = v
	return nil
}
