package oracle_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	ngfee "github.com/nspcc-dev/neo-go/pkg/core/fee"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/services/oracle"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// TestMultisigFeeNeoGo compares the network fee and witness size of the
// Oracle nodes' multisig with neo-go's fee.Calculate.
func TestMultisigFeeNeoGo(t *testing.T) {
	ks := testchain.Keys(t, 3, 21)
	cases := 0
	for n := 1; n <= len(ks); n++ {
		pubs := testchain.Pubs(ks[:n])
		script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
		require.NoError(t, err)
		for _, base := range []int64{30 * 10000, 10000, 1, 123457, 1000 * 10000} {
			want, wantSize := ngfee.Calculate(base, script)
			got, size, ok := oracle.MultisigNetFee(base, script)
			require.True(t, ok)
			require.Equal(t, want, got, "n=%d base=%d", n, base)
			require.Equal(t, wantSize, size, "n=%d base=%d", n, base)
			cases++
		}
	}
	require.Equal(t, 21*5, cases)
}
