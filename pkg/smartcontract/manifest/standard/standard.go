package standard

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
)

// specs are the NEP standard ABIs (neo-go's, checked without parameter
// names).
// Each line is one entry:
//
//	method name(Type,...) Return [safe]   a required method
//	method name(*) Return [safe]          any parameters
//	optional name(...) Return [safe]      checked only when present
//	event Name(Type,...)
//	base NAME                             everything NAME requires
//	requires STANDARD                     the manifest must also comply with it
//
// A standard with several variants (NEP-11) complies when one does.
var specs = map[string][]string{
	"decimal-token": {`
		method decimals() Integer safe
		method symbol() String safe
		method totalSupply() Integer safe`},
	manifest.NEP17StandardName: {`
		base decimal-token
		method balanceOf(Hash160) Integer safe
		method transfer(Hash160,Hash160,Integer,Any) Boolean
		event Transfer(Hash160,Hash160,Integer)`},
	"nep11-base": {`
		base decimal-token
		method balanceOf(Hash160) Integer safe
		method tokensOf(Hash160) InteropInterface safe
		method transfer(Hash160,ByteArray,Any) Boolean
		event Transfer(Hash160,Hash160,Integer,ByteArray)
		optional properties(ByteArray) Map safe
		optional tokens() InteropInterface safe`},
	manifest.NEP11StandardName: {
		`non-divisible
		base nep11-base
		method ownerOf(ByteArray) Hash160 safe`,
		`divisible
		base nep11-base
		method balanceOf(Hash160,ByteArray) Integer safe
		method ownerOf(ByteArray) InteropInterface safe
		method transfer(Hash160,Hash160,Integer,ByteArray,Any) Boolean`},
	manifest.NEP22StandardName: {`method update(ByteArray,ByteArray,Any) Void`},
	manifest.NEP24StandardName: {`
		requires NEP-11
		method royaltyInfo(ByteArray,Hash160,Integer) Array safe`},
	manifest.NEP24Payable:      {`event RoyaltiesTransferred(Hash160,Hash160,Hash160,ByteArray,Integer)`},
	manifest.NEP26StandardName: {`method onNEP11Payment(Hash160,Integer,ByteArray,Any) Void`},
	manifest.NEP27StandardName: {`method onNEP17Payment(Hash160,Integer,Any) Void`},
	manifest.NEP29StandardName: {`method _deploy(Any,Boolean) Void`},
	manifest.NEP30StandardName: {`method verify(*) Boolean safe`},
	manifest.NEP31StandardName: {`method destroy() Void`},
}

// Errors of the standard check (wrapped with the method or event).
var (
	errMethodMissing    = errors.New("method missing")
	errEventMissing     = errors.New("event missing")
	errReturnType       = errors.New("invalid return type")
	errParamCount       = errors.New("invalid parameter count")
	errParamType        = errors.New("invalid parameter type")
	errSafeFlagMismatch = errors.New("method has wrong safe flag")
)

// Check checks m against each named standard it knows (unknown names
// pass): the compiler's check of the standards a configuration claims.
// The error texts are neo-go's.
func Check(m *manifest.Manifest, names ...string) error {
	for _, name := range names {
		variants, ok := specs[name]
		if !ok {
			continue
		}
		var errs []string
		for _, v := range variants {
			label, err := complyVariant(m, v)
			if err == nil {
				errs = nil
				break
			}
			if len(variants) > 1 {
				err = fmt.Errorf("%s: %w", label, err)
			}
			errs = append(errs, err.Error())
		}
		if len(errs) != 0 {
			return fmt.Errorf("manifest is not compliant with '%s': %s", name, strings.Join(errs, "; "))
		}
	}
	return nil
}

// complyVariant checks one variant; a first line without a keyword is the
// variant's label.
func complyVariant(m *manifest.Manifest, spec string) (string, error) {
	var label string
	var later []string // optional entries are checked after the rest
	lines := strings.Split(strings.TrimSpace(spec), "\n")
	for i, line := range lines {
		kw, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch kw {
		case "base":
			if _, err := complyVariant(m, specs[rest][0]); err != nil {
				return label, err
			}
		case "requires":
			if err := Check(m, rest); err != nil {
				return label, fmt.Errorf("required standard '%s' is not supported: %w", label, err)
			}
		case "method":
			if err := checkStdMethod(m, rest, false); err != nil {
				return label, err
			}
		case "optional":
			later = append(later, rest)
		case "event":
			if err := checkStdEvent(m, rest); err != nil {
				return label, err
			}
		default:
			if i != 0 {
				panic("bad standard spec line: " + line)
			}
			label = kw
		}
	}
	for _, rest := range later {
		if err := checkStdMethod(m, rest, true); err != nil {
			return label, err
		}
	}
	return label, nil
}

