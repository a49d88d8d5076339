package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var fourKeys = []string{key1, key2, key3, key4}

// TestValidateNeoGoCases runs the cases of neo-go's
// TestProtocolConfigurationValidation and its hardfork variant.
func TestValidateNeoGoCases(t *testing.T) {
	one := []string{key1}
	cases := []struct {
		p  ProtocolConfiguration
		ok bool
	}{
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, TimePerBlock: time.Microsecond}, false},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Genesis: Genesis{TimePerBlock: time.Microsecond}}, false},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, MaxTimePerBlock: time.Microsecond}, false},
		{ProtocolConfiguration{ValidatorsCount: 1}, false},
		{ProtocolConfiguration{StandbyCommittee: []string{key1, key2}, ValidatorsCount: 3}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, ValidatorsCount: 4, ValidatorsHistory: map[uint32]uint32{0: 4}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 4}, ValidatorsHistory: map[uint32]uint32{0: 4, 1000: 5}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 4, 1000: 5}, ValidatorsHistory: map[uint32]uint32{0: 4}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 1, 999: 4}, ValidatorsHistory: map[uint32]uint32{0: 1}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 1, 1000: 4}, ValidatorsHistory: map[uint32]uint32{0: 1, 999: 4}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 1, 100: 4}, ValidatorsHistory: map[uint32]uint32{0: 4, 100: 4}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 0, 100: 4}, ValidatorsHistory: map[uint32]uint32{0: 1, 100: 4}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 1, 100: 4}, ValidatorsHistory: map[uint32]uint32{0: 0, 100: 4}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{1: 1, 100: 4}, ValidatorsHistory: map[uint32]uint32{0: 1}}, false},
		{ProtocolConfiguration{StandbyCommittee: fourKeys, CommitteeHistory: map[uint32]uint32{0: 1, 100: 4}, ValidatorsHistory: map[uint32]uint32{0: 1, 100: 4}}, true},
		{ProtocolConfiguration{StandbyCommittee: []string{}, CommitteeHistory: map[uint32]uint32{0: 1, 100: 4}, ValidatorsHistory: map[uint32]uint32{0: 1, 100: 4}}, false},
		{ProtocolConfiguration{StandbyCommittee: one}, false},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, TimePerBlock: time.Second, MaxTimePerBlock: 2 * time.Second}, true},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, TimePerBlock: time.Second, MaxTimePerBlock: time.Second}, false},
		{ProtocolConfiguration{Hardforks: map[string]uint32{"Unknown": 123}}, false},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Aspidochelone": 2, "Basilisk": 1}}, false},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Aspidochelone": 2, "Basilisk": 2}}, true},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Aspidochelone": 2, "Basilisk": 3}}, true},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Aspidochelone": 2}}, true},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Basilisk": 2}}, true},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Aspidochelone": 2, "Cockatrice": 3}}, false},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Aspidochelone": 2, "Basilisk": 0}}, true},
		{ProtocolConfiguration{StandbyCommittee: one, ValidatorsCount: 1, Hardforks: map[string]uint32{"Aspidochelone": 2, "Basilisk": 0, "Cockatrice": 3}}, false},
		{ProtocolConfiguration{StandbyCommittee: []string{"zz"}, ValidatorsCount: 1}, false},
		{ProtocolConfiguration{StandbyCommittee: []string{"04" + strings.Repeat("00", 64)}, ValidatorsCount: 1}, false},
	}
	for i, c := range cases {
		err := c.p.Validate()
		if (err == nil) != c.ok {
			t.Errorf("case %d: err = %v, want ok=%v", i, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("case %d: %v is not ErrInvalid", i, err)
		}
		var fe *FieldError
		if err != nil && (!errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "ProtocolConfiguration.")) {
			t.Errorf("case %d: %v has no field", i, err)
		}
	}
}

func TestCommitteeAndValidators(t *testing.T) {
	p := &ProtocolConfiguration{
		StandbyCommittee:  fourKeys,
		CommitteeHistory:  map[uint32]uint32{0: 1, 100: 4},
		ValidatorsHistory: map[uint32]uint32{0: 1, 200: 4},
	}
	committee := map[uint32]int{0: 1, 99: 1, 100: 4, 101: 4, 200: 4, 201: 4}
	cns := map[uint32]int{0: 1, 100: 1, 101: 1, 199: 1, 200: 4, 201: 4}
	for h, n := range committee {
		if got := p.GetCommitteeSize(h); got != n {
			t.Errorf("GetCommitteeSize(%d) = %d, want %d", h, got, n)
		}
	}
	for h, n := range cns {
		if got := p.GetNumOfCNs(h); got != n {
			t.Errorf("GetNumOfCNs(%d) = %d, want %d", h, got, n)
		}
	}
	if !p.ShouldUpdateCommitteeAt(99) || !p.ShouldUpdateCommitteeAt(100) || p.ShouldUpdateCommitteeAt(101) || !p.ShouldUpdateCommitteeAt(104) {
		t.Error("ShouldUpdateCommitteeAt")
	}
	plain := &ProtocolConfiguration{StandbyCommittee: fourKeys, ValidatorsCount: 3}
	if plain.GetCommitteeSize(12345) != 4 || plain.GetNumOfCNs(12345) != 3 || !plain.ShouldUpdateCommitteeAt(8) || plain.ShouldUpdateCommitteeAt(9) {
		t.Error("plain committee")
	}
	vals, err := plain.StandbyValidatorKeys()
	if err != nil || len(vals) != 3 || vals[2].String() != key3 {
		t.Errorf("StandbyValidatorKeys = %v, %v", vals, err)
	}
	if _, err := (&ProtocolConfiguration{StandbyCommittee: []string{"x"}, ValidatorsCount: 1}).StandbyCommitteeKeys(); err == nil {
		t.Error("bad key accepted")
	}
}

