package transaction

import (
	"encoding/json"
	"errors"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
)

// transactionJSON mirrors neo-go v0.120.0's field order and types.
type transactionJSON struct {
	Hash            hash.Uint256 `json:"hash"`
	Size            int          `json:"size"`
	Version         uint8        `json:"version"`
	Nonce           uint32       `json:"nonce"`
	Sender          string       `json:"sender"`
	SystemFee       int64        `json:"sysfee,string"`
	NetworkFee      int64        `json:"netfee,string"`
	ValidUntilBlock uint32       `json:"validuntilblock"`
	Attributes      []Attribute  `json:"attributes"`
	Signers         []Signer     `json:"signers"`
	Script          []byte       `json:"script"`
	Witnesses       []Witness    `json:"witnesses"`
}

// witnessJSON has Witness's fields and JSON tags but no methods.
type witnessJSON Witness

// UnmarshalJSON parses the JSON form with the binary size limits.
func (w *Witness) UnmarshalJSON(data []byte) error {
	var aux witnessJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if len(aux.InvocationScript) > MaxInvocationScript || len(aux.VerificationScript) > MaxVerificationScript {
		return errors.New("witness script too long")
	}
	w.InvocationScript, w.VerificationScript = nonNil(aux.InvocationScript), nonNil(aux.VerificationScript)
	return nil
}

// MarshalJSON writes the neo-go RPC form: hash, size, version, nonce,
// sender (address), sysfee and netfee (strings), validuntilblock,
// attributes, signers, script (base64), witnesses. Empty lists are written
// as [].
func (t *Transaction) MarshalJSON() ([]byte, error) {
	j := transactionJSON{Hash: t.Hash(), Size: t.Size(), Sender: address.FromUint160(t.Sender())}
	j.Version, j.Nonce = t.Version, t.Nonce
	j.SystemFee, j.NetworkFee, j.ValidUntilBlock = t.SystemFee, t.NetworkFee, t.ValidUntilBlock
	j.Attributes, j.Signers = nonNil(t.Attributes), nonNil(t.Signers)
	j.Script, j.Witnesses = nonNil(t.Script), nonNil(t.Witnesses)
	return json.Marshal(j)
}

// fill sets t to the transaction j describes; hash and size are left to
// the caller.
func (j *transactionJSON) fill(t *Transaction) {
	*t = Transaction{Version: j.Version, Nonce: j.Nonce, Script: j.Script}
	t.SystemFee, t.NetworkFee, t.ValidUntilBlock = j.SystemFee, j.NetworkFee, j.ValidUntilBlock
	t.Signers, t.Attributes, t.Witnesses = j.Signers, j.Attributes, j.Witnesses
}

// ErrJSONMismatch means the JSON hash or size does not match the fields.
var ErrJSONMismatch = errors.New("transaction JSON hash or size mismatch")

// UnmarshalJSON parses the JSON form, validates the transaction and checks
// that "hash" and "size" match the fields.
func (t *Transaction) UnmarshalJSON(data []byte) error {
	var j transactionJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	j.fill(t)
	if len(t.Attributes) == 0 {
		t.Attributes = nil // as decoded from binary
	}
	if err := t.checkFields(); err != nil {
		return err
	}
	if t.Hash() != j.Hash || t.Size() != j.Size {
		return ErrJSONMismatch
	}
	return nil
}

// UnmarshalJSONUnsafe parses the JSON form without any validity check and
// takes "hash" and "size" as given (the hash a signature or a script sees
// is the declared one). It is neo-go's UnmarshalJSONUnsafe, for the fake
// transactions of the invokecontainedscript RPC method only.
func (t *Transaction) UnmarshalJSONUnsafe(data []byte) error {
	var j transactionJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	j.fill(t)
	t.hash, t.hashed, t.size = j.Hash, true, j.Size
	return nil
}
