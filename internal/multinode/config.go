package multinode

import (
	"bytes"
	"fmt"
	"strconv"
	"text/template"
	"time"

	"github.com/n3node/n3node/pkg/config"
)

// Kind is a node implementation.
type Kind string

// The implementations a network can mix.
const (
	N3Node Kind = "n3node"
	NeoGo  Kind = "neo-go"
)

// Validators is the number of standby validators of the network: the
// 4-node private network of neo-go (config/protocol.privnet.docker.*.yml),
// whose wallets are embedded in pkg/config (wallet1..wallet4.json).
const Validators = 4

// StandbyCommittee lists the public keys of wallet1..wallet4.json, in
// wallet order (validator i of a NodeSpec holds key i-1).
var StandbyCommittee = [Validators]string{
	"02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2",
	"02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e",
	"03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699",
	"02a7bc55fe8684e0119768d104ba30795bdcc86619e864add26156723ed185cd62",
}

// walletPasswords are the passwords of wallet1..wallet4.json.
var walletPasswords = [Validators]string{"one", "two", "three", "four"}

// Magic is the network magic of neo-go's private networks.
const Magic = 56753

// AllHardforks lists every hardfork both implementations know, in order.
var AllHardforks = []string{"Aspidochelone", "Basilisk", "Cockatrice", "Domovoi", "Echidna", "Faun", "Gorgon"}

// Protocol holds the settings every node of a network shares. Zero fields
// take the defaults of DefaultProtocol.
type Protocol struct {
	TimePerBlock            time.Duration
	MaxTimePerBlock         time.Duration // 0: none (a block every TimePerBlock even when idle)
	MemPoolSize             int
	MaxTransactionsPerBlock int   // 0: the implementations' default (512)
	MaxBlockSize            int   // 0: default (262144)
	MaxBlockSystemFee       int64 // 0: default (150000000000)
	MaxTraceableBlocks      int
	// Hardforks enabled at height 0; nil means AllHardforks.
	Hardforks []string
	// MinPeers of every node; -1 means 0 and 0 means the default
	// min(2, nodes-1).
	MinPeers          int
	ProtoTickInterval time.Duration
	PingInterval      time.Duration
	PingTimeout       time.Duration
	// StateRootInHeader turns on neo-go's header format with the previous
	// state root.
	StateRootInHeader bool
	// StateSyncInterval, when not 0, turns on P2PStateExchangeExtensions
	// with this interval (light nodes then state-sync).
	StateSyncInterval int
}

// DefaultProtocol: 1-second blocks, no idle limit, neo-go's privnet
// limits, every hardfork from genesis.
var DefaultProtocol = Protocol{
	TimePerBlock:       time.Second,
	MemPoolSize:        50000,
	MaxTraceableBlocks: 200000,
	ProtoTickInterval:  time.Second,
	PingInterval:       10 * time.Second,
	PingTimeout:        30 * time.Second,
}

func (p Protocol) withDefaults(nodes int) Protocol {
	d := DefaultProtocol
	if p.TimePerBlock == 0 {
		p.TimePerBlock = d.TimePerBlock
	}
	if p.MemPoolSize == 0 {
		p.MemPoolSize = d.MemPoolSize
	}
	if p.MaxTraceableBlocks == 0 {
		p.MaxTraceableBlocks = d.MaxTraceableBlocks
	}
	if p.Hardforks == nil {
		p.Hardforks = AllHardforks
	}
	switch {
	case p.MinPeers < 0:
		p.MinPeers = 0
	case p.MinPeers == 0:
		p.MinPeers = min(2, nodes-1)
	}
	if p.ProtoTickInterval == 0 {
		p.ProtoTickInterval = d.ProtoTickInterval
	}
	if p.PingInterval == 0 {
		p.PingInterval = d.PingInterval
	}
	if p.PingTimeout == 0 {
		p.PingTimeout = d.PingTimeout
	}
	return p
}

// NodeSpec describes one node of a network.
type NodeSpec struct {
	Kind Kind
	// Validator is 1..Validators for a consensus node holding
	// wallet<Validator>.json, 0 for a node without consensus.
	Validator int
	// DB is the database engine (default: pebble for n3node, leveldb for
	// neo-go).
	DB string
	// LogLevel is the node's log level (default info).
	LogLevel string
	// PprofPort, if not 0, enables the node's pprof HTTP server on
	// 127.0.0.1 at this port.
	PprofPort int
	// Light sets RemoveUntraceableBlocks (a node that state-syncs when
	// the network has StateSyncInterval).
	Light bool
	// TrustedHeader, if its Index is not 0, is the light node's
	// ApplicationConfiguration.TrustedHeader (see Node.Reconfigure).
	TrustedHeader config.HashIndex
}

// Name is the node's name in logs and directory names: "n3node-v1",
// "neo-go-rpc", ...
func (s NodeSpec) name(i int) string {
	if s.Validator > 0 {
		return fmt.Sprintf("%s-v%d", s.Kind, s.Validator)
	}
	return fmt.Sprintf("%s-%d", s.Kind, i)
}

