package neotest

import (
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/smartcontract"

	nio "github.com/n3node/n3node/pkg/io"
)

// dummyInvocation is an invocation script of the size a real witness of s
// has: one zero signature per required key of a standard script, or the
// contract signer's own invocation for tx.
func dummyInvocation(t testing.TB, s Signer, tx *transaction.Transaction) []byte {
	t.Helper()
	if ss, ok := s.(SingleSigner); ok {
		if build := ss.Account().Contract.InvocationBuilder; build != nil {
			inv, err := build(tx)
			if err != nil {
				t.Fatalf("neotest: invocation script of %s: %v", s.ScriptHash().StringLE(), err)
			}
			return inv
		}
	}
	m := 1
	if mm, _, ok := smartcontract.ParseMultiSigContractMN(s.Script()); ok {
		m = mm
	}
	var inv []byte
	for range m {
		inv = pushSig(inv, make([]byte, 64))
	}
	return inv
}

// AddNetworkFee adds to tx's network fee what its witnesses by signers
// cost (each verification is run against the chain's state with a
// placeholder invocation script, a contract signer's with its real one)
// plus its size with those witnesses times the fee per byte and the
// attribute fees.
func AddNetworkFee(t testing.TB, bc *core.Blockchain, tx *transaction.Transaction, signers ...Signer) {
	t.Helper()
	bare := tx.Copy()
	bare.Witnesses = nil
	size := bare.Size()
	gasLeft := bc.GetMaxVerificationGAS()
	for _, s := range signers {
		w := transaction.Witness{InvocationScript: dummyInvocation(t, s, tx), VerificationScript: s.Script()}
		used, err := bc.VerifyWitness(s.ScriptHash(), bare.Copy(), &w, gasLeft)
		if err != nil && !errors.Is(err, interop.ErrInvalidSignature) {
			t.Fatalf("neotest: verification of %s: %v", s.ScriptHash().StringLE(), err)
		}
		gasLeft -= used
		tx.NetworkFee += used
		size += nio.VarBytesSize(len(w.InvocationScript)) + nio.VarBytesSize(len(w.VerificationScript))
	}
	tx.NetworkFee += int64(size)*bc.FeePerByte() + bc.CalculateAttributesFee(tx)
}
