package keys

import (
	"crypto/aes"
	"crypto/subtle"
	"errors"
	"fmt"

	"golang.org/x/crypto/scrypt"
	"golang.org/x/text/unicode/norm"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/encoding/base58"
)

// ScryptParams are the scrypt cost parameters of NEP-2.
type ScryptParams struct {
	N int `json:"n"`
	R int `json:"r"`
	P int `json:"p"`
}

// NEP2ScryptParams returns the standard NEP-2 parameters (N=16384, r=8,
// p=8), which C# and neo-go wallets use by default.
func NEP2ScryptParams() ScryptParams { return ScryptParams{N: 16384, R: 8, P: 8} }

// NEP-2 layout: 0x01 0x42 0xe0 | address hash (4) | encrypted key (32).
const nep2Len = 39

var nep2Prefix = [3]byte{0x01, 0x42, 0xe0}

// Errors returned by NEP2Decrypt.
var (
	ErrInvalidNEP2 = errors.New("invalid NEP-2 key")
	// ErrWrongPassphrase means the decrypted key does not match the address
	// hash, which in practice means a wrong passphrase.
	ErrWrongPassphrase = errors.New("wrong NEP-2 passphrase")
)

// NEP2Encrypt encrypts k with passphrase (normalized to Unicode NFC).
func NEP2Encrypt(k *PrivateKey, passphrase string, p ScryptParams) (string, error) {
	addrHash := hash.Checksum([]byte(k.Address()))
	derived, err := scrypt.Key(norm.NFC.Bytes([]byte(passphrase)), addrHash[:], p.N, p.R, p.P, 64)
	if err != nil {
		return "", err
	}
	defer clear(derived)
	priv := k.Bytes()
	defer clear(priv)
	subtle.XORBytes(priv, priv, derived[:32])
	block, err := aes.NewCipher(derived[32:])
	if err != nil {
		return "", err
	}
	out := make([]byte, 0, nep2Len)
	out = append(out, nep2Prefix[:]...)
	out = append(out, addrHash[:]...)
	out = out[:nep2Len]
	// AES-256-ECB over two blocks.
	block.Encrypt(out[7:23], priv[:16])
	block.Encrypt(out[23:39], priv[16:])
	return base58.CheckEncode(out), nil
}

// NEP2Decrypt decrypts a NEP-2 key and checks the address hash.
func NEP2Decrypt(key, passphrase string, p ScryptParams) (*PrivateKey, error) {
	return nep2Decrypt(key, passphrase, p, (*PrivateKey).Address)
}

// Neo 2 (Legacy) addresses: version 0x17 over the hash of PUSHBYTES33
// key CHECKSIG (Neo 2 opcodes).
const (
	legacyAddressVersion = 0x17
	legacyPushBytes33    = 0x21
	legacyCheckSig       = 0xac
)

// LegacyAddress is the Neo 2 address of the key's standard account.
func (k *PrivateKey) LegacyAddress() string {
	script := append(append([]byte{legacyPushBytes33}, k.pub.Bytes()...), legacyCheckSig)
	return address.EncodeVersion(legacyAddressVersion, hash.Hash160(script))
}

// NEP2DecryptLegacy decrypts the NEP-2 key of a Neo 2 wallet, whose
// address hash is over the key's Neo 2 address (LegacyAddress).
func NEP2DecryptLegacy(key, passphrase string, p ScryptParams) (*PrivateKey, error) {
	return nep2Decrypt(key, passphrase, p, (*PrivateKey).LegacyAddress)
}

func nep2Decrypt(key, passphrase string, p ScryptParams, addressOf func(*PrivateKey) string) (*PrivateKey, error) {
	b, err := base58.CheckDecode(key)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidNEP2, err)
	}
	if len(b) != nep2Len {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrInvalidNEP2, len(b), nep2Len)
	}
	if [3]byte(b[:3]) != nep2Prefix {
		return nil, fmt.Errorf("%w: bad prefix %x", ErrInvalidNEP2, b[:3])
	}
	addrHash := b[3:7]
	derived, err := scrypt.Key(norm.NFC.Bytes([]byte(passphrase)), addrHash, p.N, p.R, p.P, 64)
	if err != nil {
		return nil, err
	}
	defer clear(derived)
	block, err := aes.NewCipher(derived[32:])
	if err != nil {
		return nil, err
	}
	var priv [PrivateKeySize]byte
	defer clear(priv[:])
	block.Decrypt(priv[:16], b[7:23])
	block.Decrypt(priv[16:], b[23:39])
	subtle.XORBytes(priv[:], priv[:], derived[:32])
	k, err := NewPrivateKeyFromBytes(priv[:])
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWrongPassphrase, err)
	}
	got := hash.Checksum([]byte(addressOf(k)))
	if subtle.ConstantTimeCompare(got[:], addrHash) != 1 {
		return nil, ErrWrongPassphrase
	}
	return k, nil
}
