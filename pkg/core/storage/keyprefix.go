package storage

// KeyPrefix is the first byte of every key the node stores; it says what
// kind of record the key addresses. The values are those of neo-go 0.120.0
// (pkg/core/storage/store.go), so that tools reading either database agree
// on what a key means.
type KeyPrefix uint8

// Key prefixes.
const (
	// DataExecutable holds blocks and transactions (see ExecBlock and
	// ExecTransaction for the second byte).
	DataExecutable KeyPrefix = 0x01
	// DataMPT holds MPT nodes by hash.
	DataMPT KeyPrefix = 0x03
	// DataMPTAux holds MPT bookkeeping: height-to-root records, local and
	// validated heights.
	DataMPTAux KeyPrefix = 0x04
	// STStorage holds contract storage items: 0x70 + contract ID (4 bytes,
	// little-endian as neo-go writes it) + the contract's key. A block's
	// changes under this prefix are what the state trie applies.
	STStorage KeyPrefix = 0x70
	// STTempStorage holds contract storage received during state sync,
	// which replaces STStorage once the sync completes.
	STTempStorage       KeyPrefix = 0x71
	STNEP11Transfers    KeyPrefix = 0x72
	STNEP17Transfers    KeyPrefix = 0x73
	STTokenTransferInfo KeyPrefix = 0x74
	IXHeaderHashList    KeyPrefix = 0x80
	SYSCurrentBlock     KeyPrefix = 0xc0
	SYSCurrentHeader    KeyPrefix = 0xc1
	// SYSStateSyncCurrentBlockHeight and SYSStateSyncPoint record the
	// progress of a state sync.
	SYSStateSyncCurrentBlockHeight KeyPrefix = 0xc2
	SYSStateSyncPoint              KeyPrefix = 0xc3
	// SYSStateChangeStage records the stage of an unfinished state reset or
	// state jump.
	SYSStateChangeStage KeyPrefix = 0xc4
	// SYSStateSyncCheckpoint records a checkpoint of a state sync.
	SYSStateSyncCheckpoint KeyPrefix = 0xc5
	SYSVersion             KeyPrefix = 0xf0
)

// Second byte of a DataExecutable key.
const (
	ExecBlock       byte = 1
	ExecTransaction byte = 2
)

// Bytes returns the prefix as a one-byte key prefix, for SeekRange.Prefix.
func (p KeyPrefix) Bytes() []byte { return []byte{byte(p)} }
