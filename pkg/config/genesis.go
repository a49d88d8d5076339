package config

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"
)

// Genesis holds settings used when the genesis block is made and the native
// contracts are initialized.
type Genesis struct {
	// MaxTraceableBlocks initializes the Policy contract's value from
	// HFEchidna on; 0 means ProtocolConfiguration.MaxTraceableBlocks.
	MaxTraceableBlocks uint32 `yaml:"MaxTraceableBlocks"`
	// MaxValidUntilBlockIncrement initializes the Policy contract's value
	// from HFEchidna on; 0 means the protocol-level value.
	MaxValidUntilBlockIncrement uint32 `yaml:"MaxValidUntilBlockIncrement"`
	// Roles are designated by RoleManagement at initialization (a neo-go
	// extension; public networks leave it empty).
	Roles map[NodeRole][]PublicKey `yaml:"Roles"`
	// TimePerBlock initializes the Policy contract's MillisecondsPerBlock
	// from HFEchidna on; 0 means ProtocolConfiguration.TimePerBlock.
	TimePerBlock time.Duration `yaml:"TimePerBlock"`
	// Transaction is a script put into the genesis block (a neo-go
	// extension; public networks leave it nil).
	Transaction *GenesisTransaction `yaml:"Transaction"`
}

// GenesisTransaction is a script run in the genesis block, paid with
// SystemFee from the standby validators' multisig account.
type GenesisTransaction struct {
	Script    []byte
	SystemFee int64
}

// UnmarshalYAML reads Script (base64) and SystemFee, rejecting other keys.
func (t *GenesisTransaction) UnmarshalYAML(node *yaml.Node) error {
	if err := checkKeys(node, "Script", "SystemFee"); err != nil {
		return err
	}
	var aux struct {
		Script    string `yaml:"Script"`
		SystemFee int64  `yaml:"SystemFee"`
	}
	if err := node.Decode(&aux); err != nil {
		return err
	}
	script, err := base64.StdEncoding.DecodeString(aux.Script)
	if err != nil {
		return fmt.Errorf("line %d: failed to decode script of genesis transaction: %w", node.Line, err)
	}
	*t = GenesisTransaction{Script: script, SystemFee: aux.SystemFee}
	return nil
}

// MarshalYAML writes the form UnmarshalYAML reads.
func (t GenesisTransaction) MarshalYAML() (any, error) {
	return map[string]any{
		"Script":    base64.StdEncoding.EncodeToString(t.Script),
		"SystemFee": t.SystemFee,
	}, nil
}

// checkKeys fails if the mapping node has a key not in known, so that
// custom unmarshalers stay as strict as the top-level decoder.
func checkKeys(node *yaml.Node, known ...string) error {
	if node.Kind != yaml.MappingNode {
		return nil // node.Decode reports the type error
	}
	for i := 0; i < len(node.Content); i += 2 {
		k := node.Content[i]
		ok := false
		for _, name := range known {
			if k.Value == name {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("line %d: %w %q", k.Line, ErrUnknownField, k.Value)
		}
	}
	return nil
}

// NodeRole is a RoleManagement role (C# Role). Values are the protocol's.
type NodeRole byte

// The roles.
const (
	RoleStateValidator NodeRole = 4
	RoleOracle         NodeRole = 8
	RoleNeoFSAlphabet  NodeRole = 16
	RoleP2PNotary      NodeRole = 32
)

var roleNames = [...]struct {
	r    NodeRole
	name string
}{
	{RoleStateValidator, "StateValidator"},
	{RoleOracle, "Oracle"},
	{RoleNeoFSAlphabet, "NeoFSAlphabet"},
	{RoleP2PNotary, "P2PNotary"},
}

// String returns the role's name.
func (r NodeRole) String() string {
	for _, n := range roleNames {
		if n.r == r {
			return n.name
		}
	}
	return "Role(" + strconv.Itoa(int(r)) + ")"
}

// ParseNodeRole returns the role with the given name.
func ParseNodeRole(s string) (NodeRole, bool) {
	for _, n := range roleNames {
		if n.name == s {
			return n.r, true
		}
	}
	return 0, false
}

// UnmarshalYAML implements yaml.Unmarshaler (roles are written by name).
func (r *NodeRole) UnmarshalYAML(node *yaml.Node) error {
	v, ok := ParseNodeRole(node.Value)
	if node.Kind != yaml.ScalarNode || !ok {
		return fmt.Errorf("line %d: unknown node role: %s", node.Line, node.Value)
	}
	*r = v
	return nil
}

// MarshalYAML implements yaml.Marshaler.
func (r NodeRole) MarshalYAML() (any, error) { return r.String(), nil }
