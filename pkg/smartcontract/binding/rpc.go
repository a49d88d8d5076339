package binding

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/manifest/standard"
)

const rpcUsage = "neo-go contract generate-rpcwrapper --manifest <file.json> --out <file.go> [--hash <hash>] [--config <config>]"

// rpcEvent is an event of the manifest as a Go structure.
type rpcEvent struct {
	Name, NameABI string
	Fields        []rpcField
}

// rpcField is a field of an event structure: its Go name and type and
// the extended type its value is decoded as.
type rpcField struct {
	Name, Type string
	Ext        ExtendedType
}

// rpcReader is a safe method: how its result is unwrapped.
type rpcReader struct {
	Method
	// Unwrap names the rpcclient/unwrap function; Convert is set for
	// results decoded by generated code (Unwrap "Item"), ItemTo for
	// named structures.
	Unwrap, ItemTo string
	Convert        *ExtendedType
}

// rpcContract is everything the RPC binding prints.
type rpcContract struct {
	Contract
	Hash             hash.Uint160
	Static           bool
	Readers          []rpcReader
	Writers          []Method
	Named            []ExtendedType
	Events           []rpcEvent
	Writer           []string // standards with a nepXX.Contract ("NEP-22", "NEP-31")
	NEP11D, NEP11ND  bool
	NEP17, NEP24     bool
	HasReader        bool
	HasWriter        bool
	HasIterator      bool
	standardsImports map[string]bool
}

// unwrappers maps a safe method's Go result type to its unwrap function.
var unwrappers = map[string]string{
	"bool":            "Bool",
	"*big.Int":        "BigInt",
	"string":          "UTF8String",
	"util.Uint160":    "Uint160",
	"util.Uint256":    "Uint256",
	"*keys.PublicKey": "PublicKey",
	"[]byte":          "Bytes",
	"*stackitem.Map":  "Map",
	"[]bool":          "ArrayOfBools",
	"[]*big.Int":      "ArrayOfBigInts",
	"[][]byte":        "ArrayOfBytes",
	"[]string":        "ArrayOfUTF8Strings",
	"[]util.Uint160":  "ArrayOfUint160",
	"[]util.Uint256":  "ArrayOfUint256",
	"keys.PublicKeys": "ArrayOfPublicKeys",
}

// recogniseStandards marks the standards of the manifest the client
// packages implement and removes their methods and events from m (a
// copy): those come from the embedded nepXX types.
func (c *rpcContract) recogniseStandards(m *manifest.Manifest, cfg *Config) {
	imp := c.standardsImports
	var (
		drop  []string
		nep11 string // the variant
	)
	for _, std := range m.SupportedStandards {
		switch std {
		case manifest.NEP11StandardName:
			imp[pkgRPCClient+"nep11"] = true
			if standard.Complies(m, "NEP-11/divisible") {
				c.NEP11D, nep11 = true, "NEP-11/divisible"
			} else if standard.Complies(m, "NEP-11/non-divisible") {
				c.NEP11ND, nep11 = true, "NEP-11/non-divisible"
			}
		case manifest.NEP17StandardName:
			if standard.Complies(m, std) {
				imp[pkgRPCClient+"nep17"], c.NEP17 = true, true
			}
		case manifest.NEP22StandardName, manifest.NEP31StandardName:
			if standard.Complies(m, std) {
				imp[pkgRPCClient+strings.ToLower(typeName(std))] = true
				c.Writer = append(c.Writer, std)
			}
		case manifest.NEP24StandardName:
			if standard.Complies(m, std) {
				imp[pkgRPCClient+"nep24"], c.NEP24 = true, true
			}
		case manifest.NEP24Payable, manifest.NEP30StandardName:
			if standard.Complies(m, std) {
				drop = append(drop, std)
			}
		}
	}
	abi := &m.ABI
	if nep11 != "" {
		abi.Methods, _ = standard.Drop(abi.Methods, nil, nep11)
		_, abi.Events = standard.Drop(nil, abi.Events, "nep11-base")
	}
	if c.NEP17 {
		abi.Methods, abi.Events = standard.Drop(abi.Methods, abi.Events, manifest.NEP17StandardName)
	}
	if slices.Contains(c.Writer, manifest.NEP22StandardName) {
		abi.Methods, _ = standard.Drop(abi.Methods, nil, manifest.NEP22StandardName)
	}
	if c.NEP24 {
		abi.Methods, _ = standard.Drop(abi.Methods, nil, manifest.NEP24StandardName)
		dropRoyaltyType(cfg)
	}
	if slices.Contains(drop, manifest.NEP24Payable) {
		_, abi.Events = standard.Drop(nil, abi.Events, manifest.NEP24Payable)
	}
	if slices.Contains(drop, manifest.NEP30StandardName) {
		abi.Methods, _ = standard.Drop(abi.Methods, nil, manifest.NEP30StandardName)
	}
	if slices.Contains(c.Writer, manifest.NEP31StandardName) {
		abi.Methods, _ = standard.Drop(abi.Methods, nil, manifest.NEP31StandardName)
	}
	// Payment handlers are not called directly.
	for _, std := range []string{manifest.NEP26StandardName, manifest.NEP27StandardName} {
		if standard.Complies(m, std) {
			abi.Methods, _ = standard.Drop(abi.Methods, nil, std)
		}
	}
}

