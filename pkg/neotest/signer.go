package neotest

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/config/netmode"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/wallet"

	nio "github.com/n3node/n3node/pkg/io"
)

// Hashable is anything signed by its hash: a transaction or a block.
type Hashable interface {
	Hash() hash.Uint256
}

// Signer witnesses transactions and blocks for one account.
type Signer interface {
	// Script is the verification script (empty for a contract account).
	Script() []byte
	// ScriptHash is the account.
	ScriptHash() hash.Uint160
	// SignHashable returns the invocation script that witnesses item on
	// the network with the given magic.
	SignHashable(magic uint32, item Hashable) []byte
	// SignTx sets the account's witness on tx; tx must list the account
	// among its signers and carry the witnesses of the signers before it.
	SignTx(magic netmode.Magic, tx *transaction.Transaction) error
}

// SingleSigner is a signer backed by one wallet account (a simple
// signature or a deployed contract).
type SingleSigner interface {
	Signer
	// Account is the wallet account (its key signs arbitrary data).
	Account() *wallet.Account
}

// MultiSigner is an m-of-n multi-signature signer.
type MultiSigner interface {
	Signer
	// Single returns a simple-signature signer for the n-th key of the
	// multisig (keys in ascending order).
	Single(n int) SingleSigner
}

// pushSig appends PUSHDATA1 64 sig.
func pushSig(dst, sig []byte) []byte {
	w := nio.NewBufBinWriter()
	emit.Bytes(w, sig)
	return append(dst, w.Bytes()...)
}

// keySigner is a simple-signature account.
type keySigner struct{ acc *wallet.Account }

// NewSingleSigner returns a signer for a simple-signature account. It
// panics if acc's contract is not a signature contract.
func NewSingleSigner(acc *wallet.Account) SingleSigner {
	if acc.Contract == nil || !smartcontract.IsSignatureContract(acc.Contract.Script) {
		panic("neotest: account must have a simple-signature verification script")
	}
	return keySigner{acc}
}

func (s keySigner) Script() []byte           { return s.acc.Contract.Script }
func (s keySigner) ScriptHash() hash.Uint160 { return s.acc.Contract.ScriptHash() }
func (s keySigner) Account() *wallet.Account { return s.acc }
func (s keySigner) SignHashable(magic uint32, item Hashable) []byte {
	return pushSig(nil, s.acc.SignData(magic, item.Hash()))
}
func (s keySigner) SignTx(magic netmode.Magic, tx *transaction.Transaction) error {
	return s.acc.SignTx(uint32(magic), tx)
}

// multiSigner holds at least m of the n keys of one multisig script, in
// ascending public key order (the order CHECKMULTISIG expects).
type multiSigner struct {
	accs   []*wallet.Account
	m      int
	script []byte
}

// NewMultiSigner returns a signer for multi-signature accounts sharing one
// script; there must be at least as many accounts as the script needs
// signatures. It panics on an empty list, a non-multisig script or
// accounts with different scripts.
func NewMultiSigner(accs ...*wallet.Account) MultiSigner {
	if len(accs) == 0 {
		panic("neotest: empty account list")
	}
	script := accs[0].Contract.Script
	m, _, ok := smartcontract.ParseMultiSigContractMN(script)
	if !ok {
		panic("neotest: accounts must have a multi-signature verification script")
	}
	if len(accs) < m {
		panic(fmt.Sprintf("neotest: the script needs %d signatures, %d accounts given", m, len(accs)))
	}
	for _, a := range accs[1:] {
		if !bytes.Equal(a.Contract.Script, script) {
			panic("neotest: accounts must share one verification script")
		}
	}
	sorted := slices.Clone(accs)
	slices.SortFunc(sorted, func(a, b *wallet.Account) int { return a.PublicKey().Cmp(b.PublicKey()) })
	return &multiSigner{accs: sorted, m: m, script: script}
}

func (s *multiSigner) Script() []byte           { return s.script }
func (s *multiSigner) ScriptHash() hash.Uint160 { return hash.Hash160(s.script) }

// SignHashable signs with the first m keys.
func (s *multiSigner) SignHashable(magic uint32, item Hashable) []byte {
	var inv []byte
	h := item.Hash()
	for _, a := range s.accs[:s.m] {
		inv = pushSig(inv, a.SignData(magic, h))
	}
	return inv
}

// SignTx puts the whole multisig witness at the signer's position.
func (s *multiSigner) SignTx(magic netmode.Magic, tx *transaction.Transaction) error {
	acc := s.ScriptHash()
	pos := slices.IndexFunc(tx.Signers, func(sg transaction.Signer) bool { return sg.Account == acc })
	if pos < 0 {
		return wallet.ErrNotSigner
	}
	if len(tx.Witnesses) < pos {
		return wallet.ErrPrevSigner
	}
	w := transaction.Witness{InvocationScript: s.SignHashable(uint32(magic), tx), VerificationScript: s.script}
	if len(tx.Witnesses) == pos {
		tx.Witnesses = append(tx.Witnesses, w)
	} else {
		tx.Witnesses[pos] = w
	}
	return nil
}

func (s *multiSigner) Single(n int) SingleSigner {
	if n < 0 || n >= len(s.accs) {
		panic("neotest: invalid multisig key index")
	}
	return NewSingleSigner(wallet.NewAccountFromPrivateKey(s.accs[n].PrivateKey()))
}

// contractSigner is a deployed contract account witnessed by its verify
// method.
type contractSigner struct{ acc *wallet.Account }

// NewContractSigner returns a signer for the contract h; invParams gives
// the arguments of its verify method for a transaction (pushed in order
// as the invocation script).
func NewContractSigner(h hash.Uint160, invParams func(tx *transaction.Transaction) []any) SingleSigner {
	build := func(tx *transaction.Transaction) ([]byte, error) {
		return emit.Script(func(w *nio.BinWriter) {
			for _, p := range invParams(tx) {
				emit.Any(w, p)
			}
		})
	}
	return contractSigner{wallet.NewContractAccount(h, 0, build)}
}

func (s contractSigner) Script() []byte           { return []byte{} }
func (s contractSigner) ScriptHash() hash.Uint160 { return s.acc.ScriptHash() }
func (s contractSigner) Account() *wallet.Account { return s.acc }

// SignHashable panics: a contract witness depends on the container.
func (s contractSigner) SignHashable(uint32, Hashable) []byte {
	panic("neotest: a contract signer cannot sign arbitrary data")
}
func (s contractSigner) SignTx(magic netmode.Magic, tx *transaction.Transaction) error {
	return s.acc.SignTx(uint32(magic), tx)
}
