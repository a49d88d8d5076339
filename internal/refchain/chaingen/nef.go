package chaingen

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// NEF3 layout constants (C#: Neo.SmartContract.NefFile).
const (
	nefMagic        = 0x3346454E // "NEF3"
	nefCompilerSize = 64
	// MaxNEFSourceLength is NefFile's limit on the source URL.
	MaxNEFSourceLength = 256
)

// NEF builds a NEF3 file with no method tokens around script. compiler is
// zero-padded to 64 bytes. The checksum is the first four bytes of
// Hash256 of everything before it.
func NEF(compiler, source string, script []byte) ([]byte, error) {
	if len(compiler) > nefCompilerSize || len(source) > MaxNEFSourceLength {
		return nil, fmt.Errorf("chaingen: NEF compiler or source too long")
	}
	w := nio.NewBufBinWriter()
	w.WriteU32LE(nefMagic)
	var comp [nefCompilerSize]byte
	copy(comp[:], compiler)
	w.WriteBytes(comp[:])
	w.WriteString(source)
	w.WriteU8(0)      // reserved
	w.WriteVarUint(0) // method tokens
	w.WriteU16LE(0)   // reserved
	w.WriteVarBytes(script)
	sum := hash.Checksum(w.Bytes())
	w.WriteBytes(sum[:])
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// NEFChecksum returns the checksum field of a NEF file (its last 4 bytes,
// as a little-endian u32).
func NEFChecksum(nef []byte) uint32 {
	return binary.LittleEndian.Uint32(nef[len(nef)-4:])
}

// ContractHash is the hash of a contract deployed by sender:
// Hash160(ABORT, PUSHDATA sender, PUSH checksum, PUSHDATA name).
func ContractHash(sender hash.Uint160, nefChecksum uint32, name string) hash.Uint160 {
	b := NewBuilder()
	b.Op(ABORT)
	b.Bytes(sender[:])
	b.Int(int64(nefChecksum))
	b.String(name)
	s, _ := b.Script()
	return hash.Hash160(s)
}

// Param is a manifest parameter.
type Param struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Method is a manifest ABI method.
type Method struct {
	Name       string  `json:"name"`
	Parameters []Param `json:"parameters"`
	ReturnType string  `json:"returntype"`
	Offset     int     `json:"offset"`
	Safe       bool    `json:"safe"`
}

// Event is a manifest ABI event.
type Event struct {
	Name       string  `json:"name"`
	Parameters []Param `json:"parameters"`
}

// Manifest is a contract manifest with wildcard permissions and no groups or
// trusts; field order follows C#'s ContractManifest.ToJson.
type Manifest struct {
	Name               string   `json:"name"`
	Groups             []any    `json:"groups"`
	Features           struct{} `json:"features"`
	SupportedStandards []string `json:"supportedstandards"`
	ABI                struct {
		Methods []Method `json:"methods"`
		Events  []Event  `json:"events"`
	} `json:"abi"`
	Permissions []Permission `json:"permissions"`
	Trusts      []any        `json:"trusts"`
	Extra       any          `json:"extra"`
}

// Permission is a manifest permission.
type Permission struct {
	Contract string `json:"contract"`
	Methods  any    `json:"methods"` // "*" or []string
}

// NewManifest returns a manifest named name that may call anything.
func NewManifest(name string, methods []Method, events []Event) *Manifest {
	m := &Manifest{Name: name, Groups: []any{}, SupportedStandards: []string{}, Trusts: []any{}}
	m.ABI.Methods = methods
	m.ABI.Events = events
	if m.ABI.Events == nil {
		m.ABI.Events = []Event{}
	}
	for i := range m.ABI.Methods {
		if m.ABI.Methods[i].Parameters == nil {
			m.ABI.Methods[i].Parameters = []Param{}
		}
	}
	m.Permissions = []Permission{{Contract: "*", Methods: "*"}}
	return m
}

// JSON returns the compact manifest JSON.
func (m *Manifest) JSON() ([]byte, error) { return json.Marshal(m) }
