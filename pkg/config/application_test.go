package config

import (
	"slices"
	"testing"
	"time"
)

// TestGetAddresses runs neo-go's TestGetAddresses cases.
func TestGetAddresses(t *testing.T) {
	const (
		addr1 = "1.2.3.4"
		addr2 = "5.6.7.8"
	)
	v6 := []string{"3731:54:65fe:2::a7", "3731:54:65fe:2::1", "3731:54:65fe::a:1", "3731:54:65fe::1:1", "3731:54:65fe:2::"}
	cases := []struct {
		in   []string
		want []AnnounceableAddress
		fail bool
	}{
		{nil, []AnnounceableAddress{{Address: ":0"}}, false},
		{[]string{addr1}, []AnnounceableAddress{{Address: addr1}}, false},
		{[]string{":1"}, []AnnounceableAddress{{Address: ":1"}}, false},
		{[]string{"::1"}, []AnnounceableAddress{{Address: ":", AnnouncedPort: 1}}, false},
		{[]string{addr1 + ":1"}, []AnnounceableAddress{{Address: addr1 + ":1"}}, false},
		{[]string{addr1 + "::1"}, []AnnounceableAddress{{Address: addr1 + ":", AnnouncedPort: 1}}, false},
		{[]string{addr1 + ":1:2"}, []AnnounceableAddress{{Address: addr1 + ":1", AnnouncedPort: 2}}, false},
		{[]string{addr1 + ":1", addr2 + "::2"}, []AnnounceableAddress{{Address: addr1 + ":1"}, {Address: addr2 + ":", AnnouncedPort: 2}}, false},
		{v6, []AnnounceableAddress{{Address: v6[0]}, {Address: v6[1]}, {Address: v6[2]}, {Address: v6[3]}, {Address: v6[4]}}, false},
		{[]string{"[3731:54:65fe:2::]:123", "[3731:54:65fe:2::]:123:124"},
			[]AnnounceableAddress{{Address: "[3731:54:65fe:2::]:123"}, {Address: "[3731:54:65fe:2::]:123", AnnouncedPort: 124}}, false},
		{[]string{"127.0.0.1:QWER:123"}, nil, true},
		{[]string{""}, nil, true},
	}
	for i, c := range cases {
		a := &ApplicationConfiguration{P2P: P2P{Addresses: c.in}}
		got, err := a.GetAddresses()
		if c.fail {
			if err == nil {
				t.Errorf("case %d: accepted", i)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("case %d: %v, %v; want %v", i, got, err, c.want)
		}
	}
}

func TestEqualsButServices(t *testing.T) {
	a, o := &ApplicationConfiguration{}, &ApplicationConfiguration{}
	if !a.EqualsButServices(o) {
		t.Fatal("empty")
	}
	m, _ := Load("testdata/neo-go/protocol.mainnet.yml")
	tn, _ := Load("testdata/neo-go/protocol.testnet.yml")
	if m.ApplicationConfiguration.EqualsButServices(&tn.ApplicationConfiguration) {
		t.Error("mainnet == testnet")
	}
	c := m.ApplicationConfiguration
	c.RPC.MaxGasInvoke = 1
	c.LogLevel = "debug"
	c.P2P.Addresses = slices.Clone(c.P2P.Addresses)
	if !m.ApplicationConfiguration.EqualsButServices(&c) {
		t.Error("service change detected")
	}
	c.Relay = false
	if m.ApplicationConfiguration.EqualsButServices(&c) {
		t.Error("Relay change missed")
	}
}

func TestP2PDefaults(t *testing.T) {
	p := P2P{MinPeers: -1, BroadcastFactor: 101}.WithDefaults(15 * time.Second)
	if p.MinPeers != 5 || p.MaxPeers != 100 || p.AttemptConnPeers != 20 || p.BroadcastFactor != 0 ||
		p.PingInterval != 3*time.Second || p.ExtensiblePoolSize != 20 || p.BroadcastTxsBatchDelay != 50*time.Millisecond {
		t.Errorf("%+v", p)
	}
	p = P2P{MinPeers: 0, MaxPeers: 7, AttemptConnPeers: 3, BroadcastFactor: 50, PingInterval: time.Second, ExtensiblePoolSize: 9}.WithDefaults(time.Second)
	if p.MinPeers != 0 || p.MaxPeers != 7 || p.AttemptConnPeers != 3 || p.BroadcastFactor != 50 ||
		p.PingInterval != time.Second || p.ExtensiblePoolSize != 9 || p.BroadcastTxsBatchDelay != 50*time.Millisecond {
		t.Errorf("kept: %+v", p)
	}
	if d := (P2P{}).WithDefaults(100 * time.Millisecond).BroadcastTxsBatchDelay; d != 5*time.Millisecond {
		t.Errorf("batch delay %v", d)
	}
}

func TestRPCDefaults(t *testing.T) {
	r := RPC{SessionEnabled: true}.WithDefaults(time.Second)
	if r.SessionLifetime != 5*time.Second || r.SessionPoolSize != 20 || r.MaxIteratorResultItems != 100 ||
		r.MaxFindResultItems != 100 || r.MaxFindStorageResultItems != 50 || r.MaxNEP11Tokens != 100 ||
		r.MaxRequestBodyBytes != 1<<20 || r.MaxRequestHeaderBytes != 1<<20 || r.MaxWebSocketClients != 64 || r.MaxWebSocketFeeds != 16 {
		t.Errorf("%+v", r)
	}
	if r := (RPC{SessionEnabled: true}).WithDefaults(15 * time.Second); r.SessionLifetime != 15*time.Second {
		t.Errorf("lifetime %v", r.SessionLifetime)
	}
	if r := (RPC{MaxWebSocketClients: -1}).WithDefaults(time.Second); r.MaxWebSocketClients != -1 || r.SessionPoolSize != 0 {
		t.Errorf("%+v", r)
	}
}

func TestDBConfiguration(t *testing.T) {
	cases := []struct {
		d    DBConfiguration
		path string
		ro   bool
	}{
		{DBConfiguration{Type: DBLevelDB, LevelDBOptions: LevelDBOptions{DataDirectoryPath: "l", ReadOnly: true}}, "l", true},
		{DBConfiguration{Type: DBBoltDB, BoltDBOptions: BoltDBOptions{FilePath: "b"}}, "b", false},
		{DBConfiguration{Type: DBPebbleDB, PebbleDBOptions: PebbleDBOptions{DataDirectoryPath: "p", ReadOnly: true}}, "p", true},
		{DBConfiguration{Type: DBInMemory}, "", false},
		{DBConfiguration{}, "", false},
	}
	for _, c := range cases {
		if c.d.Validate() != nil || c.d.Path() != c.path || c.d.ReadOnly() != c.ro {
			t.Errorf("%+v", c.d)
		}
	}
	for _, d := range []DBConfiguration{{Type: DBLevelDB}, {Type: DBBoltDB}, {Type: DBPebbleDB}, {Type: "LevelDB"}} {
		if d.Validate() == nil {
			t.Errorf("%+v accepted", d)
		}
	}
}

func TestNeoFSStateFetcherInherits(t *testing.T) {
	a := ApplicationConfiguration{}
	a.NeoFSBlockFetcher.Enabled = true
	a.NeoFSBlockFetcher.ContainerID = "9iVfUg8aDHKjPC4LhQXEkVUM4HDkR7UCXYLs8NQwYfSG"
	a.NeoFSBlockFetcher.Addresses = []string{"a"}
	a.NeoFSStateFetcher.Enabled = true
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	if a.NeoFSStateFetcher.ContainerID != a.NeoFSBlockFetcher.ContainerID || len(a.NeoFSStateFetcher.Addresses) != 1 {
		t.Errorf("%+v", a.NeoFSStateFetcher)
	}
}

// TestMemoryKeys: n3node's own memory keys load beside neo-go's LevelDB
// section, and a reload that changes them is not applied while running.
func TestMemoryKeys(t *testing.T) {
	const y = "ProtocolConfiguration:\n  Magic: 1\n  StandbyCommittee: [" + key1 + "]\n  ValidatorsCount: 1\n" +
		"ApplicationConfiguration:\n  MemoryLimitMiB: 256\n  DBConfiguration:\n    Type: leveldb\n    LevelDBOptions:\n" +
		"      DataDirectoryPath: ./chain\n      CacheSizeMiB: 16\n      WriteBufferSizeMiB: 32\n"
	cfg, err := LoadBytes("m.yml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.ApplicationConfiguration
	l := a.DBConfiguration.LevelDBOptions
	if a.MemoryLimitMiB != 256 || l.CacheSizeMiB != 16 || l.WriteBufferSizeMiB != 32 || l.DataDirectoryPath != "./chain" {
		t.Errorf("loaded %+v, memory limit %d", l, a.MemoryLimitMiB)
	}
	b := a
	b.MemoryLimitMiB = 512
	if a.EqualsButServices(&b) {
		t.Error("a changed MemoryLimitMiB counts as a service change")
	}
	b = a
	b.DBConfiguration.LevelDBOptions.WriteBufferSizeMiB = 8
	if a.EqualsButServices(&b) {
		t.Error("a changed WriteBufferSizeMiB counts as a service change")
	}
}
