package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config/netmode"
	"github.com/n3node/n3node/pkg/encoding/address"
)

const (
	key1 = "02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2"
	key2 = "02103a7f7dd016558597f7960d27c516a4394fd968b9e65155eb4b013e4040406e"
	key3 = "03d90c07df63e690ce77912e10ab51acc944b66860237b608c4f8f8309e71ee699"
	key4 = "02a7bc55fe8684e0119768d104ba30795bdcc86619e864add26156723ed185cd62"
)

// neoGoFiles lists every copied neo-go config with the values the tests
// expect; a file in testdata/neo-go missing from here fails the test.
var neoGoFiles = map[string]struct {
	magic      netmode.Magic
	committee  int
	validators int
	hardforks  map[string]uint32 // nil: no section
	dbType     string
}{
	"protocol.mainnet.yml":               {netmode.MainNet, 21, 7, map[string]uint32{"Aspidochelone": 1730000, "Basilisk": 4120000, "Cockatrice": 5450000, "Domovoi": 5570000, "Echidna": 7300000, "Faun": 8800000, "Gorgon": 12020000}, DBLevelDB},
	"protocol.testnet.yml":               {netmode.TestNet, 21, 7, map[string]uint32{"Aspidochelone": 210000, "Basilisk": 2680000, "Cockatrice": 3967000, "Domovoi": 4144000, "Echidna": 5870000, "Faun": 12960000, "Gorgon": 17960000}, DBLevelDB},
	"protocol.mainnet.neofs.yml":         {netmode.MainNetNeoFS, 7, 7, map[string]uint32{"Aspidochelone": 3000000, "Basilisk": 3500000, "Cockatrice": 3500000, "Domovoi": 3500000, "Echidna": 3519099, "Faun": 19725000, "Gorgon": 20700000}, DBLevelDB},
	"protocol.testnet.neofs.yml":         {netmode.TestNetNeoFS, 7, 7, map[string]uint32{"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 0, "Domovoi": 0, "Echidna": 0, "Faun": 19340000, "Gorgon": 20200000}, DBLevelDB},
	"protocol.privnet.yml":               {netmode.PrivNet, 4, 4, nil, DBLevelDB},
	"protocol.privnet.docker.single.yml": {netmode.PrivNet, 1, 1, nil, DBLevelDB},
	"protocol.privnet.docker.one.yml":    {netmode.PrivNet, 4, 4, nil, DBLevelDB},
	"protocol.privnet.docker.two.yml":    {netmode.PrivNet, 4, 4, nil, DBLevelDB},
	"protocol.privnet.docker.three.yml":  {netmode.PrivNet, 4, 4, nil, DBLevelDB},
	"protocol.privnet.docker.four.yml":   {netmode.PrivNet, 4, 4, nil, DBLevelDB},
	"protocol.unit_testnet.yml":          {netmode.UnitTestNet, 6, 4, map[string]uint32{"Aspidochelone": 1, "Basilisk": 2, "Cockatrice": 3, "Domovoi": 4, "Echidna": 5}, DBInMemory},
	"protocol.unit_testnet.single.yml":   {netmode.UnitTestNet, 1, 1, map[string]uint32{"Aspidochelone": 25}, DBInMemory},
}

func TestLoadNeoGoFiles(t *testing.T) {
	entries, err := os.ReadDir("testdata/neo-go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		want, ok := neoGoFiles[e.Name()]
		if !ok {
			t.Errorf("%s: no expectations", e.Name())
			continue
		}
		cfg, err := Load(filepath.Join("testdata/neo-go", e.Name()))
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		p := cfg.ProtocolConfiguration
		if p.Magic != want.magic || len(p.StandbyCommittee) != want.committee || p.GetNumOfCNs(0) != want.validators ||
			(p.Hardforks == nil) != (want.hardforks == nil) || !mapsEqual(p.Hardforks, want.hardforks) ||
			cfg.ApplicationConfiguration.DBConfiguration.Type != want.dbType {
			t.Errorf("%s: magic %d, committee %d, validators %d, hardforks %v, db %q", e.Name(), p.Magic,
				len(p.StandbyCommittee), p.GetNumOfCNs(0), p.Hardforks, cfg.ApplicationConfiguration.DBConfiguration.Type)
		}
		if _, err := cfg.Blockchain(); err != nil {
			t.Errorf("%s: Blockchain: %v", e.Name(), err)
		}
		n++
	}
	if n != len(neoGoFiles) {
		t.Fatalf("loaded %d files, want %d", n, len(neoGoFiles))
	}
}

func mapsEqual(a, b map[string]uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

type networkVector struct {
	NetworkMagic         uint32            `json:"network_magic"`
	AddressVersion       byte              `json:"address_version"`
	MillisecondsPerBlock int64             `json:"milliseconds_per_block"`
	MaxTxPerBlock        uint16            `json:"max_transactions_per_block"`
	MemPool              int               `json:"memory_pool_max_transactions"`
	MaxTraceableBlocks   uint32            `json:"max_traceable_blocks"`
	InitialGAS           int64             `json:"initial_gas_distribution_datoshi"`
	Hardforks            map[string]uint32 `json:"hardforks"`
	SeedList             []string          `json:"seed_list"`
	ValidatorsCount      int               `json:"validators_count"`
	CommitteeCount       int               `json:"committee_members_count"`
	StandbyCommittee     []string          `json:"standby_committee"`
}

// TestPublicNetworkVectors checks MainNet and TestNet, both neo-go's files
// and the embedded ones, against the C# node's settings.
func TestPublicNetworkVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/genesis_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vec struct {
		Networks map[string]networkVector `json:"networks"`
	}
	if err := json.Unmarshal(raw, &vec); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, name := range []string{"mainnet", "testnet"} {
		v, ok := vec.Networks[name]
		if !ok {
			t.Fatalf("no vector for %s", name)
		}
		fromFile, err := Load("testdata/neo-go/protocol." + name + ".yml")
		if err != nil {
			t.Fatal(err)
		}
		embedded, err := LoadNetwork(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, cfg := range []Config{fromFile, embedded} {
			bc, err := cfg.Blockchain()
			if err != nil {
				t.Fatal(err)
			}
			if uint32(bc.Magic) != v.NetworkMagic || address.Version != v.AddressVersion ||
				bc.TimePerBlock != time.Duration(v.MillisecondsPerBlock)*time.Millisecond ||
				bc.Genesis.TimePerBlock != bc.TimePerBlock ||
				bc.MaxTransactionsPerBlock != v.MaxTxPerBlock || bc.MemPoolSize != v.MemPool ||
				bc.MaxTraceableBlocks != v.MaxTraceableBlocks || int64(bc.InitialGASSupply) != v.InitialGAS ||
				!slices.Equal(bc.SeedList, v.SeedList) || bc.GetNumOfCNs(0) != v.ValidatorsCount ||
				bc.GetCommitteeSize(0) != v.CommitteeCount || !slices.Equal(bc.StandbyCommittee, v.StandbyCommittee) {
				t.Errorf("%s: values differ from the vector: %+v", name, bc.ProtocolConfiguration)
			}
			if len(v.Hardforks) != int(HFLatestKnown) {
				t.Fatalf("%s: vector has %d hardforks", name, len(v.Hardforks))
			}
			for hfName, h := range v.Hardforks {
				hf, ok := ParseHardfork(strings.TrimPrefix(hfName, "HF_"))
				if !ok {
					t.Fatalf("unknown hardfork %s", hfName)
				}
				if got, ok := bc.Forks.Height(hf); !ok || got != h {
					t.Errorf("%s: %s at %d, want %d", name, hf, got, h)
				}
				if bc.IsHardforkEnabled(hf, h-1) || !bc.IsHardforkEnabled(hf, h) || !bc.Forks.IsActivation(hf, h) {
					t.Errorf("%s: %s not activated at exactly %d", name, hf, h)
				}
			}
			ran++
		}
	}
	if ran != 4 {
		t.Fatalf("ran %d checks", ran)
	}
}

func TestEmbeddedNetworks(t *testing.T) {
	want := []string{"mainnet", "mainnet.neofs", "privnet", "privnet4-1", "privnet4-2", "privnet4-3", "privnet4-4",
		"testnet", "testnet.neofs", "unit_testnet", "unit_testnet.single"}
	if got := Networks(); !slices.Equal(got, want) {
		t.Fatalf("Networks() = %v", got)
	}
	for _, name := range want {
		cfg, err := LoadNetwork(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, err := cfg.Blockchain(); err != nil {
			t.Errorf("%s: Blockchain: %v", name, err)
		}
		magic, _ := netmode.FromName(strings.TrimSuffix(strings.Split(name, "4-")[0], ".single"))
		if cfg.ProtocolConfiguration.Magic != magic {
			t.Errorf("%s: magic %d, want %d", name, cfg.ProtocolConfiguration.Magic, magic)
		}
		for _, w := range []Wallet{cfg.ApplicationConfiguration.Consensus.UnlockWallet, cfg.ApplicationConfiguration.Oracle.UnlockWallet} {
			if strings.HasPrefix(w.Path, EmbeddedWalletPrefix) {
				if _, err := ReadWallet(w.Path); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
	if _, err := LoadNetwork("nonet"); !errors.Is(err, ErrUnknownNetwork) {
		t.Errorf("unknown network: %v", err)
	}
	if _, err := EmbeddedConfig("../config"); !errors.Is(err, ErrUnknownNetwork) {
		t.Errorf("path in name: %v", err)
	}
}

func allHardforksAtZero(t *testing.T, name string, bc Blockchain) {
	t.Helper()
	if s := bc.EnabledHardforks(0); s.Len() != int(HFLatestKnown) || !s.Has(HFGorgon) {
		t.Errorf("%s: hardforks at 0: %v", name, s)
	}
}

func TestDefaultPrivnet(t *testing.T) {
	if DefaultNetwork != "privnet" {
		t.Fatal(DefaultNetwork)
	}
	cfg, err := LoadNetwork(DefaultNetwork)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := cfg.Blockchain()
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.ApplicationConfiguration
	if bc.Magic != 56753 || !slices.Equal(bc.StandbyCommittee, []string{key1}) || bc.GetNumOfCNs(0) != 1 ||
		bc.TimePerBlock != time.Second || bc.Genesis.TimePerBlock != time.Second {
		t.Errorf("protocol: %+v", bc.ProtocolConfiguration)
	}
	allHardforksAtZero(t, "privnet", bc)
	// No seeds: getversion's "seedlist" is null, as neo-go's for a config
	// without SeedList (an empty list would print []).
	if bc.SeedList != nil {
		t.Errorf("SeedList %#v", bc.SeedList)
	}
	if a.DBConfiguration.Type != DBPebbleDB || a.DBConfiguration.Path() != "./data/privnet" ||
		!slices.Equal(a.RPC.Addresses, []string{"127.0.0.1:30333"}) || !a.RPC.Enabled ||
		!slices.Equal(a.P2P.Addresses, []string{"127.0.0.1:20333"}) ||
		!a.Consensus.Enabled || a.Consensus.UnlockWallet.Password != "one" {
		t.Errorf("application: %+v", a)
	}
	w, err := ReadWallet(a.Consensus.UnlockWallet.Path)
	if err != nil {
		t.Fatal(err)
	}
	// The solo wallet holds the validator's single-signature account.
	if !strings.Contains(string(w), "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn") {
		t.Error("wrong wallet")
	}
}

func TestPrivnet4(t *testing.T) {
	seen := map[string]bool{}
	for i, w := range []string{"one", "two", "three", "four"} {
		name := "privnet4-" + string(rune('1'+i))
		cfg, err := LoadNetwork(name)
		if err != nil {
			t.Fatal(err)
		}
		bc, err := cfg.Blockchain()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(bc.StandbyCommittee, []string{key1, key2, key3, key4}) || bc.GetNumOfCNs(0) != 4 || len(bc.SeedList) != 4 {
			t.Errorf("%s: %+v", name, bc.ProtocolConfiguration)
		}
		allHardforksAtZero(t, name, bc)
		a := cfg.ApplicationConfiguration
		wallet := EmbeddedWalletPrefix + "wallet" + string(rune('1'+i)) + ".json"
		if a.Consensus.UnlockWallet.Path != wallet || a.Consensus.UnlockWallet.Password != w || !a.Consensus.Enabled {
			t.Errorf("%s: consensus %+v", name, a.Consensus)
		}
		for _, addr := range slices.Concat(a.P2P.Addresses, a.RPC.Addresses, []string{a.DBConfiguration.Path()}) {
			if seen[addr] {
				t.Errorf("%s: %s used twice", name, addr)
			}
			seen[addr] = true
		}
		if !slices.Contains(bc.SeedList, a.P2P.Addresses[0]) {
			t.Errorf("%s: listens on %v, not a seed", name, a.P2P.Addresses)
		}
	}
}

func TestUnitTestnet(t *testing.T) {
	cfg, err := LoadNetwork("unit_testnet")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := cfg.Blockchain()
	if err != nil {
		t.Fatal(err)
	}
	if bc.Magic != 42 || len(bc.StandbyCommittee) != 6 || bc.GetNumOfCNs(0) != 4 || !bc.P2PSigExtensions ||
		bc.MaxBlockSystemFee != 900000000000 || bc.MaxTraceableBlocks != 200000 || bc.TimePerBlock != 15*time.Second {
		t.Errorf("%+v", bc.ProtocolConfiguration)
	}
	for hf := HFAspidochelone; hf <= HFEchidna; hf++ {
		if h, ok := bc.Forks.Height(hf); !ok || h != uint32(hf) {
			t.Errorf("%s at %d %v", hf, h, ok)
		}
	}
	if bc.IsHardforkEnabled(HFFaun, 1<<31) || bc.IsHardforkEnabled(HFGorgon, 1<<31) {
		t.Error("Faun/Gorgon enabled")
	}
	// The embedded copy is neo-go's file plus a comment.
	file, err := Load("testdata/neo-go/protocol.unit_testnet.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !file.ProtocolConfiguration.Equals(&cfg.ProtocolConfiguration) || !file.ApplicationConfiguration.EqualsButServices(&cfg.ApplicationConfiguration) {
		t.Error("embedded unit_testnet differs from neo-go's")
	}
}

func TestEmbeddedWallets(t *testing.T) {
	want := []string{"wallet1.json", "wallet1_solo.json", "wallet2.json", "wallet3.json", "wallet4.json"}
	if got := Wallets(); !slices.Equal(got, want) {
		t.Fatalf("Wallets() = %v", got)
	}
	for _, name := range want {
		b, err := EmbeddedWallet(name)
		if err != nil {
			t.Fatal(err)
		}
		var w struct {
			Version  string            `json:"version"`
			Accounts []json.RawMessage `json:"accounts"`
		}
		if err := json.Unmarshal(b, &w); err != nil || w.Version != "1.0" || len(w.Accounts) == 0 {
			t.Errorf("%s: %v %+v", name, err, w)
		}
		b[0] = 'x' // callers get a copy
	}
	if b, _ := EmbeddedWallet("wallet1.json"); b[0] != '{' {
		t.Error("embedded wallet was modified")
	}
	for _, bad := range []string{"nope.json", "../networks/protocol.privnet.yml"} {
		if _, err := EmbeddedWallet(bad); err == nil {
			t.Errorf("%s found", bad)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "w.json")
	if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadWallet(p); err != nil || string(b) != "{}" {
		t.Errorf("ReadWallet(file) = %q, %v", b, err)
	}
}

func TestResolveRelativePaths(t *testing.T) {
	cfg, err := LoadNetwork("privnet")
	if err != nil {
		t.Fatal(err)
	}
	cfg.ApplicationConfiguration.LogPath = "log/n.log"
	cfg.ApplicationConfiguration.P2PNotary.UnlockWallet.Path = "/abs/w.json"
	cfg.ApplicationConfiguration.StateRoot.UnlockWallet.Path = "rel/w.json"
	cfg.ResolveRelativePaths("/base")
	a := cfg.ApplicationConfiguration
	if a.LogPath != "/base/log/n.log" || a.DBConfiguration.PebbleDBOptions.DataDirectoryPath != "/base/data/privnet" ||
		a.Consensus.UnlockWallet.Path != "embedded:wallet1_solo.json" || a.P2PNotary.UnlockWallet.Path != "/abs/w.json" ||
		a.StateRoot.UnlockWallet.Path != "/base/rel/w.json" {
		t.Errorf("%+v", a)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load("testdata/does-not-exist.yml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	const proto = "ProtocolConfiguration:\n  Magic: 1\n  StandbyCommittee: [" + key1 + "]\n  ValidatorsCount: 1\n"
	cases := []struct {
		name  string
		yaml  string
		is    error
		line  int
		field string
		msg   string
	}{
		{"unknown top", "Foo: 1\n", ErrUnknownField, 1, "Foo", `unknown field "Foo"`},
		{"unknown protocol", proto + "  MaxBlockSizes: 1\n", ErrUnknownField, 5, "ProtocolConfiguration.MaxBlockSizes", ""},
		{"unknown inline ledger", proto + "ApplicationConfiguration:\n  KeepOnlyLatestStates: true\n", ErrUnknownField, 6, "ApplicationConfiguration.KeepOnlyLatestStates", ""},
		{"unknown p2p", proto + "ApplicationConfiguration:\n  P2P:\n    MaxPeer: 1\n", ErrUnknownField, 7, "ApplicationConfiguration.P2P.MaxPeer", ""},
		{"unknown rpc tls", proto + "ApplicationConfiguration:\n  RPC:\n    TLSConfig:\n      Cert: x\n", ErrUnknownField, 8, "ApplicationConfiguration.RPC.TLSConfig.Cert", ""},
		{"unknown genesis", proto + "  Genesis:\n    TimePerBlocks: 1s\n", ErrUnknownField, 6, "ProtocolConfiguration.Genesis.TimePerBlocks", ""},
		{"unknown genesis tx", proto + "  Genesis:\n    Transaction:\n      Script: AQ==\n      Fee: 1\n", ErrUnknownField, 8, "ProtocolConfiguration.Genesis.Transaction.Fee", ""},
		{"unknown db options", proto + "ApplicationConfiguration:\n  DBConfiguration:\n    RocksDBOptions: {}\n", ErrUnknownField, 7, "ApplicationConfiguration.DBConfiguration.RocksDBOptions", ""},
		{"bad duration", proto + "  TimePerBlock: 15\n", nil, 5, "ProtocolConfiguration.TimePerBlock", "time.Duration"},
		{"bad magic", "ProtocolConfiguration:\n  Magic: -1\n", nil, 2, "ProtocolConfiguration.Magic", "cannot unmarshal"},
		{"bad fixed8", proto + "  InitialGASSupply: 1.123456789\n", nil, 5, "ProtocolConfiguration.InitialGASSupply", "invalid fixed-point"},
		{"bad role", proto + "  Genesis:\n    Roles:\n      Validator: []\n", nil, 7, "ProtocolConfiguration.Genesis.Roles.Validator", "unknown node role: Validator"},
		{"bad role key", proto + "  Genesis:\n    Roles:\n      Oracle: [0102]\n", ErrInvalidPublicKey, 7, "ProtocolConfiguration.Genesis.Roles.Oracle", ""},
		{"bad script", proto + "  Genesis:\n    Transaction:\n      Script: '!!'\n", nil, 7, "ProtocolConfiguration.Genesis.Transaction.Script", "failed to decode script"},
		{"bad trusted header", proto + "ApplicationConfiguration:\n  RemoveUntraceableBlocks: true\n  TrustedHeader:\n    5: 0x01\n", nil, 8, "ApplicationConfiguration.TrustedHeader.5", "trusted header hash"},
		{"syntax", "ProtocolConfiguration:\n  Magic: [1\n", nil, 1, "", "did not find expected"},
		{"empty", "", ErrInvalid, 0, "", "empty configuration"},
		{"no committee", "ProtocolConfiguration:\n  Magic: 1\n  ValidatorsCount: 1\n", ErrInvalid, 1, "ProtocolConfiguration.StandbyCommittee", "configuration should include StandbyCommittee"},
		{"bad committee key", "ProtocolConfiguration:\n  StandbyCommittee:\n    - " + key1 + "\n    - 02ff\n  ValidatorsCount: 1\n", ErrInvalidPublicKey, 4, "ProtocolConfiguration.StandbyCommittee[1]", ""},
		{"too many validators", "ProtocolConfiguration:\n  StandbyCommittee: [" + key1 + "]\n  ValidatorsCount: 2\n", ErrInvalid, 3, "ProtocolConfiguration.ValidatorsCount", "validators count can't exceed the size of StandbyCommittee"},
		{"both validator settings", proto + "  ValidatorsHistory: {0: 1}\n", ErrInvalid, 4, "ProtocolConfiguration.ValidatorsCount", "not both"},
		{"unknown hardfork", proto + "  Hardforks:\n    Huyao: 5\n", ErrInvalid, 6, "ProtocolConfiguration.Hardforks.Huyao", "unexpected hardfork: Huyao"},
		{"hardfork order", proto + "  Hardforks:\n    Aspidochelone: 5\n    Basilisk: 4\n", ErrInvalid, 7, "ProtocolConfiguration.Hardforks.Basilisk", "inconsistent enabling height 4"},
		{"hardfork gap", proto + "  Hardforks:\n    Aspidochelone: 5\n    Cockatrice: 6\n", ErrInvalid, 7, "ProtocolConfiguration.Hardforks.Cockatrice", "missing previous hardfork configuration with Cockatrice present"},
		{"time per block ms", proto + "  TimePerBlock: 1500us\n", ErrInvalid, 5, "ProtocolConfiguration.TimePerBlock", "integer number of milliseconds"},
		{"max time per block", proto + "  TimePerBlock: 2s\n  MaxTimePerBlock: 2s\n", ErrInvalid, 6, "ProtocolConfiguration.MaxTimePerBlock", "MaxTimePerBlock is not larger than TimePerBlock"},
		{"max time vs genesis", proto + "  Genesis:\n    TimePerBlock: 3s\n  MaxTimePerBlock: 2s\n", ErrInvalid, 7, "ProtocolConfiguration.MaxTimePerBlock", "not larger"},
		{"log encoding", proto + "ApplicationConfiguration:\n  LogEncoding: xml\n", ErrInvalid, 6, "ApplicationConfiguration.LogEncoding", "invalid LogEncoding: xml"},
		{"rpc sessions", proto + "ApplicationConfiguration:\n  RPC:\n    SessionExpansionEnabled: true\n", ErrInvalid, 7, "ApplicationConfiguration.RPC.SessionExpansionEnabled", "requires SessionEnabled"},
		{"trusted header without gc", proto + "ApplicationConfiguration:\n  TrustedHeader:\n    5: 0x" + strings.Repeat("ab", 32) + "\n", ErrInvalid, 6, "ApplicationConfiguration.TrustedHeader", "RemoveUntraceableBlocks is disabled"},
		{"db type", proto + "ApplicationConfiguration:\n  DBConfiguration:\n    Type: rocksdb\n", ErrInvalid, 7, "ApplicationConfiguration.DBConfiguration.Type", `unknown storage type "rocksdb"`},
		{"db path", proto + "ApplicationConfiguration:\n  DBConfiguration:\n    Type: pebble\n", ErrInvalid, 6, "ApplicationConfiguration.DBConfiguration.PebbleDBOptions.DataDirectoryPath", "needs DataDirectoryPath"},
		{"leveldb cache", proto + "ApplicationConfiguration:\n  DBConfiguration:\n    LevelDBOptions:\n      CacheSizeMiB: -1\n", ErrInvalid, 8, "ApplicationConfiguration.DBConfiguration.LevelDBOptions.CacheSizeMiB", "negative cache size"},
		{"leveldb write buffer", proto + "ApplicationConfiguration:\n  DBConfiguration:\n    Type: pebble\n    PebbleDBOptions:\n      DataDirectoryPath: p\n    LevelDBOptions:\n      WriteBufferSizeMiB: 4096\n", ErrInvalid, 11, "ApplicationConfiguration.DBConfiguration.LevelDBOptions.WriteBufferSizeMiB", "write buffer size 4096 MiB out of [0, 4096)"},
		{"memory limit", proto + "ApplicationConfiguration:\n  MemoryLimitMiB: 2000000000\n", ErrInvalid, 6, "ApplicationConfiguration.MemoryLimitMiB", "memory limit 2000000000 MiB above"},
		{"neofs container", proto + "ApplicationConfiguration:\n  NeoFSBlockFetcher:\n    Enabled: true\n    ContainerID: abc\n    Addresses: [a]\n", ErrInvalid, 8, "ApplicationConfiguration.NeoFSBlockFetcher.ContainerID", "invalid container ID"},
		{"neofs addresses", proto + "ApplicationConfiguration:\n  NeoFSBlockFetcher:\n    Enabled: true\n    ContainerID: 9iVfUg8aDHKjPC4LhQXEkVUM4HDkR7UCXYLs8NQwYfSG\n", ErrInvalid, 6, "ApplicationConfiguration.NeoFSBlockFetcher.Addresses", "addresses are not set"},
		{"neofs queue", proto + "ApplicationConfiguration:\n  NeoFSBlockFetcher:\n    Enabled: true\n    ContainerID: 9iVfUg8aDHKjPC4LhQXEkVUM4HDkR7UCXYLs8NQwYfSG\n    Addresses: [a]\n    OIDBatchSize: 10\n    BQueueSize: 5\n", ErrInvalid, 11, "ApplicationConfiguration.NeoFSBlockFetcher.BQueueSize", "lower than OIDBatchSize"},
		{"neofs state fetcher", proto + "ApplicationConfiguration:\n  NeoFSStateFetcher:\n    Enabled: true\n", ErrInvalid, 6, "ApplicationConfiguration.NeoFSStateFetcher.ContainerID", "container ID is not set"},
	}
	for _, c := range cases {
		_, err := LoadBytes("test.yml", []byte(c.yaml))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v is not %v", c.name, err, c.is)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v is not *Error", c.name, err)
			continue
		}
		if e.Source != "test.yml" || e.Line != c.line || e.Field != c.field || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %q (line %d, field %q), want line %d, field %q, text %q", c.name, err, e.Line, e.Field, c.line, c.field, c.msg)
		}
	}
	// Every unknown key is reported, not just the first.
	_, err := LoadBytes("t.yml", []byte("A: 1\nB: 2\n"))
	if err == nil || !strings.Contains(err.Error(), "t.yml:1: A: unknown field") || !strings.Contains(err.Error(), "t.yml:2: B: unknown field") {
		t.Errorf("multiple unknown fields: %v", err)
	}
}

func TestLoadDefaults(t *testing.T) {
	cfg, err := LoadBytes("t", []byte("ProtocolConfiguration:\n  StandbyCommittee: ["+key1+"]\n  ValidatorsCount: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	// neo-go presets the ping settings before decoding.
	if p := cfg.ApplicationConfiguration.P2P; p.PingInterval != 30*time.Second || p.PingTimeout != 90*time.Second {
		t.Errorf("ping defaults: %v %v", p.PingInterval, p.PingTimeout)
	}
	cfg, err = LoadBytes("t", []byte("ProtocolConfiguration:\n  StandbyCommittee: ["+key1+"]\n  ValidatorsCount: 1\nApplicationConfiguration:\n  P2P:\n    PingInterval: 5s\n"))
	if err != nil || cfg.ApplicationConfiguration.P2P.PingInterval != 5*time.Second || cfg.ApplicationConfiguration.P2P.PingTimeout != 90*time.Second {
		t.Errorf("ping override: %v", err)
	}
}

func TestGenesisExtensions(t *testing.T) {
	y := "ProtocolConfiguration:\n  StandbyCommittee: [" + key1 + "]\n  ValidatorsCount: 1\n  Genesis:\n" +
		"    Transaction:\n      Script: AQIDBA==\n      SystemFee: 123\n" +
		"    Roles:\n      NeoFSAlphabet:\n        - " + key1 + "\n        - " + key2 + "\n      Oracle:\n        - " + key3 + "\n"
	cfg, err := LoadBytes("t", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.ProtocolConfiguration.Genesis
	if g.Transaction == nil || string(g.Transaction.Script) != "\x01\x02\x03\x04" || g.Transaction.SystemFee != 123 {
		t.Errorf("transaction %+v", g.Transaction)
	}
	alpha := g.Roles[RoleNeoFSAlphabet]
	if len(g.Roles) != 2 || len(alpha) != 2 || alpha[0].String() != key1 || alpha[1].String() != key2 || g.Roles[RoleOracle][0].String() != key3 {
		t.Errorf("roles %v", g.Roles)
	}
	// Round trip through YAML marshalling.
	var cp Config
	if err := yamlRoundTrip(cfg, &cp); err != nil {
		t.Fatal(err)
	}
	if !cp.ProtocolConfiguration.Equals(&cfg.ProtocolConfiguration) {
		t.Errorf("YAML round trip differs: %+v", cp.ProtocolConfiguration.Genesis)
	}
	cfg2 := cfg
	cfg2.ProtocolConfiguration.Genesis.Transaction = &GenesisTransaction{Script: []byte{1}, SystemFee: 123}
	if cfg2.ProtocolConfiguration.Equals(&cfg.ProtocolConfiguration) {
		t.Error("different genesis transactions are equal")
	}
}
