package result

import (
	"encoding/base64"
	"encoding/json"

	"github.com/n3node/n3node/pkg/core/mpt/mptproof"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// StateRoot is a getstateroot result (the local or validated state root of
// a height).
type StateRoot struct {
	Version   byte                  `json:"version"`
	Index     uint32                `json:"index"`
	RootHash  hash.Uint256          `json:"roothash"`
	Witnesses []transaction.Witness `json:"witnesses"`
}

// StateHeight is a getstateheight result.
type StateHeight struct {
	Local     uint32 `json:"localrootindex"`
	Validated uint32 `json:"validatedrootindex"`
}

// ProofWithKey is a getproof result and a verifyproof parameter: the
// base64 of the binary mptproof.ProofWithKey.
type ProofWithKey mptproof.ProofWithKey

// String returns the base64 form.
func (p *ProofWithKey) String() string {
	return base64.StdEncoding.EncodeToString((*mptproof.ProofWithKey)(p).Bytes())
}

// FromString decodes the base64 form.
func (p *ProofWithKey) FromString(s string) error {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	d, err := mptproof.Decode(raw)
	if err != nil {
		return err
	}
	*p = ProofWithKey(*d)
	return nil
}

// MarshalJSON writes the base64 form as a JSON string.
func (p *ProofWithKey) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

// UnmarshalJSON reads the base64 form.
func (p *ProofWithKey) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	return p.FromString(s)
}

// VerifyProof is a verifyproof result: the proven value (nil prints
// "invalid").
type VerifyProof struct {
	Value []byte
}

// MarshalJSON writes the base64 value or "invalid".
func (p *VerifyProof) MarshalJSON() ([]byte, error) {
	if p.Value == nil {
		return []byte(`"invalid"`), nil
	}
	return json.Marshal(p.Value)
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (p *VerifyProof) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if s == "invalid" {
		p.Value = nil
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	if b == nil {
		b = []byte{}
	}
	p.Value = b
	return nil
}

// KeyValue is a storage item (findstates, findstorage).
type KeyValue struct {
	Key   []byte `json:"key"`
	Value []byte `json:"value"`
}

// FindStates is a findstates result: items and proofs of the first and
// last ones.
type FindStates struct {
	Results    []KeyValue    `json:"results"`
	FirstProof *ProofWithKey `json:"firstProof,omitzero"`
	LastProof  *ProofWithKey `json:"lastProof,omitzero"`
	Truncated  bool          `json:"truncated"`
}

// FindStorage is a findstorage result; Next is the start of the next page.
type FindStorage struct {
	Results   []KeyValue `json:"results"`
	Next      int        `json:"next"`
	Truncated bool       `json:"truncated"`
}
