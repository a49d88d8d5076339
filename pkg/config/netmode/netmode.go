package netmode

import "strconv"

// Magic identifies a network (C# ProtocolSettings.Network).
type Magic uint32

// Public networks: the N3 chains and the NeoFS sidechains.
const (
	// MainNet is the Neo N3 main network, "NEO3" read as little-endian u32
	// (860833102).
	MainNet Magic = 0x334f454e
	// TestNet is the Neo N3 test network T5, "N3T5" (894710606).
	TestNet Magic = 0x3554334e
	// MainNetNeoFS is the NeoFS main sidechain (91414437).
	MainNetNeoFS Magic = 0x572dfa5
	// TestNetNeoFS is the NeoFS test sidechain (735783775).
	TestNetNeoFS Magic = 0x2bdb2b5f
)

// Local networks.
const (
	// PrivNet is the magic neo-go and n3node use for private networks.
	PrivNet Magic = 56753
	// UnitTestNet is the magic of neo-go's unit-test chains and dumps.
	UnitTestNet Magic = 42
)

var names = [...]struct {
	m    Magic
	name string
}{
	{MainNet, "mainnet"},
	{TestNet, "testnet"},
	{PrivNet, "privnet"},
	{UnitTestNet, "unit_testnet"},
	{MainNetNeoFS, "mainnet.neofs"},
	{TestNetNeoFS, "testnet.neofs"},
}

// String returns the network's name or "net 0x<hex>" for an unknown magic.
func (m Magic) String() string {
	for _, n := range names {
		if n.m == m {
			return n.name
		}
	}
	return "net 0x" + strconv.FormatUint(uint64(m), 16)
}

// FromName returns the magic of a named network.
func FromName(name string) (Magic, bool) {
	for _, n := range names {
		if n.name == name {
			return n.m, true
		}
	}
	return 0, false
}
