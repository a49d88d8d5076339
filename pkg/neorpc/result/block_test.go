package result

import (
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// A verbose block is the metadata fields followed by block.Block's own
// JSON.
func TestBlockJSON(t *testing.T) {
	b := &block.Block{Header: block.Header{Index: 5, Timestamp: 77, Witness: transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}}
	for range 2 {
		tx := transaction.New([]byte{0x11}, 1, 2, 3, 4)
		tx.Signers = []transaction.Signer{{Account: hash.Uint160{1}}}
		tx.Witnesses = []transaction.Witness{{}}
		b.Transactions = append(b.Transactions, tx)
	}
	next := hash.Uint256{9}
	meta := BlockMetadata{Size: b.Size(), NextBlockHash: &next, Confirmations: 3}
	for _, blk := range []*block.Block{b, {Header: b.Header}} {
		got, err := json.Marshal(Block{Block: *blk, BlockMetadata: meta})
		require.NoError(t, err)
		m, err := json.Marshal(meta)
		require.NoError(t, err)
		body, err := json.Marshal(blk)
		require.NoError(t, err)
		require.Equal(t, string(m[:len(m)-1])+","+string(body[1:]), string(got))
	}
}