func TestProtocolEquals(t *testing.T) {
	p, o := &ProtocolConfiguration{}, &ProtocolConfiguration{}
	if !p.Equals(o) || !p.Equals(p) {
		t.Fatal("empty")
	}
	m, err := Load("testdata/neo-go/protocol.mainnet.yml")
	if err != nil {
		t.Fatal(err)
	}
	m2, _ := Load("testdata/neo-go/protocol.mainnet.yml")
	tn, _ := Load("testdata/neo-go/protocol.testnet.yml")
	if !m.ProtocolConfiguration.Equals(&m2.ProtocolConfiguration) || m.ProtocolConfiguration.Equals(&tn.ProtocolConfiguration) {
		t.Error("file configs")
	}
	mut := []func(p *ProtocolConfiguration){
		func(p *ProtocolConfiguration) { p.CommitteeHistory = map[uint32]uint32{111: 8} },
		func(p *ProtocolConfiguration) { p.Hardforks = map[string]uint32{"Fork2": 42} },
		func(p *ProtocolConfiguration) { p.Hardforks = nil },
		func(p *ProtocolConfiguration) { p.SeedList = []string{"url11"} },
		func(p *ProtocolConfiguration) { p.StandbyCommittee = []string{"key2", "key1"} },
		func(p *ProtocolConfiguration) { p.ValidatorsHistory = map[uint32]uint32{112: 0} },
		func(p *ProtocolConfiguration) { p.MaxTimePerBlock = time.Minute },
		func(p *ProtocolConfiguration) { p.Genesis.Roles = map[NodeRole][]PublicKey{RoleOracle: nil} },
	}
	for i, f := range mut {
		c := m2.ProtocolConfiguration
		f(&c)
		if m.ProtocolConfiguration.Equals(&c) || c.Equals(&m.ProtocolConfiguration) {
			t.Errorf("mutation %d not detected", i)
		}
	}
}

