package binding

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
)

// Config is the input of a generator.
type Config struct {
	// Package is the generated package's name (default: the letters of
	// the contract name, lower-cased).
	Package string
	// Manifest describes the contract (required).
	Manifest *manifest.Manifest
	// Hash is the contract's hash; zero makes a wrapper for a hash given
	// at run time.
	Hash hash.Uint160
	// Overrides replace the Go type of a method's result ("method") or of
	// a parameter ("method.param").
	Overrides map[string]Override
	// CallFlags replace the call flags of a method (default: ReadOnly for
	// safe methods, All otherwise).
	CallFlags map[string]callflag.CallFlag
	// NamedTypes and Types describe structured types (see ExtendedType);
	// keys of Types are "method", "method.param" or "event.param".
	NamedTypes map[string]ExtendedType
	Types      map[string]ExtendedType
}

// ExtendedType describes a structured type: its base, its name (for
// structures), the interface ("iterator"), the key and value types of
// maps, arrays and iterators, and the fields of structures.
type ExtendedType struct {
	Base      smartcontract.ParamType
	Name      string
	Interface string
	Key       smartcontract.ParamType
	Value     *ExtendedType
	Fields    []FieldExtendedType
}

// FieldExtendedType is a named structure field.
type FieldExtendedType struct {
	Field string
	ExtendedType
}

// extendedYAML is the YAML form of ExtendedType (field included, for
// structure fields).
type extendedYAML struct {
	Field     string         `yaml:"field"`
	Base      string         `yaml:"base"`
	Name      string         `yaml:"name"`
	Interface string         `yaml:"interface"`
	Key       string         `yaml:"key"`
	Value     *extendedYAML  `yaml:"value"`
	Fields    []extendedYAML `yaml:"fields"`
}

func paramType(s string) (smartcontract.ParamType, error) {
	if s == "" {
		return smartcontract.UnknownType, nil
	}
	return smartcontract.ParseParamType(s)
}

func (y *extendedYAML) convert() (ExtendedType, error) {
	var (
		e   = ExtendedType{Name: y.Name, Interface: y.Interface}
		err error
	)
	if e.Base, err = paramType(y.Base); err != nil {
		return e, err
	}
	if e.Key, err = paramType(y.Key); err != nil {
		return e, err
	}
	if y.Value != nil {
		v, err := y.Value.convert()
		if err != nil {
			return e, err
		}
		e.Value = &v
	}
	for i := range y.Fields {
		f, err := y.Fields[i].convert()
		if err != nil {
			return e, err
		}
		e.Fields = append(e.Fields, FieldExtendedType{Field: y.Fields[i].Field, ExtendedType: f})
	}
	return e, nil
}

// UnmarshalYAML reads the form neo-go's bindings configuration uses.
func (e *ExtendedType) UnmarshalYAML(node *yaml.Node) error {
	var y extendedYAML
	if err := node.Decode(&y); err != nil {
		return err
	}
	v, err := y.convert()
	if err != nil {
		return err
	}
	*e = v
	return nil
}

// configYAML is the configuration file's form.
type configYAML struct {
	Package    string                       `yaml:"package"`
	Hash       string                       `yaml:"hash"`
	Overrides  map[string]Override          `yaml:"overrides"`
	CallFlags  map[string]callflag.CallFlag `yaml:"callflags"`
	NamedTypes map[string]ExtendedType      `yaml:"namedtypes"`
	Types      map[string]ExtendedType      `yaml:"types"`
}

// ParseConfig reads a bindings configuration file (unknown keys are
// errors). The manifest is not part of it.
func ParseConfig(data []byte) (Config, error) {
	var y configYAML
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&y); err != nil && err != io.EOF {
		return Config{}, err
	}
	cfg := Config{Package: y.Package, Overrides: y.Overrides, CallFlags: y.CallFlags, NamedTypes: y.NamedTypes, Types: y.Types}
	if y.Hash != "" {
		h, err := hash.Uint160DecodeStringLE(strings.TrimPrefix(y.Hash, "0x"))
		if err != nil {
			return Config{}, fmt.Errorf("hash: %w", err)
		}
		cfg.Hash = h
	}
	return cfg, nil
}

// Override is a replacement Go type: the package to import (empty for
// built-in types) and the type as written in the code.
type Override struct {
	Package  string
	TypeName string
}

// interopPackages are the short package names overrides may use.
var interopPackages = map[string]string{
	"iterator":   "github.com/nspcc-dev/neo-go/pkg/interop/iterator",
	"storage":    "github.com/nspcc-dev/neo-go/pkg/interop/storage",
	"ledger":     "github.com/nspcc-dev/neo-go/pkg/interop/native/ledger",
	"management": "github.com/nspcc-dev/neo-go/pkg/interop/native/management",
}

