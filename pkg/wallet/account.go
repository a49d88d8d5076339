package wallet

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Account errors.
var (
	ErrLocked           = errors.New("account is locked")
	ErrNoContract       = errors.New("account has no contract")
	ErrNotSigner        = errors.New("transaction is not signed by this account")
	ErrPrevSigner       = errors.New("transaction is not yet signed by the previous signer")
	ErrNoKey            = errors.New("account key is not available (need to decrypt?)")
	ErrNoEncryptedWIF   = errors.New("no encrypted wif in the account")
	ErrKeyNotInMultisig = errors.New("own public key was not found among multisig keys")
)

// Account is one NEP-6 account: an address, its NEP-2 encrypted key (empty
// for watch-only and contract accounts) and the contract that verifies it.
type Account struct {
	// Address is the N3 address of the contract script.
	Address string `json:"address"`
	// EncryptedWIF is the NEP-2 encrypted private key.
	EncryptedWIF string `json:"key"`
	// Label is the user's name for the account.
	Label string `json:"label"`
	// Contract verifies the account; nil for a watch-only address.
	Contract *Contract `json:"contract"`
	// Locked accounts must not spend.
	Locked bool `json:"lock"`
	// Default marks the default (change) account.
	Default bool `json:"isDefault"`
	// Extra is the C# per-account "extra" value, kept verbatim.
	Extra json.RawMessage `json:"extra,omitempty"`

	privateKey *keys.PrivateKey
	scriptHash hash.Uint160
	hashed     bool
}

// Contract is the NEP-6 contract of an account.
type Contract struct {
	// Script is the verification script (nil for deployed contracts).
	Script []byte `json:"script"`
	// Parameters of the verification script, in invocation order.
	Parameters []ContractParam `json:"parameters"`
	// Deployed: the account is a deployed contract verified by its
	// "verify" method rather than by Script.
	Deployed bool `json:"deployed"`

	// InvocationBuilder, if set, builds the invocation script for a
	// deployed or non-standard contract account when signing.
	InvocationBuilder func(tx *transaction.Transaction) ([]byte, error) `json:"-"`
}

// ContractParam names and types one verification parameter.
type ContractParam struct {
	Name string                  `json:"name"`
	Type smartcontract.ParamType `json:"type"`
}

// ScriptHash returns the hash of the contract's script.
func (c *Contract) ScriptHash() hash.Uint160 { return hash.Hash160(c.Script) }

// signatureParams returns n Signature parameters named parameter0.. as
// neo-go and C# name them.
func signatureParams(n int) []ContractParam {
	ps := make([]ContractParam, n)
	for i := range ps {
		ps[i] = ContractParam{Name: fmt.Sprintf("parameter%d", i), Type: smartcontract.SignatureType}
	}
	return ps
}

// NewAccount returns an account with a new random key (not yet encrypted:
// call Encrypt before saving).
func NewAccount() (*Account, error) {
	k, err := keys.NewPrivateKey()
	if err != nil {
		return nil, err
	}
	return NewAccountFromPrivateKey(k), nil
}

// NewAccountFromPrivateKey returns a standard single-signature account
// for k, able to sign, not yet encrypted.
func NewAccountFromPrivateKey(k *keys.PrivateKey) *Account {
	pub := k.PublicKey()
	return &Account{
		Address:    k.Address(),
		Contract:   &Contract{Script: pub.VerificationScript(), Parameters: signatureParams(1)},
		privateKey: k,
		scriptHash: pub.ScriptHash(),
		hashed:     true,
	}
}

// NewAccountFromWIF imports a WIF private key.
func NewAccountFromWIF(wif string) (*Account, error) {
	k, err := keys.NewPrivateKeyFromWIF(wif)
	if err != nil {
		return nil, err
	}
	return NewAccountFromPrivateKey(k), nil
}

// NewAccountFromEncryptedWIF imports a NEP-2 key, decrypting it with pass.
// The account keeps the given encrypted form.
func NewAccountFromEncryptedWIF(nep2, pass string, p keys.ScryptParams) (*Account, error) {
	k, err := keys.NEP2Decrypt(nep2, pass, p)
	if err != nil {
		return nil, err
	}
	a := NewAccountFromPrivateKey(k)
	a.EncryptedWIF = nep2
	return a, nil
}

// NewContractAccount returns an account for a deployed contract h whose
// verify method takes nParams parameters; build makes the invocation
// script when signing (nil: empty invocation script).
func NewContractAccount(h hash.Uint160, nParams int, build func(*transaction.Transaction) ([]byte, error)) *Account {
	ps := make([]ContractParam, nParams)
	return &Account{
		Address:    address.FromUint160(h),
		Contract:   &Contract{Parameters: ps, Deployed: true, InvocationBuilder: build},
		scriptHash: h,
		hashed:     true,
	}
}

// NewMultisigAccount returns an m-of-len(pubs) multi-signature account
// holding k's share; k's public key must be among pubs.
func NewMultisigAccount(k *keys.PrivateKey, m int, pubs []*keys.PublicKey) (*Account, error) {
	a := NewAccountFromPrivateKey(k)
	if err := a.ConvertMultisig(m, pubs); err != nil {
		return nil, err
	}
	return a, nil
}

// ScriptHash returns the account's script hash (decoded from Address; the
// zero hash if Address is invalid).
func (a *Account) ScriptHash() hash.Uint160 {
	if !a.hashed {
		a.scriptHash, _ = address.ToUint160(a.Address)
		a.hashed = true
	}
	return a.scriptHash
}

