package native_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

var treasuryHash = nativenames.TreasuryHash

func TestTreasuryMethods(t *testing.T) {
	c := chaintest.New(t)
	d := config.HFDefault
	checkMethodSpecs(t, c.Natives.ByID(nativenames.TreasuryID), []methodSpec{
		{"verify", 0, 1 << 5, callflag.ReadStates, d, d},
		{"onNEP11Payment", 4, 1 << 5, callflag.None, d, d},
		{"onNEP17Payment", 3, 1 << 5, callflag.None, d, d},
	})
	md := c.Natives.ByID(nativenames.TreasuryID).Metadata()
	require.Equal(t, config.HFFaun, md.ActiveIn)
	require.Equal(t, []string{"NEP-26", "NEP-27", "NEP-30"}, md.HFSpecific(config.HFFaun).Manifest.SupportedStandards)
	mustFault(t, hfChain(t, config.HFEchidna), treasuryHash, "onNEP17Payment", c.CommitteeAddress(), 1, nil)
}

func TestTreasuryPayments(t *testing.T) {
	c := chaintest.New(t)
	from := c.CommitteeAddress()
	// The arguments are converted, nothing else happens.
	require.Equal(t, stackitem.Null{}, mustInvoke(t, c, treasuryHash, "onNEP17Payment", from, 10, []any{1, "x"}))
	require.Equal(t, stackitem.Null{}, mustInvoke(t, c, treasuryHash, "onNEP11Payment", from, 1, []byte{1, 2}, nil))
	for _, args := range [][]any{{nil, 1, nil}, {[]byte{1}, 1, nil}, {from, stackitem.NewMap(), nil}} {
		mustFault(t, c, treasuryHash, "onNEP17Payment", args...)
	}
	for _, args := range [][]any{{nil, 1, []byte{1}, nil}, {from, 1, nil, nil}, {from, stackitem.NewArray(nil), []byte{1}, nil}} {
		mustFault(t, c, treasuryHash, "onNEP11Payment", args...)
	}
	if c.Natives.ByID(nativenames.GasID) == nil {
		return
	}
	// GAS and NEO transfers to Treasury are accepted.
	aer := c.RunOK(callScript(t, nativenames.GasHash, "transfer", from, treasuryHash, 5_0000_0000, nil))
	require.True(t, itemBool(t, aer.Stack[0]))
	require.EqualValues(t, 5_0000_0000, gasBalance(t, c, treasuryHash))
	aer = c.RunOK(callScript(t, nativenames.NeoHash, "transfer", from, treasuryHash, 10, nil))
	require.True(t, itemBool(t, aer.Stack[0]))
}

// TestTreasuryVerify: Treasury's witness is the committee's.
func TestTreasuryVerify(t *testing.T) {
	c := chaintest.New(t)
	require.True(t, itemBool(t, mustInvoke(t, c, treasuryHash, "verify")))
	it, fault := invokeSigned(t, c, []transaction.Signer{chaintest.AccountSigner(seedKey(t, "treasury stranger"))}, treasuryHash, "verify")
	require.Empty(t, fault)
	require.False(t, itemBool(t, it))
	// As a witness: a transaction with Treasury as a signer.
	tx := c.NewTx([]byte{0x11}, transaction.Signer{Account: treasuryHash, Scopes: transaction.None})
	w := &transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	_, err := c.Natives.VerifyWitness(c, c.DAO, nil, tx, treasuryHash, w, 1_0000_0000)
	require.Error(t, err) // the committee does not sign this transaction
	tx = c.NewTx([]byte{0x11}, transaction.Signer{Account: treasuryHash, Scopes: transaction.None}, c.CommitteeSigner())
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, treasuryHash, w, 1_0000_0000)
	require.NoError(t, err)
}