// ParseOverride reads "type", "import/path.Type" or a compound like
// "[]*import/path.Type" ("iterator", "storage", "ledger" and "management"
// name neo-go's interop packages).
func ParseOverride(s string) Override {
	dot := strings.LastIndexByte(s, '.')
	if dot < 0 {
		return Override{TypeName: s}
	}
	prefixEnd := strings.LastIndexAny(s, "]*") + 1 // 0 if not compound
	if prefixEnd > dot {
		prefixEnd = 0
	}
	pkg := s[prefixEnd:dot]
	if full, ok := interopPackages[pkg]; ok {
		pkg = full
	}
	// The type is the prefix and what follows the last '/'. A compound
	// type without a '/' keeps its prefix twice ("*ledger.Block" becomes
	// "**ledger.Block"), as neo-go's generator writes it.
	return Override{Package: pkg, TypeName: s[:prefixEnd] + s[strings.LastIndexByte(s, '/')+1:]}
}

// UnmarshalYAML reads an override string.
func (o *Override) UnmarshalYAML(node *yaml.Node) error {
	var s string
	if err := node.Decode(&s); err != nil {
		return err
	}
	*o = ParseOverride(s)
	return nil
}

// EventBindingName is the Go structure name of an event of the manifest
// (in the RPC binding and in configuration keys "EventName.Param").
func EventBindingName(name string) string { return pascal(name) + "Event" }

// ParamBindingName is the Go field name of an event parameter.
func ParamBindingName(name string) string { return pascal(name) }

// Equal tells whether e and o describe the same type; ByteArray and
// String count as the same base (neo-go's comparison of event usages).
func (e *ExtendedType) Equal(o *ExtendedType) bool {
	if e == nil || o == nil {
		return e == o
	}
	bytesLike := func(t smartcontract.ParamType) bool {
		return t == smartcontract.ByteArrayType || t == smartcontract.StringType
	}
	if e.Base != o.Base && !(bytesLike(e.Base) && bytesLike(o.Base)) ||
		e.Name != o.Name || e.Interface != o.Interface || e.Key != o.Key || len(e.Fields) != len(o.Fields) {
		return false
	}
	for i := range e.Fields {
		if e.Fields[i].Field != o.Fields[i].Field || !e.Fields[i].Equal(&o.Fields[i].ExtendedType) {
			return false
		}
	}
	return e.Value.Equal(o.Value)
}

// String is the override as a configuration writes it: the type with
// its package path in place of the package name ("[]" + "path/pkg" +
// ".T"), or the bare type.
func (o Override) String() string {
	dot := strings.LastIndexByte(o.TypeName, '.')
	if o.Package == "" || dot < 0 {
		return o.TypeName
	}
	prefix := o.TypeName[:strings.LastIndexAny(o.TypeName, "]*")+1]
	return prefix + o.Package + o.TypeName[dot:]
}

// yamlType is the written form of an ExtendedType (neo-go's field order;
// an Any key is left out).
type yamlType struct {
	Base      string      `yaml:"base"`
	Name      string      `yaml:"name,omitempty"`
	Interface string      `yaml:"interface,omitempty"`
	Key       string      `yaml:"key,omitempty"`
	Value     *yamlType   `yaml:"value,omitempty"`
	Fields    []yamlField `yaml:"fields,omitempty"`
}

type yamlField struct {
	Field    string `yaml:"field"`
	yamlType `yaml:",inline"`
}

func toYAMLType(e ExtendedType) yamlType {
	y := yamlType{Base: e.Base.String(), Name: e.Name, Interface: e.Interface}
	if e.Key != smartcontract.AnyType {
		y.Key = e.Key.String()
	}
	if e.Value != nil {
		v := toYAMLType(*e.Value)
		y.Value = &v
	}
	for _, f := range e.Fields {
		y.Fields = append(y.Fields, yamlField{Field: f.Field, yamlType: toYAMLType(f.ExtendedType)})
	}
	return y
}

// MarshalConfig writes cfg (without the manifest) as `contract compile
// --bindings` does: package, hash (always), then overrides, call flags,
// named types and types when not empty, keys sorted.
func MarshalConfig(cfg Config) ([]byte, error) {
	out := struct {
		Package    string              `yaml:"package,omitempty"`
		Hash       string              `yaml:"hash"`
		Overrides  map[string]string   `yaml:"overrides,omitempty"`
		CallFlags  map[string]string   `yaml:"callflags,omitempty"`
		NamedTypes map[string]yamlType `yaml:"namedtypes,omitempty"`
		Types      map[string]yamlType `yaml:"types,omitempty"`
	}{Package: cfg.Package, Hash: "0x" + cfg.Hash.StringLE()}
	if len(cfg.Overrides) > 0 {
		out.Overrides = map[string]string{}
		for k, o := range cfg.Overrides {
			out.Overrides[k] = o.String()
		}
	}
	if len(cfg.CallFlags) > 0 {
		out.CallFlags = map[string]string{}
		for k, f := range cfg.CallFlags {
			out.CallFlags[k] = f.String()
		}
	}
	for dst, src := range map[*map[string]yamlType]map[string]ExtendedType{&out.NamedTypes: cfg.NamedTypes, &out.Types: cfg.Types} {
		if len(src) > 0 {
			*dst = map[string]yamlType{}
			for k, e := range src {
				(*dst)[k] = toYAMLType(e)
			}
		}
	}
	return yaml.Marshal(&out)
}