// dropRoyaltyType removes the structure royaltyInfo returns from the
// named types when nep24 has it (two fields, Hash160 and Integer) and no
// other configured type uses it.
func dropRoyaltyType(cfg *Config) {
	ri, ok := cfg.Types["royaltyInfo"]
	if !ok || ri.Value == nil {
		return
	}
	name := ri.Value.Name
	nt, ok := cfg.NamedTypes[name]
	if !ok || len(nt.Fields) != 2 || nt.Fields[0].Base != smartcontract.Hash160Type || nt.Fields[1].Base != smartcontract.IntegerType {
		return
	}
	uses := 0
	for _, t := range cfg.Types {
		if t.Value != nil && t.Value.Name == name {
			uses++
		}
	}
	if uses == 1 {
		named := maps.Clone(cfg.NamedTypes)
		delete(named, name)
		cfg.NamedTypes = named
	}
}

// describeRPC builds the RPC binding of cfg.
func describeRPC(cfg Config) (*rpcContract, error) {
	m := *cfg.Manifest
	m.ABI.Methods = slices.Clone(m.ABI.Methods)
	m.ABI.Events = slices.Clone(m.ABI.Events)
	cfg.Manifest = &m
	c := &rpcContract{Hash: cfg.Hash, Static: cfg.Hash != (hash.Uint160{}), standardsImports: map[string]bool{}}
	c.recogniseStandards(&m, &cfg)
	c.Contract = Describe(&cfg, RPCGoType)

	imports := c.standardsImports
	for _, p := range c.Imports {
		imports[p] = true
	}
	for _, meth := range c.Methods {
		if !meth.Safe {
			if meth.Result == "bool" {
				imports[pkgSC] = true
			}
			c.Writers = append(c.Writers, meth)
			continue
		}
		r := rpcReader{Method: meth}
		if et, ok := cfg.Types[meth.NameABI]; ok {
			r.Convert = &et
			if meth.ResultABI == smartcontract.ArrayType && et.Name != "" {
				r.ItemTo = strings.TrimPrefix(meth.Result, "*")
			}
		}
		c.Readers = append(c.Readers, r)
	}
	for _, et := range cfg.NamedTypes {
		addImports(et, imports)
	}
	if len(cfg.NamedTypes) > 0 {
		imports["errors"], imports[pkgSC] = true, true
	}
	for _, e := range m.ABI.Events {
		ev := rpcEvent{Name: pascal(e.Name) + "Event", NameABI: e.Name}
		for _, p := range e.Parameters {
			f := rpcField{Name: pascal(p.Name)}
			key := ev.Name + "." + f.Name
			var pkg string
			f.Type, pkg = RPCGoType(key, p.Type, &cfg)
			if pkg != "" {
				imports[pkg] = true
			}
			var ok bool
			if f.Ext, ok = cfg.Types[key]; !ok {
				f.Ext = ExtendedType{Base: p.Type}
				addImports(f.Ext, imports)
			}
			ev.Fields = append(ev.Fields, f)
		}
		c.Events = append(c.Events, ev)
	}
	if len(c.Events) > 0 {
		for _, p := range []string{pkgResult, pkgStackitem, "fmt", "errors"} {
			imports[p] = true
		}
	}
	for i := range c.Readers {
		r := &c.Readers[i]
		switch u, known := unwrappers[r.Result]; {
		case r.Result == "any" && r.ResultABI == smartcontract.InteropInterfaceType:
			imports[pkgUUID], imports[pkgStackitem], imports[pkgResult] = true, true, true
			r.Result, r.Unwrap, c.HasIterator = "uuid.UUID, result.Iterator", "SessionIterator", true
		case r.Result == "any":
			imports[pkgStackitem] = true
			r.Unwrap = "Item"
		case r.Result == "[]any":
			imports[pkgStackitem] = true
			r.Result, r.Unwrap = "[]stackitem.Item", "Array"
		case known:
			r.Unwrap = u
		default:
			if r.Convert != nil {
				addImports(*r.Convert, imports)
			}
			r.Unwrap = "Item"
		}
	}
	imports[pkgUtil] = true
	if len(c.Readers) > 0 {
		imports[pkgUnwrap] = true
		if !c.NEP17 && !c.NEP11D && !c.NEP11ND && !c.NEP24 {
			imports[pkgResult] = true
		}
	}
	if len(c.Writers) > 0 {
		imports[pkgTransaction] = true
	}
	c.HasWriter = len(c.Writers) > 0 || c.NEP17 || c.NEP11D || c.NEP11ND || len(c.Writer) > 0
	c.HasReader = len(c.Readers) > 0 || c.NEP17 || c.NEP11D || c.NEP11ND || c.NEP24
	c.Imports = slices.Sorted(maps.Keys(imports))

	c.Named = slices.SortedFunc(maps.Values(cfg.NamedTypes), func(a, b ExtendedType) int { return strings.Compare(a.Name, b.Name) })
	for _, t := range c.Named {
		if dup := firstDuplicate(len(t.Fields), func(i int) string { return upperFirst(t.Fields[i].Field) }); dup != "" {
			return nil, fmt.Errorf("named type `%s` has two fields with identical resulting binding name `%s`", t.Name, dup)
		}
	}
	for _, e := range c.Events {
		if dup := firstDuplicate(len(e.Fields), func(i int) string { return upperFirst(e.Fields[i].Name) }); dup != "" {
			return nil, fmt.Errorf("event `%s` has two fields with identical resulting binding name `%s`", e.Name, dup)
		}
	}
	return c, nil
}

