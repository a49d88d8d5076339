package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"go.yaml.in/yaml/v3"
)

// formatKeys lists the YAML path of every setting of Config: struct fields
// recursively, with maps, lists and types that decode themselves (HashIndex,
// GenesisTransaction) as single keys.
func formatKeys() []string {
	var out []string
	unm := reflect.TypeFor[yaml.Unmarshaler]()
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(unm) {
			out = append(out, prefix)
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if strings.Contains(opts, "inline") {
				walk(prefix, f.Type)
				continue
			}
			if name == "" || name == "-" {
				continue
			}
			if prefix != "" {
				name = prefix + "." + name
			}
			walk(name, f.Type)
		}
	}
	walk("", reflect.TypeFor[Config]())
	return out
}

func settingFor(key string) (*Setting, bool) {
	for i := range Settings {
		s := &Settings[i]
		if key == s.Key || strings.HasPrefix(key, s.Key+".") {
			return s, true
		}
	}
	return nil, false
}

func inert(key string) bool {
	for _, p := range inertSections {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// TestSettingsCoverFormat: every key of the format is classified (honoured,
// refused, or inert inside a refused section) and the table names no key
// the format does not have.
func TestSettingsCoverFormat(t *testing.T) {
	keys := formatKeys()
	if len(keys) < 100 {
		t.Fatalf("only %d keys found", len(keys))
	}
	for _, k := range keys {
		if _, ok := settingFor(k); !ok && !inert(k) {
			t.Errorf("%s: not in Settings", k)
		}
	}
	for _, s := range Settings {
		if !slices.Contains(keys, s.Key) {
			t.Errorf("Settings: %s is not a key of the format", s.Key)
		}
		if (s.Use == "") == (s.Refused == nil) {
			t.Errorf("%s: exactly one of Use and Refused must be set", s.Key)
		}
	}
}

// TestSettingsHonoured: the reader each honoured setting names exists and
// its non-test code mentions the setting's Go name.
func TestSettingsHonoured(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	for _, s := range Settings {
		if s.Refused != nil {
			continue
		}
		field := s.Field
		if field == "" {
			field = s.Key[strings.LastIndex(s.Key, ".")+1:]
		}
		found := false
		err := filepath.WalkDir(filepath.Join(root, s.Use), func(path string, d os.DirEntry, err error) error {
			if err != nil || found || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err == nil && strings.Contains(string(b), "."+field) {
				found = true
			}
			return err
		})
		if err != nil {
			t.Errorf("%s: %v", s.Key, err)
		} else if !found {
			t.Errorf("%s: %s does not read .%s", s.Key, s.Use, field)
		}
		n++
	}
	t.Logf("%d honoured settings, %d refused", n, len(Settings)-n)
}

// yamlKeys lists the key paths of a YAML document (mapping keys joined
// with dots; sequences are values).
func yamlKeys(t *testing.T, data []byte) []string {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(prefix string, n *yaml.Node)
	walk = func(prefix string, n *yaml.Node) {
		if n.Kind == yaml.DocumentNode {
			walk(prefix, n.Content[0])
			return
		}
		if n.Kind != yaml.MappingNode {
			out = append(out, prefix)
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if prefix != "" {
				k = prefix + "." + k
			}
			walk(k, n.Content[i+1])
		}
	}
	walk("", &doc)
	return out
}

// TestNeoGoSampleSettings loads each of neo-go's sample configurations and
// checks every key in it: it is honoured (listed with its reader, see
// TestSettingsHonoured), or refused by CheckSupported with an error naming
// it when the file turns it on, or inert in a section the file leaves off.
// With the refused settings turned off the file is accepted.
func TestNeoGoSampleSettings(t *testing.T) {
	entries, err := os.ReadDir("testdata/neo-go")
	if err != nil {
		t.Fatal(err)
	}
	files, honoured, refused := 0, 0, 0
	for _, e := range entries {
		path := filepath.Join("testdata/neo-go", e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadBytes(path, data)
		if err != nil {
			t.Fatal(err)
		}
		files++
		checkErr := cfg.CheckSupported()
		for _, k := range yamlKeys(t, data) {
			s, ok := settingFor(k)
			switch {
			case ok && s.Refused == nil:
				honoured++
			case ok && s.Refused.Set(&cfg):
				refused++
				if !errors.Is(checkErr, ErrUnsupported) || !strings.Contains(checkErr.Error(), s.Key+": ") ||
					!strings.Contains(checkErr.Error(), s.Refused.Hint) {
					t.Errorf("%s: %s is on but CheckSupported says %v", path, k, checkErr)
				}
			case ok:
				honoured++ // a refused setting left at its default: nothing to do
			case inert(k):
				section := k[:strings.Index(k[len("ApplicationConfiguration."):], ".")+len("ApplicationConfiguration.")]
				if en, _ := settingFor(section + ".Enabled"); en == nil || en.Refused == nil {
					t.Errorf("%s: %s: inert key with a wrong guard", path, k)
				}
			default:
				t.Errorf("%s: %s is not classified", path, k)
			}
		}
		off := cfg
		off.ApplicationConfiguration.NeoFSBlockFetcher.Enabled = false
		off.ApplicationConfiguration.NeoFSStateFetcher.Enabled = false
		if err := off.CheckSupported(); err != nil {
			t.Errorf("%s: with the refused settings off: %v", path, err)
		}
	}
	if files < 12 || refused == 0 {
		t.Fatalf("%d files, %d refused keys", files, refused)
	}
	t.Logf("%d files: %d honoured keys, %d refused", files, honoured, refused)
}

// TestCheckSupportedRefuses: each refused setting, turned on alone in the
// default private network, fails CheckSupported with an error that names
// it and says what to do instead.
func TestCheckSupportedRefuses(t *testing.T) {
	on := map[string]func(*Config){
		"ProtocolConfiguration.NeoFSStateSyncExtensions": func(c *Config) { c.ProtocolConfiguration.NeoFSStateSyncExtensions = true },
		"ApplicationConfiguration.Oracle.NeoFS.Nodes": func(c *Config) {
			c.ApplicationConfiguration.Oracle.NeoFS.Nodes = []string{"st1.storage.fs.neo.org:8080"}
		},
		"ApplicationConfiguration.NeoFSBlockFetcher.Enabled": func(c *Config) { c.ApplicationConfiguration.NeoFSBlockFetcher.Enabled = true },
		"ApplicationConfiguration.NeoFSStateFetcher.Enabled": func(c *Config) { c.ApplicationConfiguration.NeoFSStateFetcher.Enabled = true },
	}
	base, err := LoadNetwork(DefaultNetwork)
	if err != nil {
		t.Fatal(err)
	}
	if err := base.CheckSupported(); err != nil {
		t.Fatal(err)
	}
	for _, s := range Settings {
		if s.Refused == nil {
			continue
		}
		set, ok := on[s.Key]
		if !ok {
			t.Errorf("%s: no case", s.Key)
			continue
		}
		c := base
		set(&c)
		err := c.CheckSupported()
		var fe *FieldError
		if !errors.Is(err, ErrUnsupported) || !errors.As(err, &fe) || fe.Field != s.Key ||
			!strings.Contains(err.Error(), "set it to false") && !strings.Contains(err.Error(), "remove") {
			t.Errorf("%s: %v", s.Key, err)
		}
		t.Log(err)
	}
}

// TestTrustedHeaderSupported: a light node's TrustedHeader with state
// exchange loads and is not refused (pkg/core honours it).
func TestTrustedHeaderSupported(t *testing.T) {
	c, err := LoadNetwork(DefaultNetwork)
	if err != nil {
		t.Fatal(err)
	}
	c.ProtocolConfiguration.P2PStateExchangeExtensions = true
	c.ApplicationConfiguration.RemoveUntraceableBlocks = true
	c.ApplicationConfiguration.TrustedHeader = HashIndex{Index: 3_000_000, Hash: hash.Uint256{1}}
	if err := c.CheckSupported(); err != nil {
		t.Fatal(err)
	}
	bc, err := NewBlockchainConfig(c.ProtocolConfiguration, c.ApplicationConfiguration)
	if err != nil {
		t.Fatal(err)
	}
	if bc.TrustedHeader != c.ApplicationConfiguration.TrustedHeader {
		t.Fatalf("TrustedHeader %+v", bc.TrustedHeader)
	}
}
