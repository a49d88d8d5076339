package walletcmd

import (
	"encoding/binary"

	"github.com/n3node/n3node/pkg/crypto/keys"
)

// Neo 2 verification scripts, as far as `wallet convert` reads them. The
// Neo 2 opcodes differ from N3's: PUSH1..PUSH16 are 0x51..0x60, a push
// of n<=75 bytes is the byte n, CHECKSIG 0xac, CHECKMULTISIG 0xae, RET
// 0x66.
const (
	legacyPush1         = 0x51
	legacyPush16        = 0x60
	legacyPushKey       = 0x21 // a push of 33 bytes: a compressed key
	legacyCheckMultisig = 0xae
	legacyRet           = 0x66
	// legacySignatureLen is PUSH33 key CHECKSIG; neo-go takes any script
	// of this length as a signature script.
	legacySignatureLen = 35
)

func isLegacySignatureScript(script []byte) bool { return len(script) == legacySignatureLen }

// legacyCount reads the small integer a Neo 2 multisig script pushes for
// m or n: PUSH1..PUSH16, or a 1- or 2-byte push (little-endian). It
// returns the value and the bytes it took.
func legacyCount(script []byte) (v, size int, ok bool) {
	if len(script) == 0 {
		return 0, 0, false
	}
	switch op := script[0]; {
	case op >= legacyPush1 && op <= legacyPush16:
		return int(op-legacyPush1) + 1, 1, true
	case op == 1 && len(script) > 1:
		return int(script[1]), 2, true
	case op == 2 && len(script) > 2:
		return int(binary.LittleEndian.Uint16(script[1:3])), 3, true
	}
	return 0, 0, false
}

// parseLegacyMultisig reads m and the keys (in script order) of a Neo 2
// m-of-n script: m, n key pushes, n, CHECKMULTISIG and an optional RET.
func parseLegacyMultisig(script []byte) (int, []*keys.PublicKey, bool) {
	m, pos, ok := legacyCount(script)
	if !ok {
		return 0, nil, false
	}
	var pubs []*keys.PublicKey
	for pos+34 <= len(script) && script[pos] == legacyPushKey {
		pub, err := keys.NewPublicKeyFromBytes(script[pos+1 : pos+34])
		if err != nil {
			return 0, nil, false
		}
		pubs = append(pubs, pub)
		pos += 34
	}
	if len(pubs) == 0 || m < 1 || m > len(pubs) {
		return 0, nil, false
	}
	n, size, ok := legacyCount(script[pos:])
	if !ok || n != len(pubs) {
		return 0, nil, false
	}
	switch tail := script[pos+size:]; {
	case len(tail) == 1 && tail[0] == legacyCheckMultisig,
		len(tail) == 2 && tail[0] == legacyCheckMultisig && tail[1] == legacyRet:
		return m, pubs, true
	}
	return 0, nil, false
}
