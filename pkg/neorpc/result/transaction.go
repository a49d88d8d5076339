package result

import (
	"encoding/json"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// TransactionMetadata is what a verbose getrawtransaction adds for a
// transaction on chain (all omitted for a pooled one).
type TransactionMetadata struct {
	Blockhash     hash.Uint256 `json:"blockhash,omitzero"`
	Confirmations int          `json:"confirmations,omitzero"`
	Timestamp     uint64       `json:"blocktime,omitzero"`
	VMState       string       `json:"vmstate,omitzero"`
}

// TransactionOutputRaw is a verbose getrawtransaction result: the metadata
// fields, then the transaction's.
type TransactionOutputRaw struct {
	transaction.Transaction
	TransactionMetadata
}

// MarshalJSON writes the metadata (if any) and the transaction in one
// object.
func (t TransactionOutputRaw) MarshalJSON() ([]byte, error) {
	meta, err := json.Marshal(t.TransactionMetadata)
	if err != nil {
		return nil, err
	}
	tx, err := t.Transaction.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return mergeObjects(meta, tx)
}

// UnmarshalJSON reads both parts from the same object.
func (t *TransactionOutputRaw) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &t.TransactionMetadata); err != nil {
		return err
	}
	return json.Unmarshal(data, &t.Transaction)
}
