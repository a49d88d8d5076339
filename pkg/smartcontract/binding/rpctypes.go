package binding

import (
	"strings"
	"unicode"

	"github.com/n3node/n3node/pkg/smartcontract"
)

// Import paths the RPC bindings use.
const (
	pkgUtil        = "github.com/nspcc-dev/neo-go/pkg/util"
	pkgKeys        = "github.com/nspcc-dev/neo-go/pkg/crypto/keys"
	pkgStackitem   = "github.com/nspcc-dev/neo-go/pkg/vm/stackitem"
	pkgResult      = "github.com/nspcc-dev/neo-go/pkg/neorpc/result"
	pkgTransaction = "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	pkgSC          = "github.com/nspcc-dev/neo-go/pkg/smartcontract"
	pkgUnwrap      = "github.com/nspcc-dev/neo-go/pkg/rpcclient/unwrap"
	pkgUUID        = "github.com/google/uuid"
	pkgRPCClient   = "github.com/nspcc-dev/neo-go/pkg/rpcclient/"
)

// upperFirst upper-cases the first byte of s (a byte, not a rune: a
// multi-byte first letter becomes U+FFFD followed by its other bytes, as
// in neo-go's generators).
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// typeName is the Go name of a named structure: upperFirst without '.'
// and '-'.
func typeName(s string) string {
	return strings.NewReplacer(".", "", "-", "").Replace(upperFirst(s))
}

// pascal turns a manifest name (event or event parameter) into an
// exported Go identifier: words split at spaces, each keeping only
// letters, digits and '_' (the whole name starting with a letter), each
// upperFirst'ed.
func pascal(s string) string {
	var out strings.Builder
	for _, w := range strings.Split(s, " ") {
		var word strings.Builder
		for _, r := range w {
			first := out.Len() == 0 && word.Len() == 0
			if unicode.IsLetter(r) || !first && (unicode.IsDigit(r) || r == '_') {
				word.WriteRune(r)
			}
		}
		if word.Len() > 0 {
			out.WriteString(upperFirst(word.String()))
		}
	}
	return out.String()
}

// RPCGoType is the RPC binding's GoType: the extended type configured for
// key (cfg.Types) or the manifest type, in the client's Go types.
func RPCGoType(key string, t smartcontract.ParamType, cfg *Config) (string, string) {
	et, ok := cfg.Types[key]
	if !ok {
		et = ExtendedType{Base: t}
	}
	return clientType(et)
}

// simpleClientTypes are the client-side Go types of the types that are
// not containers, with the package each needs.
var simpleClientTypes = map[smartcontract.ParamType][2]string{
	smartcontract.BoolType:      {"bool", ""},
	smartcontract.IntegerType:   {"*big.Int", "math/big"},
	smartcontract.ByteArrayType: {"[]byte", ""},
	smartcontract.SignatureType: {"[]byte", ""},
	smartcontract.StringType:    {"string", ""},
	smartcontract.Hash160Type:   {"util.Uint160", pkgUtil},
	smartcontract.Hash256Type:   {"util.Uint256", pkgUtil},
	smartcontract.PublicKeyType: {"*keys.PublicKey", pkgKeys},
	smartcontract.VoidType:      {"", ""},
}

// clientType is the client-side Go type of et and the package it needs.
func clientType(et ExtendedType) (string, string) {
	if t, ok := simpleClientTypes[et.Base]; ok {
		return t[0], t[1]
	}
	switch et.Base {
	case smartcontract.ArrayType:
		switch {
		case et.Name != "":
			return "*" + typeName(et.Name), pkgStackitem
		case et.Value == nil:
			return "[]any", ""
		case et.Value.Base == smartcontract.PublicKeyType:
			return "keys.PublicKeys", pkgKeys
		}
		elem, pkg := clientType(*et.Value)
		return "[]" + elem, pkg
	case smartcontract.MapType:
		key, _ := clientType(ExtendedType{Base: et.Key})
		val := "any"
		if et.Value != nil {
			val, _ = clientType(*et.Value)
		}
		return "map[" + key + "]" + val, pkgStackitem
	}
	return "any", "" // Any, InteropInterface
}