// firstDuplicate is the first of n names that repeats an earlier one.
func firstDuplicate(n int, name func(int) string) string {
	seen := map[string]bool{}
	for i := range n {
		s := name(i)
		if seen[s] {
			return s
		}
		seen[s] = true
	}
	return ""
}

// GenerateRPC writes the RPC binding of cfg (`contract
// generate-rpcwrapper`): a ContractReader for safe methods over an
// Invoker, a Contract for the others over an Actor (each method as a
// sent, signed or unsigned transaction), structures of the named types
// and events with their stack item conversions, and event parsers of
// application logs. NEP-11, -17, -22, -24 and -31 contracts embed the
// rpcclient types of those standards instead of generating their
// methods. cfg.Overrides and cfg.CallFlags do not apply here; cfg.Types
// does.
func GenerateRPC(cfg Config, out io.Writer) error {
	if cfg.Manifest == nil {
		return errors.New("no manifest")
	}
	c, err := describeRPC(cfg)
	if err != nil {
		return err
	}
	var w rpcWriter
	w.header(c)
	w.declarations(c)
	w.constructors(c)
	for _, r := range c.Readers {
		w.reader(r)
	}
	for _, m := range c.Writers {
		w.writer(m)
	}
	for _, t := range c.Named {
		w.namedType(t)
	}
	for _, e := range c.Events {
		w.eventParser(e)
	}
	return gofmt(out, []byte(w.String()))
}
