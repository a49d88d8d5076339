package context

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	nio "github.com/n3node/n3node/pkg/io"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/wallet"
)

// TransactionType is the context type of transactions (the C# type name).
const TransactionType = "Neo.Network.P2P.Payloads.Transaction"

// compatTransactionType is the Neo 2 name, still accepted when reading.
const compatTransactionType = "Neo.Core.ContractTransaction"

// Errors.
var (
	ErrUnsupportedType  = errors.New("unsupported verifiable type")
	ErrHashMismatch     = errors.New("hash parameter doesn't match calculated verifiable hash")
	ErrNotSigner        = errors.New("script hash is not a signer of the transaction")
	ErrWitnessNotFound  = errors.New("witness not found")
	ErrNotSigned        = errors.New("parameter has no value (not signed yet?)")
	ErrAlreadySigned    = errors.New("signature is already added")
	ErrKeyNotInScript   = errors.New("public key is not present in script")
	ErrBrokenSignatures = errors.New("broken signature set (wrong keys?)")
	ErrNoSignatureParam = errors.New("missing signature parameter")
	ErrManySignatures   = errors.New("multiple signature parameters in non-multisig contract")
	ErrCannotSign       = errors.New("account cannot sign (locked or not decrypted)")
)

// Item is the witness being assembled for one script hash.
type Item struct {
	// Script is the verification script (nil for a deployed contract).
	Script []byte `json:"script"`
	// Parameters are the invocation parameters, in contract order.
	Parameters []smartcontract.Parameter `json:"parameters"`
	// Signatures by compressed public key hex (multi-signature items).
	Signatures map[string][]byte `json:"signatures"`
}

// IsComplete reports whether every parameter has a value.
func (it *Item) IsComplete() bool {
	for i := range it.Parameters {
		if it.Parameters[i].Value == nil {
			return false
		}
	}
	return true
}

// ParameterContext is a transaction with the witness parameters collected
// so far.
type ParameterContext struct {
	// Type is TransactionType.
	Type string
	// Network is the magic the signatures are made for.
	Network uint32
	// Tx is the transaction being signed.
	Tx *transaction.Transaction
	// Items by script hash.
	Items map[hash.Uint160]*Item
}

// NewParameterContext returns an empty context for tx.
func NewParameterContext(network uint32, tx *transaction.Transaction) *ParameterContext {
	return &ParameterContext{Type: TransactionType, Network: network, Tx: tx, Items: make(map[hash.Uint160]*Item)}
}

// ScriptHashes returns the script hashes that need witnesses: the
// transaction's signers, in order.
func (c *ParameterContext) ScriptHashes() []hash.Uint160 {
	res := make([]hash.Uint160, len(c.Tx.Signers))
	for i := range c.Tx.Signers {
		res[i] = c.Tx.Signers[i].Account
	}
	return res
}

// IsComplete reports whether every signer has an item with all its
// parameters set (C# Completed).
func (c *ParameterContext) IsComplete() bool {
	for _, h := range c.ScriptHashes() {
		it, ok := c.Items[h]
		if !ok || !it.IsComplete() {
			return false
		}
	}
	return true
}

// item returns the item for h, creating it from ctr.
func (c *ParameterContext) item(h hash.Uint160, ctr *wallet.Contract) (*Item, error) {
	if it, ok := c.Items[h]; ok {
		return it, nil
	}
	if !slices.Contains(c.ScriptHashes(), h) {
		return nil, fmt.Errorf("%w: %s", ErrNotSigner, h.StringLE())
	}
	it := &Item{Parameters: make([]smartcontract.Parameter, len(ctr.Parameters)), Signatures: make(map[string][]byte)}
	for i := range ctr.Parameters {
		it.Parameters[i].Type = ctr.Parameters[i].Type
	}
	if !ctr.Deployed {
		it.Script = ctr.Script
	}
	c.Items[h] = it
	return it, nil
}

// Add sets the parameters of the item for h (C# Add(contract, params)),
// for contracts whose parameters are not all signatures.
func (c *ParameterContext) Add(h hash.Uint160, ctr *wallet.Contract, params ...smartcontract.Parameter) error {
	it, err := c.item(h, ctr)
	if err != nil {
		return err
	}
	if len(params) > len(it.Parameters) {
		return fmt.Errorf("%w: %d parameters for %d", ErrInvalidParameter, len(params), len(it.Parameters))
	}
	copy(it.Parameters, params)
	return nil
}

// AddSignature adds pub's signature for the account h verified by ctr.
// For a multi-signature contract the signature is recorded and, once there
// are enough, the parameters are filled in script order; for another
// contract it fills its single Signature parameter.
func (c *ParameterContext) AddSignature(h hash.Uint160, ctr *wallet.Contract, pub *keys.PublicKey, sig []byte) error {
	if _, pubs, ok := smartcontract.ParseMultiSigContract(ctr.Script); ok {
		idx := slices.IndexFunc(pubs, pub.Equal)
		if idx < 0 {
			return ErrKeyNotInScript
		}
		it, err := c.item(h, ctr)
		if err != nil {
			return err
		}
		if it.Signatures[pub.StringCompressed()] != nil {
			return ErrAlreadySigned
		}
		it.Signatures[pub.StringCompressed()] = sig
		if len(it.Signatures) >= len(it.Parameters) {
			n := 0
			for i := len(pubs) - 1; i >= 0 && n < len(it.Parameters); i-- {
				if s := it.Signatures[pubs[i].StringCompressed()]; s != nil {
					it.Parameters[n] = smartcontract.NewSignatureParameter(s)
					n++
				}
			}
			if n != len(it.Parameters) {
				return ErrBrokenSignatures
			}
		}
		return nil
	}
	index := -1
	for i := range ctr.Parameters {
		if ctr.Parameters[i].Type == smartcontract.SignatureType {
			if index >= 0 {
				return ErrManySignatures
			}
			index = i
		}
	}
	it, err := c.item(h, ctr)
	if err != nil {
		return err
	}
	if index < 0 {
		if !ctr.Deployed {
			return ErrNoSignatureParam
		}
		return nil
	}
	it.Parameters[index] = smartcontract.NewSignatureParameter(sig)
	return nil
}

