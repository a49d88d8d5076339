package message

import "fmt"

// Command is a message type (C# MessageCommand, neo-go CommandType).
type Command byte

// Commands. The 0x5x commands are neo-go extensions.
const (
	// Handshake.
	CmdVersion Command = 0x00
	CmdVerack  Command = 0x01

	// Connectivity.
	CmdGetAddr Command = 0x10
	CmdAddr    Command = 0x11
	CmdPing    Command = 0x18
	CmdPong    Command = 0x19

	// Synchronization.
	CmdGetHeaders      Command = 0x20
	CmdHeaders         Command = 0x21
	CmdGetBlocks       Command = 0x24
	CmdMempool         Command = 0x25
	CmdInv             Command = 0x27
	CmdGetData         Command = 0x28
	CmdGetBlockByIndex Command = 0x29
	CmdNotFound        Command = 0x2a
	CmdTransaction     Command = 0x2b
	CmdBlock           Command = 0x2c
	CmdExtensible      Command = 0x2e
	CmdReject          Command = 0x2f

	// SPV.
	CmdFilterLoad  Command = 0x30
	CmdFilterAdd   Command = 0x31
	CmdFilterClear Command = 0x32
	CmdMerkleBlock Command = 0x38

	// Others.
	CmdAlert Command = 0x40

	// neo-go extensions: P2PSigExtensions and state exchange.
	CmdP2PNotaryRequest Command = 0x50
	CmdGetMPTData       Command = 0x51
	CmdMPTData          Command = 0x52
)

var commandNames = [256]string{
	CmdVersion:          "version",
	CmdVerack:           "verack",
	CmdGetAddr:          "getaddr",
	CmdAddr:             "addr",
	CmdPing:             "ping",
	CmdPong:             "pong",
	CmdGetHeaders:       "getheaders",
	CmdHeaders:          "headers",
	CmdGetBlocks:        "getblocks",
	CmdMempool:          "mempool",
	CmdInv:              "inv",
	CmdGetData:          "getdata",
	CmdGetBlockByIndex:  "getblockbyindex",
	CmdNotFound:         "notfound",
	CmdTransaction:      "transaction",
	CmdBlock:            "block",
	CmdExtensible:       "extensible",
	CmdReject:           "reject",
	CmdFilterLoad:       "filterload",
	CmdFilterAdd:        "filteradd",
	CmdFilterClear:      "filterclear",
	CmdMerkleBlock:      "merkleblock",
	CmdAlert:            "alert",
	CmdP2PNotaryRequest: "p2pnotaryrequest",
	CmdGetMPTData:       "getmptdata",
	CmdMPTData:          "mptdata",
}

// String returns the command's name in lower case.
func (c Command) String() string {
	if s := commandNames[c]; s != "" {
		return s
	}
	return fmt.Sprintf("command(0x%02x)", byte(c))
}

// Known reports whether c is a command this package decodes.
func (c Command) Known() bool { return commandNames[c] != "" }

// emptyPayload reports whether c carries no payload.
func (c Command) emptyPayload() bool {
	switch c {
	case CmdVerack, CmdGetAddr, CmdMempool, CmdFilterClear:
		return true
	}
	return false
}

// compressible reports whether C# compresses c (Message.ShallICompress).
func (c Command) compressible() bool {
	switch c {
	case CmdBlock, CmdExtensible, CmdTransaction, CmdHeaders, CmdAddr,
		CmdMerkleBlock, CmdFilterLoad, CmdFilterAdd:
		return true
	}
	return false
}
