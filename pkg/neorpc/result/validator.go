package result

import (
	"encoding/json"

	"github.com/n3node/n3node/pkg/crypto/keys"
)

// Validator is a getnextblockvalidators element (votes as a number, -1 for
// a validator that is not a candidate).
type Validator struct {
	PublicKey keys.PublicKey `json:"publickey"`
	Votes     int64          `json:"votes"`
}

// Candidate is a getcandidates element (votes as a string); Active tells
// whether it is a next block validator.
type Candidate struct {
	PublicKey keys.PublicKey `json:"publickey"`
	Votes     int64          `json:"votes,string"`
	Active    bool           `json:"active"`
}

type validatorAux Validator

type oldValidatorAux struct {
	PublicKey keys.PublicKey `json:"publickey"`
	Votes     int64          `json:"votes,string"`
}

// UnmarshalJSON accepts votes as a number or (older servers) a string.
func (v *Validator) UnmarshalJSON(data []byte) error {
	var aux validatorAux
	if err := json.Unmarshal(data, &aux); err == nil {
		*v = Validator(aux)
		return nil
	}
	var old oldValidatorAux
	if err := json.Unmarshal(data, &old); err != nil {
		return err
	}
	*v = Validator{PublicKey: old.PublicKey, Votes: old.Votes}
	return nil
}