// parseSig splits "name(T1,T2) Ret [safe]"; params is nil for "(*)".
func parseSig(s string) (name string, params []smartcontract.ParamType, ret smartcontract.ParamType, safe bool) {
	name, rest, _ := strings.Cut(s, "(")
	list, tail, _ := strings.Cut(rest, ")")
	fields := strings.Fields(tail)
	if list != "*" {
		params = []smartcontract.ParamType{}
		for _, t := range strings.Split(list, ",") {
			if t != "" {
				params = append(params, mustParamType(t))
			}
		}
	}
	if len(fields) > 0 {
		ret = mustParamType(fields[0])
	}
	return name, params, ret, len(fields) > 1 && fields[1] == "safe"
}

func mustParamType(s string) smartcontract.ParamType {
	t, err := smartcontract.ParseParamType(s)
	if err != nil {
		panic(err)
	}
	return t
}

func checkStdMethod(m *manifest.Manifest, sig string, optional bool) error {
	name, params, ret, safe := parseSig(sig)
	count := -1
	if params != nil {
		count = len(params)
	}
	got := m.ABI.GetMethod(name, count)
	if got == nil {
		if optional {
			return nil
		}
		return fmt.Errorf("%w: '%s' with %d parameters", errMethodMissing, name, len(params))
	}
	if got.ReturnType != ret {
		return fmt.Errorf("%w: '%s' (expected %s, got %s)", errReturnType, name, ret, got.ReturnType)
	}
	for i, p := range params {
		if got.Parameters[i].Type != p {
			return fmt.Errorf("%w: '%s'[%d] (expected %s, got %s)", errParamType, name, i, p, got.Parameters[i].Type)
		}
	}
	if got.Safe != safe {
		return fmt.Errorf("'%s' %w: expected %t", name, errSafeFlagMismatch, safe)
	}
	return nil
}

func checkStdEvent(m *manifest.Manifest, sig string) error {
	name, params, _, _ := parseSig(sig)
	got := m.ABI.GetEvent(name)
	if got == nil {
		return fmt.Errorf("%w: event '%s'", errEventMissing, name)
	}
	if len(got.Parameters) != len(params) {
		return fmt.Errorf("%w: event '%s' (expected %d, got %d)", errParamCount, name, len(params), len(got.Parameters))
	}
	for i, p := range params {
		if got.Parameters[i].Type != p {
			return fmt.Errorf("%w: event '%s' (expected %s, got %s)", errParamType, name, p, got.Parameters[i].Type)
		}
	}
	return nil
}

// variantSpec is the spec of one standard or variant: "NEP-17",
// "nep11-base", or "NEP-11/divisible" for a labelled variant.
func variantSpec(id string) (string, bool) {
	name, label, labelled := strings.Cut(id, "/")
	for _, v := range specs[name] {
		if !labelled {
			return v, true
		}
		if first, _, _ := strings.Cut(strings.TrimSpace(v), "\n"); strings.TrimSpace(first) == label {
			return v, true
		}
	}
	return "", false
}

// Complies tells whether m complies with the standard or variant id (see
// Drop for the forms of id).
func Complies(m *manifest.Manifest, id string) bool {
	spec, ok := variantSpec(id)
	if !ok {
		return false
	}
	_, err := complyVariant(m, spec)
	return err == nil
}

// Drop removes from methods and events those the standard or variant id
// declares, its bases' included (not the standards it requires): a method
// matches by name and parameter count (any count for "(*)"), an event by
// name and parameter count. id is a standard name ("NEP-17", "NEP-24-Payable"),
// a base ("nep11-base") or a labelled variant ("NEP-11/divisible"). The
// slices are filtered in place.
func Drop(methods []manifest.Method, events []manifest.Event, id string) ([]manifest.Method, []manifest.Event) {
	spec, _ := variantSpec(id)
	for _, line := range strings.Split(strings.TrimSpace(spec), "\n") {
		kw, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch kw {
		case "base":
			methods, events = Drop(methods, events, rest)
		case "method", "optional":
			name, params, _, _ := parseSig(rest)
			methods = slices.DeleteFunc(methods, func(m manifest.Method) bool {
				return m.Name == name && (params == nil || len(m.Parameters) == len(params))
			})
		case "event":
			name, params, _, _ := parseSig(rest)
			events = slices.DeleteFunc(events, func(e manifest.Event) bool {
				return e.Name == name && len(e.Parameters) == len(params)
			})
		}
	}
	return methods, events
}
