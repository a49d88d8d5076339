package compiler

import (
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/manifest/standard"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
)

// DefaultCompilerName is written into the NEF header. It is the string
// neo-go 0.120.0 writes, so that NEF files (and their checksums) are
// byte-identical to the reference compiler's.
const DefaultCompilerName = "neo-go-0.120.0"

// Options are the inputs of Compile besides the source.
type Options struct {
	Config
	// Name is the contract's name in the manifest; it overrides
	// Config.Name when set (neo-go's Options.Name, so a literal can name it).
	Name string
	// CompilerName overrides DefaultCompilerName.
	CompilerName string
	// NoEventsCheck skips checking runtime.Notify calls against the
	// configured events (and the argument conversions they imply).
	NoEventsCheck bool
	// NoPermissionsCheck skips checking contract calls against the
	// configured permissions.
	NoPermissionsCheck bool
	// NoStandardCheck skips checking the ABI against the claimed NEP
	// standards (and NEP-26/27 for contracts with payment callbacks).
	NoStandardCheck bool
	// NoManifest skips building the manifest and so its checks (Compile
	// returns a nil manifest): neo-go builds and checks it only when a
	// manifest file is asked for.
	NoManifest bool
}

// ErrInternal wraps a failure of the compiler itself (a construct it did
// not expect reached a pass): a bug to report, not a problem of the
// contract.
var ErrInternal = errors.New("internal compiler error")

// Compile compiles the contract in path (a package directory or a single
// .go file) and returns its NEF, manifest and debug information.
func Compile(path string, o Options) (f *nef.File, m *manifest.Manifest, di *DebugInfo, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, m, di, err = nil, nil, nil, fmt.Errorf("%w: %v", ErrInternal, r)
		}
	}()
	return compile(path, o)
}

func compile(path string, o Options) (*nef.File, *manifest.Manifest, *DebugInfo, error) {
	if o.Name == "" {
		o.Name = o.Config.Name
	}
	o.Config.Name = o.Name
	prog, err := load(path)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := checkSubset(prog); err != nil {
		return nil, nil, nil, err
	}
	g := newGen(prog, &o)
	if err := g.generate(); err != nil {
		return nil, nil, nil, err
	}
	script, lay, err := g.a.link()
	if err != nil {
		return nil, nil, nil, err
	}
	di := g.debugInfo(script, lay)
	for _, e := range o.Events {
		params := make([]debugParam, len(e.Parameters))
		for i, p := range e.Parameters {
			params[i] = debugParam{Name: p.Name, Type: p.Type.String(), SC: p.Type}
		}
		di.Events = append(di.Events, EventDebugInfo{ID: e.Name, Name: "," + e.Name, Parameters: params})
	}
	name := o.CompilerName
	if name == "" {
		name = DefaultCompilerName
	}
	if len(o.SourceURL) > nef.MaxSourceURLLength {
		return nil, nil, nil, errors.New("too long source URL")
	}
	f, err := nef.NewFile(name, o.SourceURL, g.tokens, script)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("error while trying to create .nef file: %w", err)
	}
	if o.NoManifest {
		return f, nil, di, nil
	}
	m, err := buildManifest(di, &o)
	if err != nil {
		return nil, nil, nil, err
	}
	return f, m, di, nil
}

