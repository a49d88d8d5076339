package actor

import (
	"context"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"

	nio "github.com/n3node/n3node/pkg/io"
)

// ErrNonStandardWitness is returned by StandardNetworkFee for a witness
// that is neither a single- nor a multi-signature contract (deployed
// contracts need the node's calculatenetworkfee, which runs verify).
var ErrNonStandardWitness = errors.New("local network fee needs standard signature contracts")

// ErrUnsupportedAttribute is returned by StandardNetworkFee for an
// attribute whose fee it cannot compute.
var ErrUnsupportedAttribute = errors.New("local network fee: unsupported attribute")

// StandardNetworkFee computes the network fee of tx as C#
// Wallets.Helper.CalculateNetworkFee does for standard accounts: the size
// of the transaction with every witness complete times feePerByte, plus
// execFeeFactor times the verification cost of each witness, plus the
// attribute fees (attrFee gives Policy.getAttributeFee of a type;
// Conflicts is charged once per signer). The witnesses of tx must carry
// the verification scripts (as MakeUnsignedUncheckedRun leaves them).
func StandardNetworkFee(tx *transaction.Transaction, feePerByte, execFeeFactor int64, attrFee func(transaction.AttrType) (int64, error)) (int64, error) {
	if len(tx.Witnesses) != len(tx.Signers) {
		return 0, fmt.Errorf("%d witnesses for %d signers", len(tx.Witnesses), len(tx.Signers))
	}
	full := tx.Copy()
	var cost int64
	for i := range full.Witnesses {
		w := &full.Witnesses[i]
		if smartcontract.IsSignatureContract(w.VerificationScript) {
			w.InvocationScript = make([]byte, smartcontract.SignatureInvocationSize)
			cost += fee.SignatureContractCost()
			continue
		}
		m, n, ok := smartcontract.ParseMultiSigContractMN(w.VerificationScript)
		if !ok {
			return 0, fmt.Errorf("%w: signer #%d", ErrNonStandardWitness, i)
		}
		w.InvocationScript = make([]byte, m*smartcontract.SignatureInvocationSize)
		cost += fee.MultiSignatureContractCost(m, n)
	}
	total := int64(full.Size())*feePerByte + execFeeFactor*cost
	for _, a := range tx.Attributes {
		switch a.Type {
		case transaction.HighPriority, transaction.OracleResponseT, transaction.NotValidBeforeT, transaction.ConflictsT:
		default:
			return 0, fmt.Errorf("%w: %s", ErrUnsupportedAttribute, a.Type)
		}
		if attrFee == nil {
			return 0, fmt.Errorf("%w: no attribute fee source", ErrUnsupportedAttribute)
		}
		f, err := attrFee(a.Type)
		if err != nil {
			return 0, err
		}
		if a.Type == transaction.ConflictsT {
			f *= int64(len(tx.Signers))
		}
		total += f
	}
	return total, nil
}

// networkFee asks the node (calculatenetworkfee) unless Options.LocalNetworkFee
// is set or the node lacks the method; then it computes the fee locally
// from Policy's fee per byte and exec fee factor.
func (a *Actor) networkFee(ctx context.Context, tx *transaction.Transaction) (int64, error) {
	if !a.opts.LocalNetworkFee {
		fee, err := a.rpc.CalculateNetworkFee(ctx, tx)
		var re *neorpc.Error
		if err == nil || !errors.As(err, &re) || re.Code != neorpc.MethodNotFoundCode {
			return fee, err
		}
	}
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.PolicyHash, "getFeePerByte", callflag.ReadStates)
		emit.AppCall(w, nativenames.PolicyHash, "getExecFeeFactor", callflag.ReadStates)
	})
	if err != nil {
		return 0, err
	}
	r, err := a.rpc.InvokeScript(ctx, script, nil)
	if err != nil {
		return 0, err
	}
	if err := r.CheckHalt(); err != nil {
		return 0, fmt.Errorf("Policy fees: %w", err)
	}
	perByte, err := r.Int(0)
	if err != nil {
		return 0, fmt.Errorf("getFeePerByte: %w", err)
	}
	factor, err := r.Int(1)
	if err != nil {
		return 0, fmt.Errorf("getExecFeeFactor: %w", err)
	}
	if !perByte.IsInt64() || !factor.IsInt64() {
		return 0, errors.New("Policy fees out of range")
	}
	return StandardNetworkFee(tx, perByte.Int64(), factor.Int64(), func(t transaction.AttrType) (int64, error) {
		r, err := a.rpc.InvokeFunction(ctx, nativenames.PolicyHash, "getAttributeFee", []smartcontract.Parameter{smartcontract.NewIntParameter(int64(t))}, nil)
		if err != nil {
			return 0, err
		}
		if err := r.CheckHalt(); err != nil {
			return 0, err
		}
		v, err := r.Int(0)
		if err != nil || !v.IsInt64() {
			return 0, fmt.Errorf("getAttributeFee(%d): %v", t, err)
		}
		return v.Int64(), nil
	})
}
