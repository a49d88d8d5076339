package result

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/n3node/n3node/pkg/config"
)

// Version is a getversion result.
type Version struct {
	TCPPort     uint16      `json:"tcpport"`
	WSPort      uint16      `json:"wsport,omitzero"`
	Nonce       uint32      `json:"nonce"`
	UserAgent   string      `json:"useragent"`
	Protocol    Protocol    `json:"protocol"`
	Application Application `json:"application,omitzero"`
	RPC         RPC         `json:"rpc"`
	// WritesPaused says why the node refuses blocks and transactions
	// while its database refuses writes (a full disk); n3node's
	// extension, absent otherwise.
	WritesPaused string `json:"writespaused,omitzero"`
}

// RPC describes the RPC server settings clients care about.
type RPC struct {
	MaxIteratorResultItems  int  `json:"maxiteratorresultitems"`
	SessionEnabled          bool `json:"sessionenabled"`
	SessionExpansionEnabled bool `json:"sessionexpansionenabled,omitzero"`
}

// Application holds the node's storage settings (neo-go extension, omitted
// when all are off).
type Application struct {
	SaveInvocations         bool `json:"saveinvocations,omitzero"`
	KeepOnlyLatestState     bool `json:"keeponlylateststate,omitzero"`
	RemoveUntraceableBlocks bool `json:"removeuntraceableblocks,omitzero"`
}

// HardforkHeight is a configured hardfork and its activation height.
type HardforkHeight struct {
	Name   string `json:"name"`
	Height uint32 `json:"blockheight"`
}

// Protocol holds the network's protocol settings (some at the current
// height: msperblock, maxtraceableblocks, maxvaliduntilblockincrement,
// validatorscount).
type Protocol struct {
	AddressVersion              byte              `json:"addressversion"`
	Network                     uint32            `json:"network"`
	MillisecondsPerBlock        int               `json:"msperblock"`
	MaxTraceableBlocks          uint32            `json:"maxtraceableblocks"`
	MaxValidUntilBlockIncrement uint32            `json:"maxvaliduntilblockincrement"`
	MaxTransactionsPerBlock     uint16            `json:"maxtransactionsperblock"`
	MemoryPoolMaxTransactions   int               `json:"memorypoolmaxtransactions"`
	ValidatorsCount             byte              `json:"validatorscount"`
	InitialGasDistribution      int64             `json:"initialgasdistribution"`
	Hardforks                   []HardforkHeight  `json:"hardforks"`
	StandbyCommittee            []string          `json:"standbycommittee"`
	SeedList                    []string          `json:"seedlist"`
	CommitteeHistory            map[uint32]uint32 `json:"committeehistory,omitzero"`
	P2PSigExtensions            bool              `json:"p2psigextensions,omitzero"`
	StateRootInHeader           bool              `json:"staterootinheader,omitzero"`
	ValidatorsHistory           map[uint32]uint32 `json:"validatorshistory,omitzero"`
}

// HardforkList returns the configured hardforks of m in protocol order,
// as getversion lists them.
func HardforkList(m map[string]uint32) []HardforkHeight {
	res := make([]HardforkHeight, 0, len(m))
	for _, hf := range config.Hardforks() {
		if h, ok := m[hf.String()]; ok {
			res = append(res, HardforkHeight{Name: hf.String(), Height: h})
		}
	}
	return res
}

type protocolAux Protocol

// UnmarshalJSON accepts the C# hardfork names ("HF_" prefix) too and
// rejects unknown hardforks, as neo-go does.
func (p *Protocol) UnmarshalJSON(data []byte) error {
	var aux protocolAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	for i := range aux.Hardforks {
		aux.Hardforks[i].Name = strings.TrimPrefix(aux.Hardforks[i].Name, "HF_")
		if !config.IsHardforkValid(aux.Hardforks[i].Name) {
			return fmt.Errorf("unexpected hardfork: %s", aux.Hardforks[i].Name)
		}
	}
	*p = Protocol(aux)
	return nil
}

// Hardfork returns the height of the named hardfork (with or without the
// "HF_" prefix C# prints) and whether the node has it enabled.
func (p *Protocol) Hardfork(name string) (uint32, bool) {
	name = strings.TrimPrefix(name, "HF_")
	for _, h := range p.Hardforks {
		if strings.TrimPrefix(h.Name, "HF_") == name {
			return h.Height, true
		}
	}
	return 0, false
}

// ValidatorsCountAt returns the number of validators at a height, from
// ValidatorsHistory when the node reports one (neo-go's rule: the entry
// with the greatest height not above h).
func (p *Protocol) ValidatorsCountAt(h uint32) uint32 {
	vc := uint32(p.ValidatorsCount)
	best := uint32(0)
	for height, n := range p.ValidatorsHistory {
		if height >= best && height <= h {
			vc, best = n, height
		}
	}
	return vc
}
