package binding

import (
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
)

const (
	interopPkg   = "github.com/nspcc-dev/neo-go/pkg/interop"
	contractPkg  = "github.com/nspcc-dev/neo-go/pkg/interop/contract"
	internalPkg  = "github.com/nspcc-dev/neo-go/pkg/interop/neogointernal"
	wrapperUsage = "neo-go contract generate-wrapper --manifest <file.json> --out <file.go> [--hash <hash>] [--config <config>]"
)

// Param is a generated function's parameter.
type Param struct {
	Name string
	Type string
}

// Method is a contract method as a generated function.
type Method struct {
	// Name is the Go name, NameABI the manifest's.
	Name, NameABI string
	// CallFlag is the name of the call flags constant.
	CallFlag string
	Params   []Param
	// Result is the Go result type ("" for Void).
	Result string
	// Safe and ResultABI are the manifest's.
	Safe      bool
	ResultABI smartcontract.ParamType
}

// Contract is what the generators print: the package, the contract's
// name, the imports the types need and the methods.
type Contract struct {
	Package, Name string
	Imports       []string
	Methods       []Method
}

// GoType maps a manifest type to a Go type and the package it needs, for
// the value named key ("method" or "method.param").
type GoType func(key string, t smartcontract.ParamType, cfg *Config) (typ, pkg string)

// ContractGoType is the contract wrapper's GoType: overrides first, then
// the interop types.
func ContractGoType(key string, t smartcontract.ParamType, cfg *Config) (string, string) {
	if o, ok := cfg.Overrides[key]; ok {
		return o.TypeName, o.Package
	}
	switch t {
	case smartcontract.BoolType:
		return "bool", ""
	case smartcontract.IntegerType:
		return "int", ""
	case smartcontract.ByteArrayType:
		return "[]byte", ""
	case smartcontract.StringType:
		return "string", ""
	case smartcontract.Hash160Type:
		return "interop.Hash160", interopPkg
	case smartcontract.Hash256Type:
		return "interop.Hash256", interopPkg
	case smartcontract.PublicKeyType:
		return "interop.PublicKey", interopPkg
	case smartcontract.SignatureType:
		return "interop.Signature", interopPkg
	case smartcontract.ArrayType:
		return "[]any", ""
	case smartcontract.MapType:
		return "map[string]any", ""
	case smartcontract.VoidType:
		return "", ""
	}
	return "any", "" // Any, InteropInterface
}

// packageName is the default package: the letters of the contract name.
func packageName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Describe lists the public methods of cfg.Manifest (those not starting
// with '_'): overloads get numeric suffixes (the second "perform" becomes
// Perform2, or Perform3 if perform2 exists, ...), parameters named like Go
// keywords get a "v" suffix and repeated names "_" suffixes; the call
// flags are ReadOnly for safe methods unless configured.
func Describe(cfg *Config, goType GoType) Contract {
	c := Contract{Package: cfg.Package, Name: cfg.Manifest.Name}
	if c.Package == "" {
		c.Package = packageName(c.Name)
	}
	imports := map[string]bool{}
	taken := map[string]bool{}
	for _, m := range cfg.Manifest.ABI.Methods {
		taken[m.Name] = false
	}
	for _, m := range cfg.Manifest.ABI.Methods {
		if strings.HasPrefix(m.Name, "_") {
			continue
		}
		name := m.Name
		for n := 2; taken[name]; n++ {
			name = m.Name + strconv.Itoa(n)
		}
		taken[name] = true
		flags := callflag.All
		if f, ok := cfg.CallFlags[m.Name]; ok {
			flags = f
		} else if m.Safe {
			flags = callflag.ReadOnly
		}
		meth := Method{Name: upperFirst(name), NameABI: m.Name, CallFlag: flags.String(), Safe: m.Safe, ResultABI: m.ReturnType}
		used := map[string]bool{}
		for _, p := range m.Parameters {
			typ, pkg := goType(m.Name+"."+p.Name, p.Type, cfg)
			if pkg != "" {
				imports[pkg] = true
			}
			pn := p.Name
			if token.IsKeyword(pn) {
				pn += "v"
			}
			for used[pn] {
				pn += "_"
			}
			used[pn] = true
			meth.Params = append(meth.Params, Param{Name: pn, Type: typ})
		}
		typ, pkg := goType(m.Name, m.ReturnType, cfg)
		if pkg != "" {
			imports[pkg] = true
		}
		meth.Result = typ
		c.Methods = append(c.Methods, meth)
	}
	for p := range imports {
		c.Imports = append(c.Imports, p)
	}
	slices.Sort(c.Imports)
	return c
}

// hashLiteral is the contents of a Go string literal holding h's bytes
// (in script order) as \x escapes.
func hashLiteral(h hash.Uint160) string {
	var b strings.Builder
	for _, x := range h {
		fmt.Fprintf(&b, `\x%02x`, x)
	}
	return b.String()
}

// gofmt formats src and writes it; unformattable source is written as is
// (as neo-go does: some manifests give code that does not parse).
func gofmt(out io.Writer, src []byte) error {
	if f, err := format.Source(src); err == nil {
		src = f
	}
	_, err := out.Write(src)
	return err
}

// signature is "Name(p1 T1, p2 T2)".
func (m Method) signature() string {
	var b strings.Builder
	for i, p := range m.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name + " " + p.Type)
	}
	return m.Name + "(" + b.String() + ")"
}

