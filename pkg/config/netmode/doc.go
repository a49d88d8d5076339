// Package netmode names the Neo N3 networks by their magic number, the u32
// every signed payload and P2P message is bound to (C#
// ProtocolSettings.Network), and holds the address version all N3 networks
// share.
//
// Names follow neo-go: "mainnet", "testnet", "privnet", "unit_testnet",
// "mainnet.neofs" and "testnet.neofs"; any other magic prints as
// "net 0x<hex>".
package netmode
