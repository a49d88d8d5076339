package callflag

import (
	"errors"
	"fmt"
	"slices"
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

// namedFlag is a value with a name of its own.
type namedFlag struct {
	flag CallFlag
	name string
}

// named lists every named value (single and composite) by descending value,
// the order .NET's enum formatter scans them in. None is last.
var named = [...]namedFlag{
	{All, "All"},
	{AllowNotify, "AllowNotify"},
	{ReadOnly, "ReadOnly"},
	{AllowCall, "AllowCall"},
	{States, "States"},
	{WriteStates, "WriteStates"},
	{ReadStates, "ReadStates"},
	{None, "None"},
}

// greedyOrder is the order neo-go tries the named parts of a combination.
var greedyOrder = [...]CallFlag{ReadOnly, States, ReadStates, WriteStates, AllowCall, AllowNotify}

// nameOf returns the name of f if f is a named value.
func nameOf(f CallFlag) (string, bool) {
	i := slices.IndexFunc(named[:], func(n namedFlag) bool { return n.flag == f })
	if i < 0 {
		return "", false
	}
	return named[i].name, true
}

// byName returns the value a name stands for.
func byName(s string) (CallFlag, bool) {
	i := slices.IndexFunc(named[:], func(n namedFlag) bool { return n.name == s })
	if i < 0 {
		return None, false
	}
	return named[i].flag, true
}

// Has reports whether every bit of cf is set in f.
func (f CallFlag) Has(cf CallFlag) bool { return f&cf == cf }

// IsValid reports whether f uses only defined bits.
func (f CallFlag) IsValid() bool { return f&^All == 0 }

// IsValid reports whether f uses only defined bits.
func IsValid(f CallFlag) bool { return f.IsValid() }

// String returns the neo-go form (see the package doc). Invalid values are
// printed as their decimal number, as .NET does.
func (f CallFlag) String() string {
	return f.format(func(rest CallFlag) []string {
		var parts []string
		for _, part := range greedyOrder {
			if rest.Has(part) {
				rest &^= part
				parts = append(parts, mustName(part))
			}
		}
		return parts
	})
}

// DotNetString returns the form the C# node prints (.NET [Flags] enum
// ToString): the largest named values contained in f, listed by ascending
// value. Invalid values are printed as their decimal number.
func (f CallFlag) DotNetString() string {
	return f.format(func(rest CallFlag) []string {
		var parts []string
		for _, n := range named {
			if n.flag != None && rest.Has(n.flag) {
				rest &^= n.flag
				parts = append(parts, n.name)
			}
		}
		slices.Reverse(parts)
		return parts
	})
}

// format prints a named value by its name, an invalid one as a number and
// any other combination as the ", "-joined parts split returns.
func (f CallFlag) format(split func(CallFlag) []string) string {
	if s, ok := nameOf(f); ok {
		return s
	}
	if !f.IsValid() {
		return strconv.Itoa(int(f))
	}
	return strings.Join(split(f), ", ")
}

// mustName is nameOf for values known to be named.
func mustName(f CallFlag) string {
	s, _ := nameOf(f)
	return s
}

// FromString parses the forms String and DotNetString produce, following
// neo-go: a single name must match exactly (any name, including None and
// All); a ", "-separated list may only use the non-trivial names (not None
// or All), with spaces around each part ignored. Names are case-sensitive.
func FromString(s string) (CallFlag, error) {
	if !strings.Contains(s, ",") {
		if f, ok := byName(s); ok {
			return f, nil
		}
		return None, fmt.Errorf("%w: unknown flag %q", ErrInvalid, s)
	}
	var res CallFlag
	for p := range strings.SplitSeq(s, ",") {
		p = strings.TrimSpace(p)
		f, ok := byName(p)
		if !ok || f == None || f == All {
			return None, fmt.Errorf("%w: unknown or inappropriate flag %q in %q", ErrInvalid, p, s)
		}
		res |= f
	}
	return res, nil
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