// SetScriptHash points the account at another script hash: Address
// becomes its address (for custom and deployed contract accounts made
// from a key).
func (a *Account) SetScriptHash(h hash.Uint160) {
	a.Address = address.FromUint160(h)
	a.scriptHash, a.hashed = h, true
}

// CanSign reports whether the account is unlocked and decrypted.
func (a *Account) CanSign() bool { return !a.Locked && a.privateKey != nil }

// PrivateKey returns the decrypted key, or nil. Do not keep it.
func (a *Account) PrivateKey() *keys.PrivateKey { return a.privateKey }

// PublicKey returns the decrypted key's public key, or nil if the account
// cannot sign.
func (a *Account) PublicKey() *keys.PublicKey {
	if !a.CanSign() {
		return nil
	}
	return a.privateKey.PublicKey()
}

// GetVerificationScript returns the contract script, or the standard one
// of the decrypted key if there is no contract.
func (a *Account) GetVerificationScript() []byte {
	if a.Contract != nil {
		return a.Contract.Script
	}
	if a.privateKey != nil {
		return a.privateKey.PublicKey().VerificationScript()
	}
	return nil
}

// Decrypt decrypts the NEP-2 key with passphrase and the wallet's scrypt
// parameters; the account can sign until Close.
func (a *Account) Decrypt(passphrase string, p keys.ScryptParams) error {
	if a.EncryptedWIF == "" {
		return ErrNoEncryptedWIF
	}
	k, err := keys.NEP2Decrypt(a.EncryptedWIF, passphrase, p)
	if err != nil {
		return err
	}
	a.privateKey = k
	return nil
}

// Encrypt sets EncryptedWIF from the decrypted key.
func (a *Account) Encrypt(passphrase string, p keys.ScryptParams) error {
	if a.privateKey == nil {
		return ErrNoKey
	}
	s, err := keys.NEP2Encrypt(a.privateKey, passphrase, p)
	if err != nil {
		return err
	}
	a.EncryptedWIF = s
	return nil
}

// Close forgets the decrypted key.
func (a *Account) Close() {
	if a.privateKey != nil {
		a.privateKey.Destroy()
		a.privateKey = nil
	}
}

// ConvertMultisig turns the account into an m-of-len(pubs) multi-signature
// account holding the decrypted key's share.
func (a *Account) ConvertMultisig(m int, pubs []*keys.PublicKey) error {
	if a.Locked {
		return ErrLocked
	}
	if a.privateKey == nil {
		return ErrNoKey
	}
	return a.ConvertMultisigEncrypted(a.privateKey.PublicKey(), m, pubs)
}

// ConvertMultisigEncrypted is ConvertMultisig for an account whose key is
// still encrypted: own is its public key.
func (a *Account) ConvertMultisigEncrypted(own *keys.PublicKey, m int, pubs []*keys.PublicKey) error {
	if !slices.ContainsFunc(pubs, own.Equal) {
		return ErrKeyNotInMultisig
	}
	script, err := smartcontract.CreateMultiSigRedeemScript(m, pubs)
	if err != nil {
		return err
	}
	a.scriptHash = hash.Hash160(script)
	a.hashed = true
	a.Address = address.FromUint160(a.scriptHash)
	a.Contract = &Contract{Script: script, Parameters: signatureParams(m)}
	return nil
}

// SignData signs SHA-256(magic LE || h), the message Neo signs for a
// transaction or block hash h. It returns nil if the account cannot sign.
func (a *Account) SignData(magic uint32, h hash.Uint256) []byte {
	if !a.CanSign() {
		return nil
	}
	msg := transaction.SignData(magic, h)
	return a.privateKey.Sign(msg[:])
}

// SignTx adds the account's witness to t for network magic. The account
// must be one of t's signers and the signers before it must have their
// witnesses (possibly empty placeholders) already. A single-signature
// account writes PUSHDATA1 64 <signature>; a multi-signature account
// appends its signature to the invocation script (use the parameter
// context to collect and order the shares of several wallets); a deployed
// contract account uses its InvocationBuilder.
func (a *Account) SignTx(magic uint32, t *transaction.Transaction) error {
	if a.Locked {
		return ErrLocked
	}
	if a.Contract == nil {
		return ErrNoContract
	}
	pos := slices.IndexFunc(t.Signers, func(s transaction.Signer) bool { return s.Account == a.ScriptHash() })
	if pos < 0 {
		return ErrNotSigner
	}
	if len(t.Witnesses) < pos {
		return ErrPrevSigner
	}
	if len(t.Witnesses) == pos {
		t.Witnesses = append(t.Witnesses, transaction.Witness{VerificationScript: a.Contract.Script})
	}
	if build := a.Contract.InvocationBuilder; build != nil {
		inv, err := build(t)
		t.Witnesses[pos].InvocationScript = inv
		return err
	}
	if len(a.Contract.Parameters) == 0 {
		return nil
	}
	if a.privateKey == nil {
		return ErrNoKey
	}
	sig := a.SignData(magic, t.Hash())
	w := &t.Witnesses[pos]
	// The old script may alias a decoded transaction's buffer: never
	// write into it.
	var inv []byte
	if len(a.Contract.Parameters) > 1 {
		inv = slices.Clip(w.InvocationScript)
	}
	inv = append(inv, opPushData1, keys.SignatureLen)
	w.InvocationScript = append(inv, sig...)
	return nil
}

// opPushData1 is the VM's PUSHDATA1 opcode.
const opPushData1 = 0x0c