// conversionImports are the packages the generated conversions of a type
// use, beyond the type's own package.
var conversionImports = map[smartcontract.ParamType][]string{
	smartcontract.ArrayType:     {"errors", "fmt"},
	smartcontract.MapType:       {"fmt"},
	smartcontract.StringType:    {"errors", "unicode/utf8"},
	smartcontract.PublicKeyType: {"crypto/elliptic"},
}

// addImports adds what the type of et and the code converting it need.
func addImports(et ExtendedType, imports map[string]bool) {
	if _, pkg := clientType(et); pkg != "" {
		imports[pkg] = true
	}
	for _, pkg := range conversionImports[et.Base] {
		imports[pkg] = true
	}
	if et.Value != nil {
		addImports(*et.Value, imports)
	}
	if et.Base == smartcontract.MapType {
		addImports(ExtendedType{Base: et.Key}, imports)
	}
	for _, f := range et.Fields {
		addImports(f.ExtendedType, imports)
	}
}

// anyValue is et's element (arrays) or value (maps) type, Any when unset.
func anyValue(et ExtendedType) ExtendedType {
	if et.Value != nil {
		return *et.Value
	}
	return ExtendedType{Base: smartcontract.AnyType}
}

// lines joins lines with newlines. The generated text keeps neo-go's
// indentation (tabs written out in each line): gofmt makes it irrelevant,
// except where the output does not parse and is written as is.
func lines(l ...string) string { return strings.Join(l, "\n") }

// indent indents every line of s but the first by ind.
func indent(s, ind string) string { return strings.ReplaceAll(s, "\n", "\n"+ind) }

// bytesDecoder is a function literal decoding a byte string item into
// typ with decode (which yields res and an error), zero on failure.
func bytesDecoder(typ, zero, decode, res, v string) string {
	return lines("func(item stackitem.Item) ("+typ+", error) {",
		"\t\tb, err := item.TryBytes()",
		"\t\tif err != nil {",
		"\t\t\treturn "+zero+", err",
		"\t\t}",
		"\t\t"+decode,
		"\t\tif err != nil {",
		"\t\t\treturn "+zero+", err",
		"\t\t}",
		"\t\treturn "+res+", nil",
		"\t}("+v+")")
}

// fill puts the expression v in place of {v} in the fragment tmpl.
func fill(tmpl, v string) string { return strings.ReplaceAll(tmpl, "{v}", v) }

// itemReaders are the fragments reading a stack item {v} of a type that
// converts with one call, as (value, error).
var itemReaders = map[smartcontract.ParamType]string{
	smartcontract.IntegerType:   "{v}.TryInteger()",
	smartcontract.BoolType:      "{v}.TryBool()",
	smartcontract.ByteArrayType: "{v}.TryBytes()",
	smartcontract.SignatureType: "{v}.TryBytes()",
	smartcontract.AnyType:       "{v}.Value(), error(nil)",
	// sic: the item, whatever {v} is.
	smartcontract.InteropInterfaceType: "item.Value(), nil",
}

// bytesDecoders are the types read from a byte string item with a
// decoding call: bytesDecoder's typ, zero, decode and res.
var bytesDecoders = map[smartcontract.ParamType][4]string{
	smartcontract.Hash160Type:   {"util.Uint160", "util.Uint160{}", "u, err := util.Uint160DecodeBytesBE(b)", "u"},
	smartcontract.Hash256Type:   {"util.Uint256", "util.Uint256{}", "u, err := util.Uint256DecodeBytesBE(b)", "u"},
	smartcontract.PublicKeyType: {"*keys.PublicKey", "nil", "k, err := keys.NewPublicKeyFromBytes(b, elliptic.P256())", "k"},
}

// itemMakers are the fragments making a stack item from the client value
// {v} of a type that converts with one call, as (stackitem.Item, error).
var itemMakers = map[smartcontract.ParamType]string{
	smartcontract.IntegerType:   "(*stackitem.BigInteger)({v}), error(nil)",
	smartcontract.BoolType:      "stackitem.NewBool({v}), error(nil)",
	smartcontract.StringType:    "stackitem.NewByteArray([]byte({v})), error(nil)",
	smartcontract.ByteArrayType: "stackitem.NewByteArray({v}), error(nil)",
	smartcontract.SignatureType: "stackitem.NewByteArray({v}), error(nil)",
	smartcontract.Hash160Type:   "stackitem.NewByteArray({v}.BytesBE()), error(nil)",
	smartcontract.Hash256Type:   "stackitem.NewByteArray({v}.BytesBE()), error(nil)",
	smartcontract.PublicKeyType: "stackitem.NewByteArray({v}.Bytes()), error(nil)",
}

