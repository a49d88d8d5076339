package compiler

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	bind "github.com/n3node/n3node/pkg/smartcontract/binding"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"go.yaml.in/yaml/v3"
)

// Event is an event declared in the contract configuration. Ext holds
// the structured types parameters declare (`extendedtype`, nil where
// none), for the bindings.
type Event struct {
	Name       string
	Parameters []manifest.Parameter
	Ext        []*bind.ExtendedType
}

// Config is the contract configuration file (contract.yml) neo-go's
// `contract compile -c` reads.
type Config struct {
	Name               string
	SourceURL          string
	SafeMethods        []string
	SupportedStandards []string
	Events             []Event
	Permissions        []manifest.Permission
	Overloads          map[string]string
	// NamedTypes are structures the configuration declares for the
	// bindings (`namedtypes`).
	NamedTypes map[string]bind.ExtendedType
}

type yamlParam struct {
	Name string             `yaml:"name"`
	Type string             `yaml:"type"`
	Ext  *bind.ExtendedType `yaml:"extendedtype"`
}

type yamlConfig struct {
	Name               string            `yaml:"name"`
	SourceURL          string            `yaml:"sourceurl"`
	SafeMethods        []string          `yaml:"safemethods"`
	SupportedStandards []string          `yaml:"supportedstandards"`
	Overloads          map[string]string `yaml:"overloads"`
	Events             []struct {
		Name       string      `yaml:"name"`
		Parameters []yamlParam `yaml:"parameters"`
	} `yaml:"events"`
	Permissions []map[string]any             `yaml:"permissions"`
	NamedTypes  map[string]bind.ExtendedType `yaml:"namedtypes"`
}

// ParseConfig parses a contract configuration file's content.
func ParseConfig(data []byte) (*Config, error) {
	var y yamlConfig
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, fmt.Errorf("bad config: %w", err)
	}
	c := &Config{Name: y.Name, SourceURL: y.SourceURL, SafeMethods: y.SafeMethods,
		SupportedStandards: y.SupportedStandards, Overloads: y.Overloads, NamedTypes: y.NamedTypes}
	for _, e := range y.Events {
		ev := Event{Name: e.Name, Parameters: []manifest.Parameter{}}
		for _, p := range e.Parameters {
			t, err := smartcontract.ParseParamType(p.Type)
			if err != nil {
				return nil, fmt.Errorf("bad config: event %s: %w", e.Name, err)
			}
			ev.Parameters = append(ev.Parameters, manifest.Parameter{Name: p.Name, Type: t})
			ev.Ext = append(ev.Ext, p.Ext)
		}
		c.Events = append(c.Events, ev)
	}
	for _, m := range y.Permissions {
		p, err := parsePermission(m)
		if err != nil {
			return nil, fmt.Errorf("bad config: %w", err)
		}
		c.Permissions = append(c.Permissions, p)
	}
	return c, nil
}

// parsePermission reads {hash|group: X, methods: '*' | [names]}.
func parsePermission(m map[string]any) (manifest.Permission, error) {
	var p manifest.Permission
	h, hasHash := m["hash"]
	gr, hasGroup := m["group"]
	switch {
	case hasHash && hasGroup:
		return p, errors.New("permission must have either 'hash' or 'group' field")
	case hasHash:
		s, ok := h.(string)
		if !ok {
			return p, errors.New("invalid 'hash' type")
		}
		u, err := hash.Uint160DecodeStringLE(s)
		if err != nil {
			return p, err
		}
		p.Contract = manifest.PermissionDesc{Type: manifest.PermissionHash, Hash: u}
	case hasGroup:
		s, ok := gr.(string)
		if !ok {
			return p, errors.New("invalid 'hash' type")
		}
		pub, err := keys.NewPublicKeyFromString(s)
		if err != nil {
			return p, err
		}
		p.Contract = manifest.PermissionDesc{Type: manifest.PermissionGroup, Group: pub}
	default:
		p.Contract = manifest.PermissionDesc{Type: manifest.PermissionWildcard}
	}
	methods, ok := m["methods"]
	if !ok {
		return p, errors.New("'methods' field is missing from permission")
	}
	switch v := methods.(type) {
	case string:
		if v == "*" {
			return p, nil
		}
	case []any:
		names := make([]string, len(v))
		for i := range v {
			if names[i], ok = v[i].(string); !ok {
				return p, errors.New("invalid permission method name")
			}
		}
		p.Methods.Value = names
		return p, nil
	}
	return p, errors.New("'methods' field is invalid")
}