func TestBlockchainDefaults(t *testing.T) {
	cfg, err := LoadBytes("t", []byte("ProtocolConfiguration:\n  StandbyCommittee: ["+key1+"]\n  ValidatorsCount: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	bc, err := cfg.Blockchain()
	if err != nil {
		t.Fatal(err)
	}
	if bc.InitialGASSupply != 52_000_000_00000000 || bc.MemPoolSize != 50000 || bc.MaxBlockSize != 262144 ||
		bc.MaxBlockSystemFee != 150000000000 || bc.MaxTraceableBlocks != 2102400 || bc.MaxTransactionsPerBlock != 512 ||
		bc.TimePerBlock != 15*time.Second || bc.MaxValidUntilBlockIncrement != 5760 ||
		bc.Genesis.TimePerBlock != 15*time.Second || bc.Genesis.MaxTraceableBlocks != 2102400 ||
		bc.Genesis.MaxValidUntilBlockIncrement != 5760 || bc.P2PNotaryRequestPayloadPoolSize != 0 ||
		bc.StateSyncInterval != 0 || bc.GarbageCollectionPeriod != 0 {
		t.Errorf("defaults: %+v", bc)
	}
	// No Hardforks section: stable ones at 0 in both the map and the
	// schedule; Gorgon off.
	if len(bc.Hardforks) != 6 || bc.Hardforks["Faun"] != 0 || !bc.IsHardforkEnabled(HFFaun, 0) || bc.IsHardforkEnabled(HFGorgon, 1<<31) {
		t.Errorf("hardforks %v", bc.Hardforks)
	}
	if cfg.ProtocolConfiguration.Hardforks != nil {
		t.Error("Blockchain changed the loaded config")
	}
	// Values given are kept; dependent ones follow them.
	cfg, err = LoadBytes("t", []byte("ProtocolConfiguration:\n  StandbyCommittee: ["+key1+"]\n  ValidatorsCount: 1\n"+
		"  TimePerBlock: 1s\n  MaxTraceableBlocks: 100\n  P2PSigExtensions: true\n  Hardforks:\n    Cockatrice: 7\n"+
		"ApplicationConfiguration:\n  RemoveUntraceableBlocks: true\n  RPC:\n    MempoolSubscriptionsEnabled: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	bc, err = cfg.Blockchain()
	if err != nil {
		t.Fatal(err)
	}
	if bc.MaxValidUntilBlockIncrement != 86400 || bc.Genesis.TimePerBlock != time.Second || bc.Genesis.MaxTraceableBlocks != 100 ||
		bc.P2PNotaryRequestPayloadPoolSize != 1000 || bc.GarbageCollectionPeriod != 10000 || !bc.MempoolSubscriptionsEnabled {
		t.Errorf("derived: %+v", bc)
	}
	if len(bc.Hardforks) != 3 || bc.Hardforks["Aspidochelone"] != 0 || bc.Hardforks["Cockatrice"] != 7 ||
		bc.EnabledHardforks(6).String() != "Aspidochelone, Basilisk" || bc.EnabledHardforks(7).Len() != 3 {
		t.Errorf("hardforks %v", bc.Hardforks)
	}
}

func TestBlockchainChecks(t *testing.T) {
	base := ProtocolConfiguration{StandbyCommittee: []string{key1}, ValidatorsCount: 1}
	th := HashIndex{Index: 5}
	cases := []struct {
		name string
		p    func(p *ProtocolConfiguration)
		a    func(a *ApplicationConfiguration)
		msg  string
	}{
		{"both syncs", func(p *ProtocolConfiguration) { p.P2PStateExchangeExtensions, p.NeoFSStateSyncExtensions = true, true }, nil, "cannot be enabled simultaneously"},
		{"trusted header", nil, func(a *ApplicationConfiguration) { a.TrustedHeader = th }, "TrustedHeader can not be used"},
		{"latest state", func(p *ProtocolConfiguration) { p.P2PStateExchangeExtensions = true },
			func(a *ApplicationConfiguration) { a.KeepOnlyLatestState = true }, "MPT-complete node"},
		{"neofs fetchers", func(p *ProtocolConfiguration) { p.NeoFSStateSyncExtensions = true }, nil, "NeoFSBlockFetcher or NeoFSStateFetcher are off"},
		{"neofs archival", func(p *ProtocolConfiguration) { p.NeoFSStateSyncExtensions = true },
			func(a *ApplicationConfiguration) {
				a.NeoFSBlockFetcher.Enabled, a.NeoFSStateFetcher.Enabled = true, true
			}, "archival"},
		{"unvalidated", func(p *ProtocolConfiguration) { p.StandbyCommittee = nil }, nil, "StandbyCommittee"},
	}
	for _, c := range cases {
		p, a := base, ApplicationConfiguration{}
		if c.p != nil {
			c.p(&p)
		}
		if c.a != nil {
			c.a(&a)
		}
		_, err := NewBlockchainConfig(p, a)
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Valid state-sync setups get the default interval. Deviation:
	// neo-go also requires StateRootInHeader with P2PStateExchangeExtensions
	// (see NewBlockchainConfig).
	p := base
	for _, inHeader := range []bool{true, false} {
		p.P2PStateExchangeExtensions, p.StateRootInHeader = true, inHeader
		bc, err := NewBlockchainConfig(p, ApplicationConfiguration{Ledger: Ledger{TrustedHeader: th, RemoveUntraceableBlocks: true}})
		if err != nil || bc.StateSyncInterval != DefaultStateSyncInterval {
			t.Errorf("p2p state sync (StateRootInHeader %v): %v %d", inHeader, err, bc.StateSyncInterval)
		}
	}
	p = base
	p.NeoFSStateSyncExtensions = true
	a := ApplicationConfiguration{Ledger: Ledger{RemoveUntraceableBlocks: true}}
	a.NeoFSBlockFetcher.Enabled, a.NeoFSStateFetcher.Enabled = true, true
	bc, err := NewBlockchainConfig(p, a)
	if err != nil || bc.StateSyncInterval != DefaultStateSyncInterval {
		t.Errorf("neofs state sync: %v %d", err, bc.StateSyncInterval)
	}
}

func TestHardforkSectionForms(t *testing.T) {
	const base = "ProtocolConfiguration:\n  StandbyCommittee: [" + key1 + "]\n  ValidatorsCount: 1\n"
	cases := map[string]int{ // YAML tail -> hardforks enabled at a huge height
		"":                              6,
		"  Hardforks:\n":                6,
		"  Hardforks: {}\n":             0,
		"  Hardforks:\n    Gorgon: 9\n": 7,
		"  Hardforks:\n    Faun: 9\n":   6,
	}
	for tail, n := range cases {
		cfg, err := LoadBytes("t", []byte(base+tail))
		if err != nil {
			t.Fatalf("%q: %v", tail, err)
		}
		bc, err := cfg.Blockchain()
		if err != nil {
			t.Fatal(err)
		}
		if got := bc.EnabledHardforks(1 << 31).Len(); got != n {
			t.Errorf("%q: %d hardforks enabled, want %d", tail, got, n)
		}
		if len(bc.Hardforks) != n {
			t.Errorf("%q: normalized map %v", tail, bc.Hardforks)
		}
	}
}