// args is ", p1, p2".
func (m Method) args() string {
	var b strings.Builder
	for _, p := range m.Params {
		b.WriteString(", " + p.Name)
	}
	return b.String()
}

// Generate writes the contract wrapper of cfg: with a hash, package
// functions calling the contract through method tokens (CALLT); without
// one, a Contract type holding the hash whose methods use
// System.Contract.Call.
func Generate(cfg Config, out io.Writer) error {
	if cfg.Manifest == nil {
		return errors.New("no manifest")
	}
	c := Describe(&cfg, ContractGoType)
	static := cfg.Hash != (hash.Uint160{})
	c.Imports = append(c.Imports, contractPkg)
	if static {
		c.Imports = append(c.Imports, internalPkg)
	}
	slices.Sort(c.Imports)

	// The text is neo-go's before gofmt, spaces included: when it does not
	// parse (an override naming a package path with '-', say) it is
	// written as is, as neo-go does.
	var b strings.Builder
	b.WriteString("// Code generated by " + wrapperUsage + "; DO NOT EDIT.\n\n")
	b.WriteString("// Package " + c.Package + " contains wrappers for " + c.Name + " contract.\npackage " + c.Package + "\n\nimport (\n")
	for _, p := range c.Imports {
		b.WriteString("\t\"" + p + "\"\n")
	}
	b.WriteString(")\n\n")
	if static {
		b.WriteString("\n// Hash contains contract hash in big-endian form.\nconst Hash = \"" + hashLiteral(cfg.Hash) + "\"\n")
	} else {
		b.WriteString("\n// Contract represents the " + c.Name + " smart contract.\ntype Contract struct {\n    Hash interop.Hash160\n}\n\n" +
			"// NewContract returns a new Contract instance with the specified hash.\n" +
			"func NewContract(hash interop.Hash160) Contract {\n    return Contract{Hash: hash}\n}\n")
	}
	for _, m := range c.Methods {
		b.WriteString("\n// " + m.Name + " invokes `" + m.NameABI + "` method of contract.\n")
		var call string
		if static {
			b.WriteString("func " + m.signature())
			noRet := "NoRet"
			if m.Result != "" {
				noRet = ""
			}
			call = "neogointernal.CallWithToken" + noRet + "(Hash, \"" + m.NameABI + "\", int(contract." + m.CallFlag + ")" + m.args() + ")"
		} else {
			b.WriteString("func (c Contract) " + m.signature())
			call = "contract.Call(c.Hash, \"" + m.NameABI + "\", contract." + m.CallFlag + m.args() + ")"
		}
		if m.Result != "" {
			b.WriteString(" " + m.Result + " {\n\treturn " + call + ".(" + m.Result + ")\n}\n")
		} else {
			b.WriteString(" {\n\t" + call + "\n}\n")
		}
	}
	b.WriteString("\n")
	return gofmt(out, []byte(b.String()))
}
