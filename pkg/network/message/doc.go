// Package message implements the framing of Neo N3 P2P messages (C#
// Neo.Network.P2P.Message, neo-go pkg/network/message.go) and maps each
// command to its payload.
//
// # Wire format
//
// A message is a flags byte, a command byte and the payload as var-bytes.
// Flag bit 0 (Compressed) says the payload is an LZ4 block preceded by its
// uncompressed length as uint32 LE. Both the raw and the uncompressed
// payload are at most PayloadMaxSize bytes. A sender compresses as C# does:
// only block, extensible, transaction, headers, addr, merkleblock,
// filterload and filteradd payloads, only above CompressionMinSize bytes,
// and only when that saves more than CompressionThreshold bytes. Receivers
// accept a compressed payload for any command, as both references do.
//
// # Decoding
//
// Decode and Reader.ReadMessage check the limits before allocating,
// decompress with a bounded output, decode the payload with the payload
// package's checks and reject trailing bytes, unknown commands, empty
// payloads where one is required (and non-empty ones for verack, getaddr,
// mempool and filterclear). Errors wrap ErrFormat, ErrTooLarge,
// ErrUnknownCommand or the payload decoder's error; nothing panics.
// An uncompressed frame decoded and encoded again (with compression off)
// gives back the same bytes whenever it used minimal var-ints.
//
// # Ownership
//
// Decode copies the frame's payload once; a decoded transaction or block
// aliases that copy (package transaction's and block's OwnedBytes
// constructors) and the other payloads copy what they keep. Reader reads
// each payload into a fresh buffer that the decoded message owns. Encode
// returns a fresh slice.
package message
