package oracle_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/services/oracle"
)

// TestCreateResponseTxVectors runs the C# (UT_OracleService
// TestCreateOracleResponseTx) and neo-go (TestCreateResponseTx) vectors:
// one Oracle node, exec fee factor 30, 1000 datoshi per byte.
func TestCreateResponseTxVectors(t *testing.T) {
	c := testchain.New(t)
	require.EqualValues(t, 30*10000, c.BC.GetBaseExecFee())
	require.EqualValues(t, 1000, c.BC.FeePerByte())
	k := testchain.Keys(t, 1, 1)[0]
	s, err := oracle.New(oracle.Config{Chain: c.BC, Keys: []*keys.PrivateKey{k}, Main: config.OracleConfiguration{}})
	require.NoError(t, err)
	s.UpdateOracleNodes([]*keys.PublicKey{k.PublicKey()})

	resp := &transaction.OracleResponse{ID: 1, Code: transaction.Success, Result: []byte{0}}
	tx, err := s.CreateResponseTx(1_0000_0000, 1, resp)
	require.NoError(t, err)
	require.Equal(t, 166, tx.Size())
	require.EqualValues(t, 2198650, tx.NetworkFee)
	require.EqualValues(t, 97801350, tx.SystemFee)
	require.Equal(t, transaction.Success, resp.Code)

	// The result does not fit the fees: InsufficientFunds, no result.
	resp = &transaction.OracleResponse{ID: 1, Code: transaction.Success, Result: make([]byte, 10250)}
	tx, err = s.CreateResponseTx(1000_0000, 1, resp)
	require.NoError(t, err)
	require.Equal(t, transaction.InsufficientFunds, resp.Code)
	require.Empty(t, resp.Result)
	require.Equal(t, 165, tx.Size())
	require.EqualValues(t, 2197650, tx.NetworkFee)
	require.EqualValues(t, 7802350, tx.SystemFee)
}