// Sign adds acc's signature of the transaction (acc must be decrypted).
func (c *ParameterContext) Sign(acc *wallet.Account) error {
	if !acc.CanSign() {
		return ErrCannotSign
	}
	if acc.Contract == nil {
		return wallet.ErrNoContract
	}
	sig := acc.SignData(c.Network, c.Tx.Hash())
	return c.AddSignature(acc.ScriptHash(), acc.Contract, acc.PublicKey(), sig)
}

// GetWitness builds the witness for h: the parameters pushed last to
// first, and the item's verification script.
func (c *ParameterContext) GetWitness(h hash.Uint160) (*transaction.Witness, error) {
	it, ok := c.Items[h]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWitnessNotFound, h.StringLE())
	}
	inv := nio.NewBufBinWriter()
	for i := len(it.Parameters) - 1; i >= 0; i-- {
		p := it.Parameters[i]
		if p.Value == nil {
			return nil, fmt.Errorf("%w: parameter #%d", ErrNotSigned, i)
		}
		if err := emitPush(inv, p); err != nil {
			return nil, fmt.Errorf("parameter #%d: %w", i, err)
		}
	}
	if inv.Err != nil {
		return nil, inv.Err
	}
	return &transaction.Witness{InvocationScript: inv.Bytes(), VerificationScript: it.Script}, nil
}

// GetCompleteTransaction replaces the transaction's witnesses with those
// built from the context and returns it.
func (c *ParameterContext) GetCompleteTransaction() (*transaction.Transaction, error) {
	ws := make([]transaction.Witness, len(c.Tx.Signers))
	for i, h := range c.ScriptHashes() {
		w, err := c.GetWitness(h)
		if err != nil {
			return nil, fmt.Errorf("can't create witness for signer #%d: %w", i, err)
		}
		ws[i] = *w
	}
	c.Tx.Witnesses = ws
	return c.Tx, nil
}

type contextJSON struct {
	Type    string                     `json:"type"`
	Network uint32                     `json:"network"`
	Hash    *hash.Uint256              `json:"hash,omitempty"`
	Data    []byte                     `json:"data"`
	Items   map[string]json.RawMessage `json:"items"`
}

// MarshalJSON writes the context in neo-go's form.
func (c ParameterContext) MarshalJSON() ([]byte, error) {
	if c.Tx == nil {
		return nil, ErrUnsupportedType
	}
	data, err := c.Tx.EncodeHashableFields()
	if err != nil {
		return nil, err
	}
	items := make(map[string]json.RawMessage, len(c.Items))
	for h, it := range c.Items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		items["0x"+h.StringLE()] = b
	}
	h := c.Tx.Hash()
	typ := c.Type
	if typ == "" {
		typ = TransactionType
	}
	return json.Marshal(contextJSON{Type: typ, Network: c.Network, Hash: &h, Data: data, Items: items})
}

// UnmarshalJSON reads a context file (neo-go's or C#'s form).
func (c *ParameterContext) UnmarshalJSON(data []byte) error {
	if err := checkDepth(data); err != nil {
		return err
	}
	var j contextJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if j.Type != TransactionType && j.Type != compatTransactionType {
		return fmt.Errorf("%w: %q", ErrUnsupportedType, j.Type)
	}
	tx, err := transaction.DecodeHashableFields(j.Data)
	if err != nil {
		return fmt.Errorf("data: %w", err)
	}
	if j.Hash != nil && !j.Hash.IsZero() && *j.Hash != tx.Hash() {
		return fmt.Errorf("%w: %s vs %s", ErrHashMismatch, j.Hash.StringLE(), tx.Hash().StringLE())
	}
	items := make(map[hash.Uint160]*Item, len(j.Items))
	for k, raw := range j.Items {
		h, err := hash.Uint160DecodeStringLE(strings.TrimPrefix(k, "0x"))
		if err != nil {
			return fmt.Errorf("item %q: %w", k, err)
		}
		it := new(Item)
		if err := json.Unmarshal(raw, it); err != nil {
			return fmt.Errorf("item %q: %w", k, err)
		}
		for pk := range it.Signatures {
			if _, err := hex.DecodeString(pk); err != nil {
				return fmt.Errorf("item %q: signature key %q: %w", k, pk, err)
			}
		}
		if it.Signatures == nil {
			it.Signatures = make(map[string][]byte)
		}
		items[h] = it
	}
	*c = ParameterContext{Type: j.Type, Network: j.Network, Tx: tx, Items: items}
	return nil
}
