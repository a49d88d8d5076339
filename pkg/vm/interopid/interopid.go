package interopid

import (
	"crypto/sha256"
	"encoding/binary"
)

// FromName returns the id of the syscall name, e.g. "System.Crypto.CheckSig".
func FromName(name string) uint32 {
	h := sha256.Sum256([]byte(name))
	return binary.LittleEndian.Uint32(h[:4])
}

// Bytes returns the 4 operand bytes of SYSCALL for name.
func Bytes(name string) [4]byte {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], FromName(name))
	return b
}