// fromItem is an expression giving (value, error) of et's client type
// from the stack item expression v.
func fromItem(et ExtendedType, v string) string {
	if r, ok := itemReaders[et.Base]; ok {
		return fill(r, v)
	}
	if d, ok := bytesDecoders[et.Base]; ok {
		return bytesDecoder(d[0], d[1], d[2], d[3], v)
	}
	switch et.Base {
	case smartcontract.StringType:
		return lines("func(item stackitem.Item) (string, error) {",
			"\t\tb, err := item.TryBytes()",
			"\t\tif err != nil {",
			"\t\t\treturn \"\", err",
			"\t\t}",
			"\t\tif !utf8.Valid(b) {",
			"\t\t\treturn \"\", errors.New(\"not a UTF-8 string\")",
			"\t\t}",
			"\t\treturn string(b), nil",
			"\t}("+v+")")
	case smartcontract.ArrayType:
		if et.Name != "" {
			return "itemTo" + typeName(et.Name) + "(" + v + ", nil)"
		}
		if et.Value == nil {
			return fromItem(ExtendedType{Base: smartcontract.ArrayType, Value: &ExtendedType{}}, v)
		}
		typ, _ := clientType(et)
		return lines("func(item stackitem.Item) ("+typ+", error) {",
			"\t\tarr, ok := item.Value().([]stackitem.Item)",
			"\t\tif !ok {",
			"\t\t\treturn nil, errors.New(\"not an array\")",
			"\t\t}",
			"\t\tres := make("+typ+", len(arr))",
			"\t\tfor i := range res {",
			"\t\t\tres[i], err = "+indent(fromItem(*et.Value, "arr[i]"), "\t\t"),
			"\t\t\tif err != nil {",
			"\t\t\t\treturn nil, fmt.Errorf(\"item %d: %w\", i, err)",
			"\t\t\t}",
			"\t\t}",
			"\t\treturn res, nil",
			"\t}("+v+")")
	case smartcontract.MapType:
		if et.Value == nil {
			return fromItem(ExtendedType{Base: smartcontract.MapType, Key: et.Key, Value: &ExtendedType{}}, v)
		}
		typ, _ := clientType(et)
		return lines("func(item stackitem.Item) ("+typ+", error) {",
			"\t\tm, ok := item.Value().([]stackitem.MapElement)",
			"\t\tif !ok {",
			"\t\t\treturn nil, fmt.Errorf(\"%s is not a map\", item.Type().String())",
			"\t\t}",
			"\t\tres := make("+typ+")",
			"\t\tfor i := range m {",
			"\t\t\tk, err := "+indent(fromItem(ExtendedType{Base: et.Key}, "m[i].Key"), "\t\t"),
			"\t\t\tif err != nil {",
			"\t\t\t\treturn nil, fmt.Errorf(\"key %d: %w\", i, err)",
			"\t\t\t}",
			"\t\t\tv, err := "+indent(fromItem(*et.Value, "m[i].Value"), "\t\t"),
			"\t\t\tif err != nil {",
			"\t\t\t\treturn nil, fmt.Errorf(\"value %d: %w\", i, err)",
			"\t\t\t}",
			"\t\t\tres[k] = v",
			"\t\t}",
			"\t\treturn res, nil",
			"\t}("+v+")")
	}
	return "" // Void
}

// toItem is an expression giving (stackitem.Item, error) from the client
// value expression v of type et.
func toItem(et ExtendedType, v string) string {
	if m, ok := itemMakers[et.Base]; ok {
		return fill(m, v)
	}
	switch et.Base {
	case smartcontract.ArrayType:
		if et.Name != "" {
			return v + ".ToStackItem()"
		}
		if et.Value == nil {
			return toItem(ExtendedType{Base: smartcontract.ArrayType, Value: &ExtendedType{}}, v)
		}
		typ, _ := clientType(et)
		return listConverter(typ, toItemTarget, "var items = make([]stackitem.Item, 0, len(in))",
			"itm", toItem(*et.Value, "v"), "items = append(items, itm)", "stackitem.NewArray(items)", v)
	case smartcontract.MapType:
		val := anyValue(et)
		typ, _ := clientType(ExtendedType{Base: smartcontract.MapType, Key: et.Key, Value: &val})
		return mapConverter(typ, toItemTarget, "var m = stackitem.NewMap()",
			toItem(ExtendedType{Base: et.Key}, "k"), toItem(val, "v"), "m.Add(iKey, iVal)", "m", v)
	}
	return "stackitem.TryMake(" + v + ")" // Any, InteropInterface, Void
}

