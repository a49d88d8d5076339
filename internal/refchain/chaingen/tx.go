package chaingen

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// Witness scopes (C#: WitnessScope).
const (
	ScopeNone            = 0x00
	ScopeCalledByEntry   = 0x01
	ScopeCustomContracts = 0x10
	ScopeWitnessRules    = 0x40
	ScopeGlobal          = 0x80
)

// Attribute types (C#: TransactionAttributeType).
const (
	AttrHighPriority   = 0x01
	AttrNotValidBefore = 0x20
	AttrConflicts      = 0x21
)

// Witness rule encoding (C#: WitnessRuleAction, WitnessConditionType).
const (
	RuleDeny          = 0x00
	RuleAllow         = 0x01
	CondBoolean       = 0x00
	CondNot           = 0x01
	CondScriptHash    = 0x18
	CondCalledByEntry = 0x20
)

// Signer is a transaction signer.
type Signer struct {
	Account          hash.Uint160
	Scopes           byte
	AllowedContracts []hash.Uint160
	// Rules is the serialized rule list body (count excluded), one entry per rule.
	Rules [][]byte
}

// Attribute is a transaction attribute: its type and serialized value.
type Attribute struct {
	Type byte
	Data []byte
}

// Witness is an invocation/verification script pair.
type Witness struct {
	Invocation, Verification []byte
}

// Tx is a version-0 transaction.
type Tx struct {
	Nonce           uint32
	SystemFee       int64
	NetworkFee      int64
	ValidUntilBlock uint32
	Signers         []Signer
	Attributes      []Attribute
	Script          []byte
	Witnesses       []Witness
}

func (t *Tx) encodeUnsigned(w *nio.BinWriter) {
	w.WriteU8(0)
	w.WriteU32LE(t.Nonce)
	w.WriteI64LE(t.SystemFee)
	w.WriteI64LE(t.NetworkFee)
	w.WriteU32LE(t.ValidUntilBlock)
	w.WriteVarUint(uint64(len(t.Signers)))
	for _, s := range t.Signers {
		w.WriteBytes(s.Account[:])
		w.WriteU8(s.Scopes)
		if s.Scopes&ScopeCustomContracts != 0 {
			w.WriteVarUint(uint64(len(s.AllowedContracts)))
			for _, c := range s.AllowedContracts {
				w.WriteBytes(c[:])
			}
		}
		if s.Scopes&ScopeWitnessRules != 0 {
			w.WriteVarUint(uint64(len(s.Rules)))
			for _, r := range s.Rules {
				w.WriteBytes(r)
			}
		}
	}
	w.WriteVarUint(uint64(len(t.Attributes)))
	for _, a := range t.Attributes {
		w.WriteU8(a.Type)
		w.WriteBytes(a.Data)
	}
	w.WriteVarBytes(t.Script)
}

// Unsigned returns the hashed part of the transaction.
func (t *Tx) Unsigned() []byte {
	w := nio.NewBufBinWriter()
	t.encodeUnsigned(w)
	return w.Bytes()
}

// Hash is SHA-256 of the unsigned part.
func (t *Tx) Hash() hash.Uint256 { return hash.Sha256(t.Unsigned()) }

// Bytes returns the full serialized transaction.
func (t *Tx) Bytes() []byte {
	w := nio.NewBufBinWriter()
	t.encodeUnsigned(w)
	w.WriteVarUint(uint64(len(t.Witnesses)))
	for _, wt := range t.Witnesses {
		w.WriteVarBytes(wt.Invocation)
		w.WriteVarBytes(wt.Verification)
	}
	return w.Bytes()
}

// SignData is what a witness signs: the network magic (u32 LE) followed by
// the transaction hash.
func SignData(magic uint32, h hash.Uint256) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, magic), h[:]...)
}

// Account is a scenario account: a verification script and the keys that
// satisfy it (one for a signature account, m for an m-of-n multisig).
type Account struct {
	Name         string
	Keys         []*Key
	Verification []byte
	Hash         hash.Uint160
}

// NewSigAccount is a standard single-signature account.
func NewSigAccount(name string, k *Key) *Account {
	v := SignatureScript(k.Pub)
	return &Account{Name: name, Keys: []*Key{k}, Verification: v, Hash: hash.Hash160(v)}
}

// NewMultisigAccount is an m-of-len(keys) multisig account; signing uses the
// first m keys in script order.
func NewMultisigAccount(name string, m int, keys []*Key) *Account {
	pubs := make([][]byte, len(keys))
	for i, k := range keys {
		pubs[i] = k.Pub
	}
	sorted := slices.Clone(keys)
	slices.SortFunc(sorted, func(a, b *Key) int { return comparePub(a.Pub, b.Pub) })
	v := MultisigScript(m, pubs)
	return &Account{Name: name, Keys: sorted[:m], Verification: v, Hash: hash.Hash160(v)}
}

// Address is the account's N3 address.
func (a *Account) Address() string { return Address(a.Hash) }

// Invocation signs data with the account's keys and returns the invocation
// script (one PUSHDATA1 of 64 bytes per signature).
func (a *Account) Invocation(data []byte) ([]byte, error) {
	b := NewBuilder()
	for _, k := range a.Keys {
		sig, err := k.Sign(data)
		if err != nil {
			return nil, fmt.Errorf("chaingen: sign for %s: %w", a.Name, err)
		}
		b.Bytes(sig)
	}
	return b.Script()
}
