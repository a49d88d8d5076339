package cryptolib

import "github.com/n3node/n3node/pkg/crypto/keys"

// VerifyWithEd25519V0 is verifyWithEd25519 from Echidna to Gorgon (C#
// VerifyWithEd25519V0): wrong lengths and keys BouncyCastle refuses give
// false, never a fault.
func VerifyWithEd25519V0(message, pubkey, signature []byte) bool {
	ok, err := keys.VerifyEd25519(pubkey, message, signature)
	return err == nil && ok
}

// VerifyWithEd25519V1 is verifyWithEd25519 from Gorgon (C#
// VerifyWithEd25519V1): a signature that is not 64 bytes, a key that is
// not 32 bytes, and a 32-byte key BouncyCastle refuses (not canonical, not
// on the curve, or of small order) fault. neo-go 0.120.0 faults only on
// the lengths and uses crypto/ed25519's cofactorless check.
func VerifyWithEd25519V1(message, pubkey, signature []byte) (bool, error) {
	return keys.VerifyEd25519(pubkey, message, signature)
}

// RecoverSecp256K1 is recoverSecp256K1 (Echidna): the compressed 33-byte
// key, or nil (Null) on any failure; it never faults. See
// keys.RecoverSecp256k1 for the rules.
func RecoverSecp256K1(messageHash, signature []byte) []byte {
	k, err := keys.RecoverSecp256k1(messageHash, signature)
	if err != nil {
		return nil
	}
	return k
}