// buildManifest derives the manifest from the debug information: the
// exported functions of the contract package (renamed by overloads,
// marked safe as configured), the configured events, standards and
// permissions; then checks it.
func buildManifest(di *DebugInfo, o *Options) (*manifest.Manifest, error) {
	m := manifest.NewManifest(o.Name)
	for _, dm := range di.Methods {
		if !dm.IsExported || !dm.IsFunction || dm.Name.Namespace != di.MainPkg {
			continue
		}
		params := make([]manifest.Parameter, len(dm.Parameters))
		for i, p := range dm.Parameters {
			params[i] = manifest.Parameter{Name: p.Name, Type: p.SC}
		}
		m.ABI.Methods = append(m.ABI.Methods, manifest.Method{
			Name: dm.Name.Name, Offset: int(dm.Range.Start), Parameters: params,
			ReturnType: dm.ReturnSC, Safe: slices.Contains(o.SafeMethods, dm.Name.Name),
		})
	}
	if len(m.ABI.Methods) == 0 {
		return nil, errors.New("manifest is invalid: ABI: no methods")
	}
	if o.SupportedStandards != nil {
		m.SupportedStandards = o.SupportedStandards
	}
	for _, e := range o.Events {
		m.ABI.Events = append(m.ABI.Events, manifest.Event{Name: e.Name, Parameters: slices.Clone(e.Parameters)})
	}
	m.Permissions = o.Permissions
	if m.Permissions == nil {
		m.Permissions = []manifest.Permission{}
	}
	for from, to := range o.Overloads {
		mm := m.ABI.GetMethod(from, -1)
		if mm == nil {
			return nil, fmt.Errorf("overload for method %s was provided but it wasn't found", from)
		}
		if m.ABI.GetMethod(to, -1) == nil {
			return nil, fmt.Errorf("overload with target method %s was provided but it wasn't found", to)
		}
		if m.ABI.GetMethod(to, len(mm.Parameters)) != nil {
			return nil, fmt.Errorf("conflict overload for %s: multiple methods with the same number of parameters", from)
		}
		mm.Name = to
		mm.Safe = slices.Contains(o.SafeMethods, to)
	}
	for _, name := range o.SafeMethods {
		if m.ABI.GetMethod(name, -1) == nil {
			return nil, fmt.Errorf("method %s is marked as safe but missing from manifest", name)
		}
	}
	if err := m.IsValid(hash.Uint160{}, true); err != nil {
		return nil, fmt.Errorf("manifest is invalid: %w", err)
	}
	if !o.NoStandardCheck {
		if err := standard.Check(m, o.SupportedStandards...); err != nil {
			return nil, err
		}
		if m.ABI.GetMethod(manifest.MethodOnNEP11Payment, -1) != nil {
			if err := standard.Check(m, manifest.NEP26StandardName); err != nil {
				return nil, err
			}
		}
		if m.ABI.GetMethod(manifest.MethodOnNEP17Payment, -1) != nil {
			if err := standard.Check(m, manifest.NEP27StandardName); err != nil {
				return nil, err
			}
		}
	}
	if !o.NoEventsCheck {
		if err := checkEvents(di, m); err != nil {
			return nil, err
		}
	}
	if !o.NoPermissionsCheck {
		if err := checkPermissions(di, o.Permissions); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func checkEvents(di *DebugInfo, m *manifest.Manifest) error {
	names := make([]string, 0, len(di.EmittedEvents))
	for name := range di.EmittedEvents {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		want := m.ABI.GetEvent(name)
		if want == nil {
			return fmt.Errorf("event '%s' is emitted but not specified in manifest", name)
		}
		for _, got := range di.EmittedEvents[name] {
			if len(got.Params) != len(want.Parameters) {
				return fmt.Errorf("event '%s' should have %d parameters but has %d",
					name, len(want.Parameters), len(got.Params))
			}
			for j, p := range want.Parameters {
				if p.Type != smartcontract.AnyType && got.Params[j].SC != p.Type {
					return fmt.Errorf("event '%s' should have '%s' as type of %d parameter, got: %s",
						name, p.Type, j+1, got.Params[j].SC)
				}
			}
		}
	}
	return nil
}

func checkPermissions(di *DebugInfo, perms []manifest.Permission) error {
	for h, methods := range di.InvokedContracts {
		known := h != (hash.Uint160{})
	next:
		for _, method := range methods {
			for _, p := range perms {
				if known && p.Contract.Type == manifest.PermissionHash && p.Contract.Hash != h {
					continue
				}
				if p.Methods.Contains(method) {
					continue next
				}
			}
			if known {
				return fmt.Errorf("method '%s' of contract %s is invoked but corresponding permission is missing", method, h.StringLE())
			}
			return fmt.Errorf("method '%s' is invoked but corresponding permission is missing", method)
		}
	}
	return nil
}