// toParam is an expression giving (smartcontract.Parameter, error) from
// the client value expression v of type et.
func toParam(et ExtendedType, v string) string {
	switch et.Base {
	case smartcontract.ArrayType:
		if et.Name != "" {
			return v + ".ToSCParameter()"
		}
		if et.Value == nil {
			return toParam(ExtendedType{Base: smartcontract.ArrayType, Value: &ExtendedType{}}, v)
		}
		typ, _ := clientType(et)
		return listConverter(typ, toParamTarget, "var prms = make([]smartcontract.Parameter, 0, len(in))",
			"prm", toParam(*et.Value, "v"), "prms = append(prms, prm)",
			"smartcontract.Parameter{Type: smartcontract.ArrayType, Value: prms}", v)
	case smartcontract.MapType:
		if et.Value == nil {
			// neo-go converts a map without a value type to a stack item here.
			return toItem(et, v)
		}
		typ, _ := clientType(et)
		return mapConverter(typ, toParamTarget, "var prms = make([]smartcontract.ParameterPair, 0, len(in))",
			toParam(ExtendedType{Base: et.Key}, "k"), toParam(*et.Value, "v"),
			"prms = append(prms, smartcontract.ParameterPair{Key: iKey, Value: iVal})",
			"smartcontract.Parameter{Type: smartcontract.MapType, Value: prms}", v)
	}
	return "smartcontract.NewParameterFromValue(" + v + ")"
}

// convTarget is what a container converter of the RPC bindings makes:
// its result type, what a nil container gives and the value returned
// with an error.
type convTarget struct{ typ, null, zero string }

var (
	toItemTarget  = convTarget{"stackitem.Item", "stackitem.Null{}", "nil"}
	toParamTarget = convTarget{"smartcontract.Parameter", "smartcontract.Parameter{Type: smartcontract.AnyType}", "smartcontract.Parameter{}"}
)

// converterHead is the start of a function literal converting the client
// container `in` of type typ into t, up to its accumulator declaration.
func converterHead(typ string, t convTarget, acc string) []string {
	return []string{"func(in " + typ + ") (" + t.typ + ", error) {",
		"\t\tif in == nil {",
		"\t\t\treturn " + t.null + ", nil",
		"\t\t}",
		"",
		"\t\t" + acc}
}

// listConverter is a function literal applied to v converting each element
// (conv of "v", named elem) and adding it (add) to acc, returning ret.
func listConverter(typ string, t convTarget, acc, elem, conv, add, ret, v string) string {
	return lines(append(converterHead(typ, t, acc),
		"\t\tfor i, v := range in {",
		"\t\t\t"+elem+", err := "+conv,
		"\t\t\tif err != nil {",
		"\t\t\t\treturn "+t.zero+", fmt.Errorf(\"item %d: %w\", i, err)",
		"\t\t\t}",
		"\t\t\t"+add,
		"\t\t}",
		"\t\treturn "+ret+", nil",
		"\t}("+v+")")...)
}

// mapConverter is listConverter for maps: keyConv and valConv convert "k"
// and "v" into iKey and iVal.
func mapConverter(typ string, t convTarget, acc, keyConv, valConv, add, ret, v string) string {
	return lines(append(converterHead(typ, t, acc),
		"\t\tfor k, v := range in {",
		"\t\t\tiKey, err := "+keyConv,
		"\t\t\tif err != nil {",
		"\t\t\t\treturn "+t.zero+", fmt.Errorf(\"key %v: %w\", k, err)",
		"\t\t\t}",
		"\t\t\tiVal, err := "+valConv,
		"\t\t\tif err != nil {",
		"\t\t\t\treturn "+t.zero+", fmt.Errorf(\"key %v, wrong value: %w\", k, err)",
		"\t\t\t}",
		"\t\t\t"+add,
		"\t\t}",
		"\t\treturn "+ret+", nil",
		"\t}("+v+")")...)
}