// nodeConfig is what the template needs of one node.
type nodeConfig struct {
	P        Protocol
	Seeds    []string
	Kind     Kind
	DBType   string
	DataPath string
	P2P      string
	RPC      string
	Wallet   string // "" without consensus
	Password string
	LogLevel string
	Pprof    string // "" without pprof
	Light    bool
	// TrustedHeader is "INDEX: HASH" ("" for none).
	TrustedHeader string
}

// configTemplate is a neo-go 0.120.0 configuration that n3node's
// pkg/config (strict: unknown keys are errors) reads as well.
var configTemplate = template.Must(template.New("protocol.yml").Funcs(template.FuncMap{
	"dur": formatDuration,
}).Parse(`# Generated by internal/multinode for a {{.Kind}} node.
ProtocolConfiguration:
  Magic: 56753
  MaxTraceableBlocks: {{.P.MaxTraceableBlocks}}
  TimePerBlock: {{dur .P.TimePerBlock}}
{{- if .P.MaxTimePerBlock}}
  MaxTimePerBlock: {{dur .P.MaxTimePerBlock}}
{{- end}}
  Genesis:
    TimePerBlock: {{dur .P.TimePerBlock}}
  MemPoolSize: {{.P.MemPoolSize}}
{{- if .P.MaxTransactionsPerBlock}}
  MaxTransactionsPerBlock: {{.P.MaxTransactionsPerBlock}}
{{- end}}
{{- if .P.MaxBlockSize}}
  MaxBlockSize: {{.P.MaxBlockSize}}
{{- end}}
{{- if .P.MaxBlockSystemFee}}
  MaxBlockSystemFee: {{.P.MaxBlockSystemFee}}
{{- end}}
  StandbyCommittee:
    - 02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2
    - 02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e
    - 03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699
    - 02a7bc55fe8684e0119768d104ba30795bdcc86619e864add26156723ed185cd62
  ValidatorsCount: 4
  SeedList:
{{- range .Seeds}}
    - "{{.}}"
{{- end}}
  VerifyTransactions: true
  P2PSigExtensions: false
{{- if .P.StateRootInHeader}}
  StateRootInHeader: true
{{- end}}
{{- if .P.StateSyncInterval}}
  P2PStateExchangeExtensions: true
  StateSyncInterval: {{.P.StateSyncInterval}}
{{- end}}
  Hardforks:
{{- range .P.Hardforks}}
    {{.}}: 0
{{- end}}

ApplicationConfiguration:
  LogLevel: {{.LogLevel}}
  SkipBlockVerification: false
{{- if .Light}}
  RemoveUntraceableBlocks: true
{{- end}}
{{- if .TrustedHeader}}
  TrustedHeader:
    {{.TrustedHeader}}
{{- end}}
  DBConfiguration:
    Type: "{{.DBType}}"
{{- if eq .DBType "leveldb"}}
    LevelDBOptions:
      DataDirectoryPath: "{{.DataPath}}"
{{- else if eq .DBType "pebble"}}
    PebbleDBOptions:
      DataDirectoryPath: "{{.DataPath}}"
{{- else if eq .DBType "boltdb"}}
    BoltDBOptions:
      FilePath: "{{.DataPath}}"
{{- end}}
  P2P:
    Addresses:
      - "{{.P2P}}"
    DialTimeout: 3s
    ProtoTickInterval: {{dur .P.ProtoTickInterval}}
    PingInterval: {{dur .P.PingInterval}}
    PingTimeout: {{dur .P.PingTimeout}}
    MaxPeers: 10
    AttemptConnPeers: 5
    MinPeers: {{.P.MinPeers}}
  Relay: true
  RPC:
    Enabled: true
    Addresses:
      - "{{.RPC}}"
    MaxGasInvoke: 50
    SessionEnabled: true
{{- if .Pprof}}
  Pprof:
    Enabled: true
    Addresses:
      - "{{.Pprof}}"
{{- end}}
  Consensus:
    Enabled: {{if .Wallet}}true{{else}}false{{end}}
{{- if .Wallet}}
    UnlockWallet:
      Path: "{{.Wallet}}"
      Password: "{{.Password}}"
{{- end}}
`))

// formatDuration writes a duration in Go's time.ParseDuration syntax,
// which both YAML readers take ("1s", "500ms", "1m0s").
func formatDuration(d time.Duration) string { return d.String() }

// renderConfig returns the YAML configuration of one node.
func renderConfig(c nodeConfig) ([]byte, error) {
	var b bytes.Buffer
	if err := configTemplate.Execute(&b, c); err != nil {
		return nil, fmt.Errorf("multinode: config template: %w", err)
	}
	return b.Bytes(), nil
}

// loopback returns "127.0.0.1:port".
func loopback(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }
