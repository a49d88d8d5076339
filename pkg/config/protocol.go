package config

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/n3node/n3node/pkg/config/netmode"
)

// ProtocolConfiguration holds the settings every node of a network must
// share (neo-go config.ProtocolConfiguration, same YAML names and types).
// Zero values mean "default"; Config.Blockchain fills them in.
type ProtocolConfiguration struct {
	// CommitteeHistory is a map of height to committee size, for networks
	// whose committee grew; empty means len(StandbyCommittee) throughout.
	CommitteeHistory map[uint32]uint32 `yaml:"CommitteeHistory"`
	// Genesis holds genesis-time settings and neo-go extensions.
	Genesis Genesis `yaml:"Genesis"`
	// Magic is the network identifier.
	Magic netmode.Magic `yaml:"Magic"`
	// SeedList lists "host:port" peers to connect to first.
	SeedList []string `yaml:"SeedList"`
	// MemPoolSize is the capacity of the transaction pool (default 50000).
	MemPoolSize int `yaml:"MemPoolSize"`
	// Hardforks maps hardfork names to activation heights. A nil map (no
	// section) enables the stable hardforks from genesis; see
	// HardforkSchedule for the exact rules. Marshalling omits a nil map so
	// that it reloads as nil (an empty map is omitted too).
	Hardforks map[string]uint32 `yaml:"Hardforks,omitempty"`
	// InitialGASSupply is the GAS minted in the genesis block (default
	// 52000000).
	InitialGASSupply Fixed8 `yaml:"InitialGASSupply"`
	// P2PNotaryRequestPayloadPoolSize is the notary request pool capacity
	// (P2PSigExtensions only, default 1000).
	P2PNotaryRequestPayloadPoolSize int `yaml:"P2PNotaryRequestPayloadPoolSize"`
	// MaxBlockSize is the maximum block size in bytes (default 262144).
	MaxBlockSize uint32 `yaml:"MaxBlockSize"`
	// MaxBlockSystemFee is the maximum total system fee of a block in
	// datoshi (default 150000000000).
	MaxBlockSystemFee int64 `yaml:"MaxBlockSystemFee"`
	// MaxTraceableBlocks is how many recent blocks contracts can see
	// (default 2102400).
	MaxTraceableBlocks uint32 `yaml:"MaxTraceableBlocks"`
	// MaxTransactionsPerBlock bounds a block's transactions (default 512).
	MaxTransactionsPerBlock uint16 `yaml:"MaxTransactionsPerBlock"`
	// MaxValidUntilBlockIncrement bounds ValidUntilBlock - height (default:
	// a day's worth of blocks).
	MaxValidUntilBlockIncrement uint32 `yaml:"MaxValidUntilBlockIncrement"`
	// P2PSigExtensions enables the neo-go notary extensions.
	P2PSigExtensions bool `yaml:"P2PSigExtensions"`
	// P2PStateExchangeExtensions enables MPT state sync over P2P.
	P2PStateExchangeExtensions bool `yaml:"P2PStateExchangeExtensions"`
	// NeoFSStateSyncExtensions enables state sync from NeoFS.
	NeoFSStateSyncExtensions bool `yaml:"NeoFSStateSyncExtensions"`
	// ReservedAttributes allows the experimental attribute range.
	ReservedAttributes bool `yaml:"ReservedAttributes"`
	// StandbyCommittee lists the committee's public keys (hex); the first
	// ValidatorsCount are the standby validators.
	StandbyCommittee []string `yaml:"StandbyCommittee"`
	// StateRootInHeader puts the state root into block headers.
	StateRootInHeader bool `yaml:"StateRootInHeader"`
	// StateSyncInterval is the distance between state-sync points (default
	// 40000 when a state-sync extension is on).
	StateSyncInterval int `yaml:"StateSyncInterval"`
	// TimePerBlock is the target block interval before HFEchidna (default
	// 15s); whole milliseconds only.
	TimePerBlock time.Duration `yaml:"TimePerBlock"`
	// MaxTimePerBlock is the longest interval consensus waits for
	// transactions before making a block; 0 disables it.
	MaxTimePerBlock time.Duration `yaml:"MaxTimePerBlock"`
	// ValidatorsCount is the number of consensus nodes (exclusive with
	// ValidatorsHistory).
	ValidatorsCount uint32 `yaml:"ValidatorsCount"`
	// ValidatorsHistory maps height to number of consensus nodes.
	ValidatorsHistory map[uint32]uint32 `yaml:"ValidatorsHistory"`
	// VerifyTransactions makes the node verify transactions of received
	// blocks.
	VerifyTransactions bool `yaml:"VerifyTransactions"`
}

type heightNumber struct{ h, n uint32 }

// Validate checks the configuration's consistency with neo-go 0.120.0's
// rules (ProtocolConfiguration.Validate), plus one check neo-go makes only
// when the chain starts: every StandbyCommittee key must be a valid point.
// Errors wrap ErrInvalid and name the offending field.
func (p *ProtocolConfiguration) Validate() error {
	if p.TimePerBlock%time.Millisecond != 0 {
		return fieldErr("ProtocolConfiguration.TimePerBlock", "TimePerBlock must be an integer number of milliseconds")
	}
	if p.Genesis.TimePerBlock%time.Millisecond != 0 {
		return fieldErr("ProtocolConfiguration.Genesis.TimePerBlock", "Genesis TimePerBlock must be an integer number of milliseconds")
	}
	if p.MaxTimePerBlock%time.Millisecond != 0 {
		return fieldErr("ProtocolConfiguration.MaxTimePerBlock", "MaxTimePerBlock must be an integer number of milliseconds")
	}
	if p.MaxTimePerBlock > 0 && (p.MaxTimePerBlock <= p.TimePerBlock || p.MaxTimePerBlock <= p.Genesis.TimePerBlock) {
		return fieldErr("ProtocolConfiguration.MaxTimePerBlock", "MaxTimePerBlock is not larger than TimePerBlock")
	}
	for _, name := range slices.Sorted(maps.Keys(p.Hardforks)) {
		if !IsHardforkValid(name) {
			return fieldErr("ProtocolConfiguration.Hardforks."+name, "'Hardforks' configuration section contains unexpected hardfork: %s", name)
		}
	}
	// Heights must not decrease, and no hardfork may be set (non-zero)
	// after one that is missing or zero following a non-zero one. As in
	// neo-go, an explicit 0 after a non-zero height is not rejected.
	var (
		prev             uint32
		shouldBeDisabled bool
	)
	for _, hf := range Hardforks() {
		h := p.Hardforks[hf.String()]
		if h != 0 && shouldBeDisabled {
			return fieldErr("ProtocolConfiguration.Hardforks."+hf.String(), "missing previous hardfork configuration with %s present", hf)
		}
		if h != 0 && h < prev {
			return fieldErr("ProtocolConfiguration.Hardforks."+hf.String(), "hardfork %s has inconsistent enabling height %d (lower than the previous one)", hf, h)
		}
		if h != 0 {
			prev = h
		} else if prev != 0 {
			shouldBeDisabled = true
		}
	}
	if p.ValidatorsCount != 0 && len(p.ValidatorsHistory) != 0 || p.ValidatorsCount == 0 && len(p.ValidatorsHistory) == 0 {
		return fieldErr("ProtocolConfiguration.ValidatorsCount", "configuration should either have one of ValidatorsCount or ValidatorsHistory, not both")
	}
	if len(p.StandbyCommittee) == 0 {
		return fieldErr("ProtocolConfiguration.StandbyCommittee", "configuration should include StandbyCommittee")
	}
	if len(p.StandbyCommittee) < int(p.ValidatorsCount) {
		return fieldErr("ProtocolConfiguration.ValidatorsCount", "validators count can't exceed the size of StandbyCommittee")
	}
	arr := make([]heightNumber, 0, len(p.CommitteeHistory))
	for _, h := range slices.Sorted(maps.Keys(p.CommitteeHistory)) {
		n := p.CommitteeHistory[h]
		if n == 0 {
			return fieldErr("ProtocolConfiguration.CommitteeHistory", "invalid CommitteeHistory: bad members count (%d) for height %d", n, h)
		}
		if int(n) > len(p.StandbyCommittee) {
			return fieldErr("ProtocolConfiguration.CommitteeHistory", "too small StandbyCommittee for required number of committee members at %d", h)
		}
		arr = append(arr, heightNumber{h, n})
	}
	if len(arr) != 0 {
		if err := sortCheckZero(arr, "CommitteeHistory"); err != nil {
			return err
		}
		for i, hn := range arr[1:] {
			if int64(hn.h)%int64(hn.n) != 0 || int64(hn.h)%int64(arr[i].n) != 0 {
				return fieldErr("ProtocolConfiguration.CommitteeHistory", "invalid CommitteeHistory: bad %d height for %d and %d committee", hn.h, hn.n, arr[i].n)
			}
		}
	}
	arr = arr[:0]
	for _, h := range slices.Sorted(maps.Keys(p.ValidatorsHistory)) {
		n := p.ValidatorsHistory[h]
		if n == 0 {
			return fieldErr("ProtocolConfiguration.ValidatorsHistory", "invalid ValidatorsHistory: bad members count (%d) for height %d", n, h)
		}
		if int(n) > len(p.StandbyCommittee) {
			return fieldErr("ProtocolConfiguration.ValidatorsHistory", "too small StandbyCommittee for required number of validators at %d", h)
		}
		arr = append(arr, heightNumber{h, n})
	}
	if len(arr) != 0 {
		if err := sortCheckZero(arr, "ValidatorsHistory"); err != nil {
			return err
		}
		for _, hn := range arr {
			if int64(hn.n) > int64(p.GetCommitteeSize(hn.h)) {
				return fieldErr("ProtocolConfiguration.ValidatorsHistory", "requested number of validators is too big: %d at %d", hn.n, hn.h)
			}
			if int64(hn.h)%int64(p.GetCommitteeSize(hn.h)) != 0 {
				return fieldErr("ProtocolConfiguration.ValidatorsHistory", "validators number change is not aligned with committee change at %d", hn.h)
			}
		}
	}
	for i, s := range p.StandbyCommittee {
		if _, err := ParsePublicKey(s); err != nil {
			return &FieldError{Field: fmt.Sprintf("ProtocolConfiguration.StandbyCommittee[%d]", i), Err: fmt.Errorf("%w: %w", ErrInvalid, err)}
		}
	}
	return nil
}

func sortCheckZero(arr []heightNumber, field string) error {
	slices.SortFunc(arr, func(a, b heightNumber) int { return cmp.Compare(a.h, b.h) })
	if arr[0].h != 0 {
		return fieldErr("ProtocolConfiguration."+field, "invalid %s: no height 0 specified", field)
	}
	return nil
}

// GetCommitteeSize returns the committee size at height. It assumes a
// validated configuration.
func (p *ProtocolConfiguration) GetCommitteeSize(height uint32) int {
	if len(p.CommitteeHistory) == 0 {
		return len(p.StandbyCommittee)
	}
	return int(bestFromMap(p.CommitteeHistory, height))
}

// bestFromMap returns the value of the largest key not above height.
func bestFromMap(dict map[uint32]uint32, height uint32) uint32 {
	var res, bestH uint32
	for h, n := range dict {
		if h >= bestH && h <= height {
			res, bestH = n, h
		}
	}
	return res
}

// GetNumOfCNs returns the number of consensus nodes at height. It assumes a
// validated configuration.
func (p *ProtocolConfiguration) GetNumOfCNs(height uint32) int {
	if len(p.ValidatorsHistory) == 0 {
		return int(p.ValidatorsCount)
	}
	return int(bestFromMap(p.ValidatorsHistory, height))
}

// ShouldUpdateCommitteeAt reports whether the committee is recomputed in the
// block at height (every committee-size blocks).
func (p *ProtocolConfiguration) ShouldUpdateCommitteeAt(height uint32) bool {
	return height%uint32(p.GetCommitteeSize(height)) == 0
}

// StandbyCommitteeKeys returns the parsed StandbyCommittee, in
// configuration order.
func (p *ProtocolConfiguration) StandbyCommitteeKeys() ([]PublicKey, error) {
	res := make([]PublicKey, len(p.StandbyCommittee))
	for i, s := range p.StandbyCommittee {
		k, err := ParsePublicKey(s)
		if err != nil {
			return nil, err
		}
		res[i] = k
	}
	return res, nil
}

// StandbyValidatorKeys returns the first GetNumOfCNs(0) committee keys, the
// genesis validators, in configuration order (not sorted).
func (p *ProtocolConfiguration) StandbyValidatorKeys() ([]PublicKey, error) {
	keys, err := p.StandbyCommitteeKeys()
	if err != nil {
		return nil, err
	}
	n := p.GetNumOfCNs(0)
	if n > len(keys) {
		return nil, errors.New("validators count exceeds the committee size")
	}
	return keys[:n], nil
}

// HardforkSchedule returns the activation heights following neo-go
// 0.120.0's Blockchain constructor:
//   - no Hardforks section (nil map): every stable hardforks up to
//     HFLatestStable is active from genesis, later ones are off;
//   - an empty section ("Hardforks: {}"): no hardfork is ever active;
//   - otherwise every hardfork before the first listed one is active from
//     genesis, listed ones from their height, and unlisted ones after the
//     first listed one are off.
//
// Names must be valid (Validate checks them); unknown names are ignored.
func (p *ProtocolConfiguration) HardforkSchedule() HardforkSchedule {
	var s HardforkSchedule
	if p.Hardforks == nil {
		for _, hf := range StableHardforks() {
			s.configured |= 1 << hf
		}
		return s
	}
	if len(p.Hardforks) == 0 {
		return s
	}
	leading := true
	for _, hf := range Hardforks() {
		h, ok := p.Hardforks[hf.String()]
		if ok {
			leading = false
		}
		if ok || leading {
			s.configured |= 1 << hf
			s.height[hf] = h
		}
	}
	return s
}

// Equals reports whether two configurations are the same.
func (p *ProtocolConfiguration) Equals(o *ProtocolConfiguration) bool {
	return p.Genesis.MaxTraceableBlocks == o.Genesis.MaxTraceableBlocks &&
		p.Genesis.MaxValidUntilBlockIncrement == o.Genesis.MaxValidUntilBlockIncrement &&
		p.Genesis.TimePerBlock == o.Genesis.TimePerBlock &&
		genesisExtEqual(&p.Genesis, &o.Genesis) &&
		p.InitialGASSupply == o.InitialGASSupply &&
		p.Magic == o.Magic &&
		p.MaxBlockSize == o.MaxBlockSize &&
		p.MaxBlockSystemFee == o.MaxBlockSystemFee &&
		p.MaxTimePerBlock == o.MaxTimePerBlock &&
		p.MaxTraceableBlocks == o.MaxTraceableBlocks &&
		p.MaxTransactionsPerBlock == o.MaxTransactionsPerBlock &&
		p.MaxValidUntilBlockIncrement == o.MaxValidUntilBlockIncrement &&
		p.MemPoolSize == o.MemPoolSize &&
		p.NeoFSStateSyncExtensions == o.NeoFSStateSyncExtensions &&
		p.P2PNotaryRequestPayloadPoolSize == o.P2PNotaryRequestPayloadPoolSize &&
		p.P2PSigExtensions == o.P2PSigExtensions &&
		p.P2PStateExchangeExtensions == o.P2PStateExchangeExtensions &&
		p.ReservedAttributes == o.ReservedAttributes &&
		p.StateRootInHeader == o.StateRootInHeader &&
		p.StateSyncInterval == o.StateSyncInterval &&
		p.TimePerBlock == o.TimePerBlock &&
		p.ValidatorsCount == o.ValidatorsCount &&
		p.VerifyTransactions == o.VerifyTransactions &&
		maps.Equal(p.CommitteeHistory, o.CommitteeHistory) &&
		maps.Equal(p.Hardforks, o.Hardforks) &&
		(p.Hardforks == nil) == (o.Hardforks == nil) &&
		slices.Equal(p.SeedList, o.SeedList) &&
		slices.Equal(p.StandbyCommittee, o.StandbyCommittee) &&
		maps.Equal(p.ValidatorsHistory, o.ValidatorsHistory)
}

func genesisExtEqual(a, b *Genesis) bool {
	if len(a.Roles) != len(b.Roles) {
		return false
	}
	for r, ks := range a.Roles {
		if !slices.Equal(ks, b.Roles[r]) {
			return false
		}
	}
	if (a.Transaction == nil) != (b.Transaction == nil) {
		return false
	}
	return a.Transaction == nil ||
		a.Transaction.SystemFee == b.Transaction.SystemFee && slices.Equal(a.Transaction.Script, b.Transaction.Script)
}
