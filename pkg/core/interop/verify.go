package interop

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// MaxVerificationGas is the most GAS (datoshi) one witness verification may
// use (C# Helper.MaxVerificationGas, neo-go Policy maxVerificationGas).
const MaxVerificationGas = 1_50000000

// Witness verification errors (neo-go's).
var (
	// The witness does not fit the account.
	ErrWitnessHashMismatch       = errors.New("witness hash mismatch")
	ErrNativeContractWitness     = errors.New("native contract witness must have empty verification script")
	ErrInvalidInvocationScript   = errors.New("invalid invocation script")
	ErrInvalidVerificationScript = errors.New("invalid verification script")
	// The account is a contract that cannot verify.
	ErrUnknownVerificationContract = errors.New("unknown verification contract")
	ErrInvalidVerificationContract = errors.New("verification contract is missing `verify` method or `verify` method has unexpected return value")
	// The verification ran and said no.
	ErrVerificationFailed = errors.New("signature check failed")
	ErrInvalidSignature   = fmt.Errorf("%w: invalid signature", ErrVerificationFailed)
)

// VerifyWitness checks witness w of account h for the context's container
// and returns the GAS (datoshi) it consumed (C# Helper.VerifyWitness with
// neo-go's error reporting). ic must be a Verification context; a fresh VM
// is used for each call, and gas is capped at MaxVerificationGas. A
// witness whose script returns false gives ErrInvalidSignature together
// with the GAS consumed; other failures give zero GAS.
//
// Standard single-signature witnesses are checked without the VM, at the
// exact price the VM would charge.
func VerifyWitness(ic *Context, h hash.Uint160, w *transaction.Witness, gas int64) (int64, error) {
	gas = min(gas, MaxVerificationGas)
	if len(w.VerificationScript) != 0 {
		if w.ScriptHash() != h {
			return 0, fmt.Errorf("%w: expected %s, got %s", ErrWitnessHashMismatch, h.StringLE(), w.ScriptHash().StringLE())
		}
		if consumed, err, done := ic.verifyStandard(w, gas); done {
			return consumed, err
		}
	}
	v := ic.SpawnVM()
	v.SetGasLimit(gas)
	defer ic.Finalize()
	if err := ic.initVerification(h, w); err != nil {
		return 0, err
	}
	if v.Execute() == vmstate.Fault {
		return 0, fmt.Errorf("%w: vm execution has failed: %w", ErrVerificationFailed, v.FaultError())
	}
	res := v.ResultStack()
	if res.Len() == 0 {
		return 0, fmt.Errorf("%w: no result returned from the script", ErrVerificationFailed)
	}
	top, _ := res.Pop()
	ok, err := top.TryBool()
	if err != nil {
		return 0, fmt.Errorf("%w: invalid return value", ErrVerificationFailed)
	}
	if res.Len() != 0 {
		return 0, fmt.Errorf("%w: expected exactly one returned value", ErrVerificationFailed)
	}
	if !ok {
		return v.GasConsumed(), ErrInvalidSignature
	}
	return v.GasConsumed(), nil
}

// verifyStandard checks a standard single-signature witness directly. done
// is false if the witness is not of that form.
func (ic *Context) verifyStandard(w *transaction.Witness, gas int64) (int64, error, bool) {
	key, ok := smartcontract.ParseSignatureContract(w.VerificationScript)
	if !ok {
		return 0, nil, false
	}
	sig, ok := smartcontract.ParseSignatureInvocation(w.InvocationScript)
	if !ok {
		return 0, nil, false
	}
	pico := uint64(fee.SignatureContractCost()) * ic.ExecFeeFactor
	consumed := int64((pico + vm.FeeFactor - 1) / vm.FeeFactor)
	if gas >= 0 && pico > uint64(gas)*vm.FeeFactor {
		// The VM would fault on the CheckSig syscall's price.
		return 0, fmt.Errorf("%w: vm execution has failed: %w", ErrVerificationFailed, vm.ErrGasLimit), true
	}
	k, err := keys.NewPublicKeyFromBytes(key)
	if err != nil {
		return 0, fmt.Errorf("%w: vm execution has failed: %w", ErrVerificationFailed, err), true
	}
	d, err := ic.signedDigest()
	if err != nil {
		return 0, fmt.Errorf("%w: vm execution has failed: %w", ErrVerificationFailed, err), true
	}
	if !k.Verify(sig, d[:]) {
		return consumed, ErrInvalidSignature, true
	}
	return consumed, nil, true
}

// InitVerification loads the verification of witness w of account h into
// the context's VM without running it: the verification script (or the
// contract's verify method, with _initialize) and the invocation script
// (neo-go Blockchain.InitVerificationContext, for invokecontractverify).
// Errors wrap ErrUnknownVerificationContract, ErrInvalidVerificationContract,
// ErrNativeContractWitness, ErrInvalidVerificationScript or
// ErrInvalidInvocationScript.
func (ic *Context) InitVerification(h hash.Uint160, w *transaction.Witness) error {
	return ic.initVerification(h, w)
}

// initVerification loads the verification script (or the contract's verify
// method) and the invocation script.
func (ic *Context) initVerification(h hash.Uint160, w *transaction.Witness) error {
	if len(w.VerificationScript) != 0 {
		if cs, err := ic.GetContract(h); err == nil && cs.ID < 0 {
			return ErrNativeContractWitness
		}
		if err := CheckScript(w.VerificationScript, nil); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidVerificationScript, err)
		}
		if _, err := ic.VM.LoadScriptWith(vm.NewScript(w.VerificationScript), vm.LoadParams{
			RVCount:    1,
			ScriptHash: h,
			CallFlags:  callflag.CallFlag(callflag.ReadOnly),
			Data:       &Invocation{},
		}); err != nil {
			return err
		}
	} else {
		cs, err := ic.GetContract(h)
		if err != nil {
			return ErrUnknownVerificationContract
		}
		md := cs.Manifest.ABI.GetMethod(manifest.MethodVerify, -1)
		if md == nil || md.ReturnType != smartcontract.BoolType {
			return ErrInvalidVerificationContract
		}
		ic.CountInvocation(cs.Hash)
		if _, err := ic.VM.LoadScriptWith(vm.NewScript(cs.NEF.Script), vm.LoadParams{
			RVCount:    1,
			Offset:     md.Offset,
			ScriptHash: cs.Hash,
			CallFlags:  callflag.CallFlag(callflag.ReadOnly),
			Data:       &Invocation{Contract: cs},
		}); err != nil {
			return err
		}
		if init := cs.Manifest.ABI.GetMethod(manifest.MethodInit, 0); init != nil {
			if _, err := ic.VM.Call(init.Offset); err != nil {
				return err
			}
		}
	}
	if len(w.InvocationScript) != 0 {
		if err := CheckScript(w.InvocationScript, nil); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidInvocationScript, err)
		}
		if _, err := ic.VM.LoadScriptWith(vm.NewScript(w.InvocationScript), vm.LoadParams{
			RVCount:           -1,
			ScriptHash:        hash.Hash160(w.InvocationScript),
			CallingScriptHash: ic.CurrentScriptHash(),
			CallFlags:         callflag.CallFlag(callflag.None),
			Data:              &Invocation{},
		}); err != nil {
			return err
		}
	}
	return nil
}
