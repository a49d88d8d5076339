package cryptoops

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/crypto"
	ncrypto "github.com/nspcc-dev/neo-go/pkg/interop/native/crypto"
)

func Sig(pub interop.PublicKey, sig interop.Signature) bool {
	return crypto.CheckSig(pub, sig)
}

func Multi(pubs []interop.PublicKey, sigs []interop.Signature) bool {
	return crypto.CheckMultisig(pubs, sigs)
}

func Hashes(b []byte) int {
	return len(ncrypto.Sha256(b)) + len(ncrypto.Ripemd160(b)) + len(ncrypto.Keccak256(b)) + int(ncrypto.Murmur32(b, 0)[0])
}

func Verify(msg []byte, pub interop.PublicKey, sig interop.Signature) bool {
	return ncrypto.VerifyWithECDsa(msg, pub, sig, ncrypto.Secp256r1Sha256)
}
