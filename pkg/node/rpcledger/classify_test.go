package rpcledger_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/stretchr/testify/require"
)

// TestClassifyRelayError maps every ledger sentinel to neo-go's relay code
// (getRelayResult), pool failures with the bare sentinel text.
func TestClassifyRelayError(t *testing.T) {
	require.NoError(t, rpcledger.ClassifyRelayError(nil))
	for _, c := range []struct {
		err  error
		code int64
		text string
	}{
		{fmt.Errorf("%w: ValidUntilBlock = 1", core.ErrTxExpired), neorpc.ErrExpiredTransactionCode, ""},
		{core.ErrTxNotYetValid, neorpc.ErrExpiredTransactionCode, ""},
		{core.ErrAlreadyExists, neorpc.ErrAlreadyExistsCode, ""},
		{fmt.Errorf("%w: already in the memory pool", core.ErrAlreadyInPool), neorpc.ErrAlreadyInPoolCode, core.ErrAlreadyInPool.Error()},
		{fmt.Errorf("%w: full", core.ErrOOM), neorpc.ErrMempoolCapReachedCode, core.ErrOOM.Error()},
		{fmt.Errorf("%w: blocked", core.ErrPolicy), neorpc.ErrPolicyFailedCode, ""},
		{core.ErrInvalidScript, neorpc.ErrInvalidScriptCode, ""},
		{core.ErrTxTooBig, neorpc.ErrInvalidSizeCode, ""},
		{core.ErrTxSmallNetworkFee, neorpc.ErrInsufficientNetworkFeeCode, ""},
		{core.ErrInvalidAttribute, neorpc.ErrInvalidAttributeCode, ""},
		{fmt.Errorf("%w: x", core.ErrInsufficientFunds), neorpc.ErrInsufficientFundsCode, core.ErrInsufficientFunds.Error()},
		{fmt.Errorf("%w: x", core.ErrMemPoolConflict), neorpc.ErrInsufficientFundsCode, core.ErrMemPoolConflict.Error()},
		{fmt.Errorf("witness #0: %w", core.ErrInvalidSignature), neorpc.ErrInvalidSignatureCode, ""},
	} {
		err := rpcledger.ClassifyRelayError(c.err)
		var re *chainrpc.RelayError
		require.True(t, errors.As(err, &re), "%v", c.err)
		require.Equal(t, c.code, re.Code.Code, "%v", c.err)
		want := c.text
		if want == "" {
			want = c.err.Error()
		}
		require.Equal(t, want, err.Error())
	}
	other := errors.New("other")
	require.Equal(t, other, rpcledger.ClassifyRelayError(other))
}
