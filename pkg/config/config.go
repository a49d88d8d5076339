package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is a whole configuration file: the protocol and the application
// sections.
type Config struct {
	ProtocolConfiguration    ProtocolConfiguration    `yaml:"ProtocolConfiguration"`
	ApplicationConfiguration ApplicationConfiguration `yaml:"ApplicationConfiguration"`
}

// Sentinel errors; Load's errors wrap one of them where it applies.
var (
	// ErrInvalid marks a configuration that parses but breaks a rule.
	ErrInvalid = errors.New("invalid configuration")
	// ErrUnknownField marks a key that no setting has.
	ErrUnknownField = errors.New("unknown field")
	// ErrUnknownNetwork marks a network name with no embedded config.
	ErrUnknownNetwork = errors.New("unknown network")
)

// Error locates a problem in a configuration file. Line is 1-based (0 when
// unknown); Field is the YAML path, e.g. "ProtocolConfiguration.Hardforks"
// ("" when unknown).
type Error struct {
	Source string
	Line   int
	Field  string
	Err    error
}

// Error formats "source:line: field: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Source)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// FieldError is a validation error tied to a setting (a YAML path).
type FieldError struct {
	Field string
	Err   error
}

// Error formats "field: message".
func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *FieldError) Unwrap() error { return e.Err }

// invalidError is a rule violation; it matches ErrInvalid without
// repeating its text.
type invalidError struct{ msg string }

func (e *invalidError) Error() string        { return e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Err: &invalidError{fmt.Sprintf(format, args...)}}
}

// Defaults that neo-go sets before decoding, so they apply only when the
// keys are absent.
const (
	defaultPingInterval = 30 * time.Second
	defaultPingTimeout  = 90 * time.Second
)

// Load reads, decodes and validates the configuration file at path. Errors
// are *Error values naming the file, line and field.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return LoadBytes(path, data)
}

// LoadBytes decodes and validates a configuration; source names it in
// errors. Decoding is strict: unknown keys are errors, as in neo-go
// (KnownFields). Only the first YAML document is read.
func LoadBytes(source string, data []byte) (Config, error) {
	cfg := Config{
		ApplicationConfiguration: ApplicationConfiguration{
			P2P: P2P{PingInterval: defaultPingInterval, PingTimeout: defaultPingTimeout},
		},
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, yamlError(source, nil, err)
	}
	idx := indexNode(&doc)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		if errors.Is(err, io.EOF) {
			return Config{}, &Error{Source: source, Err: fmt.Errorf("%w: empty configuration", ErrInvalid)}
		}
		return Config{}, yamlError(source, idx, err)
	}
	if err := cfg.ProtocolConfiguration.Validate(); err != nil {
		return Config{}, locate(source, idx, err)
	}
	if err := cfg.ApplicationConfiguration.Validate(); err != nil {
		return Config{}, locate(source, idx, err)
	}
	return cfg, nil
}

// nodeIndex maps YAML paths to lines and lines to the first path on them.
type nodeIndex struct {
	lineOf  map[string]int
	fieldAt map[int]string
}

func indexNode(doc *yaml.Node) *nodeIndex {
	idx := &nodeIndex{lineOf: map[string]int{}, fieldAt: map[int]string{}}
	var walk func(n *yaml.Node, path string)
	add := func(path string, line int) {
		if _, ok := idx.lineOf[path]; !ok {
			idx.lineOf[path] = line
		}
		if _, ok := idx.fieldAt[line]; !ok {
			idx.fieldAt[line] = path
		}
	}
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				add(p, k.Line)
				walk(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := path + "[" + strconv.Itoa(i) + "]"
				add(p, c.Line)
				walk(c, p)
			}
		}
	}
	walk(doc, "")
	return idx
}

var (
	lineRe     = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	notFoundRe = regexp.MustCompile(`^field (\S+) not found in type \S+$`)
)

// yamlError turns a decoder error into *Error values (one per problem).
func yamlError(source string, idx *nodeIndex, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		errs := make([]error, 0, len(te.Errors))
		for _, msg := range te.Errors {
			errs = append(errs, lineMessage(source, idx, msg, nil))
		}
		return errors.Join(errs...)
	}
	return lineMessage(source, idx, err.Error(), err)
}

// lineMessage builds an *Error from a "line N: text" message; orig, if
// not nil, is kept as the wrapped error.
func lineMessage(source string, idx *nodeIndex, msg string, orig error) *Error {
	e := &Error{Source: source, Err: orig}
	if m := lineRe.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if idx != nil {
			e.Field = idx.fieldAt[e.Line]
		}
		if orig != nil {
			e.Err = &wrapped{msg: msg, err: orig}
		}
	}
	if m := notFoundRe.FindStringSubmatch(msg); m != nil {
		e.Err = fmt.Errorf("%w %q", ErrUnknownField, m[1])
	}
	if e.Err == nil {
		e.Err = errors.New(msg)
	}
	return e
}

// wrapped shows msg but unwraps to err (so sentinels survive the line
// prefix being cut off).
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// locate turns a validation error into an *Error with the line of its
// field (or of the nearest enclosing key present in the file).
func locate(source string, idx *nodeIndex, err error) error {
	e := &Error{Source: source, Err: err}
	var fe *FieldError
	if errors.As(err, &fe) {
		e.Field, e.Err = fe.Field, fe.Err
		for p := fe.Field; p != ""; {
			if l, ok := idx.lineOf[p]; ok {
				e.Line = l
				break
			}
			i := strings.LastIndexAny(p, ".[")
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	return e
}

// ResolveRelativePaths makes the relative file paths in the configuration
// (log file, database, wallets) relative to base, as neo-go's
// --relative-path does. Embedded wallet names are left alone.
func (c *Config) ResolveRelativePaths(base string) {
	upd := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) && !strings.HasPrefix(*p, EmbeddedWalletPrefix) {
			*p = filepath.Join(base, *p)
		}
	}
	a := &c.ApplicationConfiguration
	upd(&a.LogPath)
	upd(&a.DBConfiguration.BoltDBOptions.FilePath)
	upd(&a.DBConfiguration.LevelDBOptions.DataDirectoryPath)
	upd(&a.DBConfiguration.PebbleDBOptions.DataDirectoryPath)
	upd(&a.Consensus.UnlockWallet.Path)
	upd(&a.P2PNotary.UnlockWallet.Path)
	upd(&a.Oracle.UnlockWallet.Path)
	upd(&a.StateRoot.UnlockWallet.Path)
}
