package actor

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract"
	sccontext "github.com/n3node/n3node/pkg/smartcontract/context"
	"github.com/n3node/n3node/pkg/wallet"
)

// RPC is what an Actor needs of a node; *rpcclient.Client implements it.
type RPC interface {
	WaitRPC
	GetVersion(ctx context.Context) (*rpcclient.Version, error)
	InvokeScript(ctx context.Context, script []byte, signers []transaction.Signer) (*rpcclient.InvokeResult, error)
	InvokeFunction(ctx context.Context, contract hash.Uint160, method string, params []smartcontract.Parameter, signers []transaction.Signer) (*rpcclient.InvokeResult, error)
	CalculateNetworkFee(ctx context.Context, tx *transaction.Transaction) (int64, error)
	SendTransaction(ctx context.Context, tx *transaction.Transaction) (hash.Uint256, error)
}

var _ RPC = (*rpcclient.Client)(nil)

// SignerAccount is a transaction signer and the wallet account that
// verifies it. The account need not be able to sign (locked, no key, or
// a multi-signature share of someone else): its contract still gives the
// verification script and the parameter context collects the signatures.
type SignerAccount struct {
	Signer  transaction.Signer
	Account *wallet.Account
}

// Options tune an Actor. The zero value is neo-go's behaviour.
type Options struct {
	// SystemFeeExtra is added to the GAS a test run consumed.
	SystemFeeExtra int64
	// NetworkFeeExtra is added to the network fee the node computes
	// (a priority fee).
	NetworkFeeExtra int64
	// ValidUntilBlockIncrement: ValidUntilBlock = block count + this.
	// 0 means validators count + 1 (neo-go's default).
	ValidUntilBlockIncrement uint32
	// MaxValidity makes transactions valid for as long as the protocol
	// allows (MaxValidUntilBlockIncrement - 1 blocks from now), for
	// transactions that other key holders will sign later.
	MaxValidity bool
	// Attributes are added to every transaction (copied).
	Attributes []transaction.Attribute
	// Nonce returns the nonce of each new transaction (default random).
	Nonce func() uint32
	// LocalNetworkFee computes the network fee here (standard accounts
	// only, from Policy's fee per byte and exec fee factor) instead of
	// asking calculatenetworkfee. The actor also falls back to it when the
	// node does not support calculatenetworkfee.
	LocalNetworkFee bool
	// PollInterval is Wait's polling period (default half the block time,
	// at least 50 ms).
	PollInterval time.Duration
}

// Actor makes transactions for a fixed list of signers.
type Actor struct {
	rpc     RPC
	signers []SignerAccount
	txSigs  []transaction.Signer
	version *rpcclient.Version
	opts    Options
}

// Errors.
var (
	ErrNoSigners     = errors.New("at least one signer (the sender) is required")
	ErrNoContract    = errors.New("account has no contract")
	ErrWrongAccount  = errors.New("signer account doesn't match the account's script hash")
	ErrEmptyScript   = errors.New("empty script")
	ErrNegativeFee   = errors.New("negative system fee")
	ErrIncomplete    = errors.New("transaction is not completely signed")
	ErrTxNotAccepted = errors.New("transaction was not accepted to chain")
)

// New checks the signers and fetches the node's version.
func New(ctx context.Context, rpc RPC, signers []SignerAccount, opts Options) (*Actor, error) {
	if len(signers) == 0 {
		return nil, ErrNoSigners
	}
	txSigs := make([]transaction.Signer, len(signers))
	for i, s := range signers {
		if s.Account == nil || s.Account.Contract == nil {
			return nil, fmt.Errorf("signer #%d: %w", i, ErrNoContract)
		}
		if !s.Account.Contract.Deployed && s.Account.Contract.ScriptHash() != s.Signer.Account {
			return nil, fmt.Errorf("signer #%d (%s): %w", i, s.Account.Address, ErrWrongAccount)
		}
		txSigs[i] = s.Signer.Copy()
	}
	v, err := rpc.GetVersion(ctx)
	if err != nil {
		return nil, fmt.Errorf("getversion: %w", err)
	}
	return &Actor{rpc: rpc, signers: signers, txSigs: txSigs, version: v, opts: opts}, nil
}

// Network returns the network magic.
func (a *Actor) Network() uint32 { return a.version.Protocol.Network }

// Version returns the node's getversion answer.
func (a *Actor) Version() *rpcclient.Version { return a.version }

// Sender returns the first signer's account (the fee payer).
func (a *Actor) Sender() hash.Uint160 { return a.txSigs[0].Account }

// Signers returns copies of the transaction signers.
func (a *Actor) Signers() []transaction.Signer {
	out := make([]transaction.Signer, len(a.txSigs))
	for i := range a.txSigs {
		out[i] = a.txSigs[i].Copy()
	}
	return out
}

// Run test-invokes a script with the actor's signers.
func (a *Actor) Run(ctx context.Context, script []byte) (*rpcclient.InvokeResult, error) {
	return a.rpc.InvokeScript(ctx, script, a.Signers())
}

// Call test-invokes a contract method with the actor's signers.
func (a *Actor) Call(ctx context.Context, contract hash.Uint160, method string, params ...smartcontract.Parameter) (*rpcclient.InvokeResult, error) {
	return a.rpc.InvokeFunction(ctx, contract, method, params, a.Signers())
}

// MakeUnsignedRun test-invokes script and, if it ends in HALT, builds a
// transaction running it with the consumed GAS as the system fee. A FAULT
// gives an error wrapping rpcclient.ErrFault (and the result).
func (a *Actor) MakeUnsignedRun(ctx context.Context, script []byte) (*transaction.Transaction, *rpcclient.InvokeResult, error) {
	r, err := a.Run(ctx, script)
	if err != nil {
		return nil, nil, fmt.Errorf("test invocation: %w", err)
	}
	if err := r.CheckHalt(); err != nil {
		return nil, r, err
	}
	tx, err := a.MakeUnsignedUncheckedRun(ctx, script, r.GasConsumed)
	return tx, r, err
}

// MakeUnsignedCall is MakeUnsignedRun for one contract method: the node
// builds the script (invokefunction) and the transaction runs it.
func (a *Actor) MakeUnsignedCall(ctx context.Context, contract hash.Uint160, method string, params ...smartcontract.Parameter) (*transaction.Transaction, *rpcclient.InvokeResult, error) {
	r, err := a.Call(ctx, contract, method, params...)
	if err != nil {
		return nil, nil, fmt.Errorf("test invocation: %w", err)
	}
	if err := r.CheckHalt(); err != nil {
		return nil, r, err
	}
	tx, err := a.MakeUnsignedUncheckedRun(ctx, r.Script, r.GasConsumed)
	return tx, r, err
}

// MakeUnsignedUncheckedRun builds a transaction running script with
// sysFee (plus Options.SystemFeeExtra) as the system fee, without a test
// run: signers, attributes, nonce, ValidUntilBlock, witness placeholders
// and the network fee. The witnesses hold the verification scripts; the
// invocation scripts are empty until signed.
func (a *Actor) MakeUnsignedUncheckedRun(ctx context.Context, script []byte, sysFee int64) (*transaction.Transaction, error) {
	if len(script) == 0 {
		return nil, ErrEmptyScript
	}
	if sysFee < 0 {
		return nil, ErrNegativeFee
	}
	vub, err := a.CalculateValidUntilBlock(ctx)
	if err != nil {
		return nil, err
	}
	nonce := rand.Uint32()
	if a.opts.Nonce != nil {
		nonce = a.opts.Nonce()
	}
	tx := transaction.New(script, nonce, sysFee+a.opts.SystemFeeExtra, 0, vub)
	tx.Signers = a.Signers()
	if len(a.opts.Attributes) > 0 {
		tx.Attributes = make([]transaction.Attribute, len(a.opts.Attributes))
		for i := range a.opts.Attributes {
			tx.Attributes[i] = a.opts.Attributes[i].Copy()
		}
	}
	tx.Witnesses = a.placeholderWitnesses()
	fee, err := a.networkFee(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("calculating network fee: %w", err)
	}
	// A fresh copy: nothing cached from the fee request survives.
	final := tx.Copy()
	final.NetworkFee = fee + a.opts.NetworkFeeExtra
	if err := final.Validate(); err != nil {
		return nil, err
	}
	return final, nil
}

// placeholderWitnesses gives every signer its verification script (empty
// for deployed contracts) and an empty invocation script.
func (a *Actor) placeholderWitnesses() []transaction.Witness {
	ws := make([]transaction.Witness, len(a.signers))
	for i, s := range a.signers {
		if !s.Account.Contract.Deployed {
			ws[i].VerificationScript = s.Account.Contract.Script
		}
	}
	return ws
}

// CalculateValidUntilBlock returns the ValidUntilBlock of a transaction
// made now.
func (a *Actor) CalculateValidUntilBlock(ctx context.Context) (uint32, error) {
	count, err := a.rpc.GetBlockCount(ctx)
	if err != nil {
		return 0, fmt.Errorf("getblockcount: %w", err)
	}
	p := &a.version.Protocol
	switch {
	case a.opts.MaxValidity:
		return count + p.MaxValidUntilBlockIncrement - 1, nil
	case a.opts.ValidUntilBlockIncrement != 0:
		return count + a.opts.ValidUntilBlockIncrement, nil
	}
	return count + p.ValidatorsCountAt(count) + 1, nil
}

// Sign returns a parameter context for tx holding the signatures of every
// signer account that can sign. The context is complete when no other
// signature is needed.
func (a *Actor) Sign(tx *transaction.Transaction) (*sccontext.ParameterContext, error) {
	if len(tx.Signers) != len(a.signers) {
		return nil, errors.New("incorrect number of signers in the transaction")
	}
	pc := sccontext.NewParameterContext(a.Network(), tx)
	for i, s := range a.signers {
		if err := SignContext(pc, s.Account); err != nil {
			return nil, fmt.Errorf("signer #%d (%s): %w", i, s.Account.Address, err)
		}
	}
	return pc, nil
}

// SignContext adds acc's signature to pc if acc can sign and is one of the
// transaction's signers; an account that cannot sign creates the item
// (with its verification script) without a signature.
func SignContext(pc *sccontext.ParameterContext, acc *wallet.Account) error {
	if acc.Contract == nil {
		return ErrNoContract
	}
	h := acc.ScriptHash()
	if !pc.Tx.HasSigner(h) {
		return sccontext.ErrNotSigner
	}
	if !acc.CanSign() {
		return pc.Add(h, acc.Contract)
	}
	err := pc.Sign(acc)
	if errors.Is(err, sccontext.ErrAlreadySigned) {
		return nil
	}
	return err
}

// Send completes the transaction of a complete context and sends it. An
// incomplete context gives an error wrapping ErrIncomplete.
func (a *Actor) Send(ctx context.Context, pc *sccontext.ParameterContext) (hash.Uint256, error) {
	return SendContext(ctx, a.rpc, pc)
}

// SendContext sends the transaction of a complete parameter context.
func SendContext(ctx context.Context, rpc interface {
	SendTransaction(context.Context, *transaction.Transaction) (hash.Uint256, error)
}, pc *sccontext.ParameterContext) (hash.Uint256, error) {
	if !pc.IsComplete() {
		return hash.Uint256{}, fmt.Errorf("%w: %s", ErrIncomplete, missing(pc))
	}
	tx, err := pc.GetCompleteTransaction()
	if err != nil {
		return hash.Uint256{}, err
	}
	return rpc.SendTransaction(ctx, tx)
}

// missing describes the signers whose witnesses lack parameters.
func missing(pc *sccontext.ParameterContext) string {
	s := ""
	for i, h := range pc.ScriptHashes() {
		it := pc.Items[h]
		if it != nil && it.IsComplete() {
			continue
		}
		if s != "" {
			s += ", "
		}
		need := "no signature"
		if it != nil {
			set := 0
			for _, p := range it.Parameters {
				if p.Value != nil {
					set++
				}
			}
			if len(it.Signatures) > 0 {
				set = len(it.Signatures)
			}
			need = fmt.Sprintf("%d of %d signatures", set, len(it.Parameters))
		}
		s += fmt.Sprintf("signer #%d %s has %s", i, neorpc.Uint160ToAddress(h), need)
	}
	return s
}

// SignAndSend signs tx with every account that can and sends it.
func (a *Actor) SignAndSend(ctx context.Context, tx *transaction.Transaction) (hash.Uint256, error) {
	pc, err := a.Sign(tx)
	if err != nil {
		return hash.Uint256{}, err
	}
	return a.Send(ctx, pc)
}

// Wait polls for the application log of a sent transaction until it is in
// a block, the chain passes vub without it (ErrTxNotAccepted) or ctx ends.
func (a *Actor) Wait(ctx context.Context, h hash.Uint256, vub uint32) (*state.AppExecResult, error) {
	iv := a.opts.PollInterval
	if iv <= 0 {
		iv = time.Duration(a.version.Protocol.MillisecondsPerBlock) * time.Millisecond / 2
	}
	return Wait(ctx, a.rpc, h, vub, iv)
}

// WaitRPC is what Wait needs of a node.
type WaitRPC interface {
	GetBlockCount(ctx context.Context) (uint32, error)
	GetApplicationLog(ctx context.Context, h hash.Uint256) (*rpcclient.ApplicationLog, error)
}

// Transient failures of the node tolerated by Wait in a row (neo-go's
// DefaultPollRetryCount).
const waitRetries = 3

// Wait polls the node every interval (at least 50 ms) for the application
// log of transaction h. It returns the transaction's execution once the
// transaction is in a block; ErrTxNotAccepted when the chain reached vub
// without it; ctx's error (wrapped) when ctx ends.
func Wait(ctx context.Context, rpc WaitRPC, h hash.Uint256, vub uint32, interval time.Duration) (*state.AppExecResult, error) {
	interval = max(interval, 50*time.Millisecond)
	failures := 0
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s: %w", h.StringLE(), ctx.Err())
		case <-t.C:
		}
		// The height is read before the log, so a block that holds the
		// transaction and arrives in between is not taken for its absence.
		count, err := rpc.GetBlockCount(ctx)
		if err == nil {
			var log *rpcclient.ApplicationLog
			log, err = rpc.GetApplicationLog(ctx, h)
			if err == nil {
				if len(log.Executions) == 0 {
					return nil, fmt.Errorf("application log of %s has no executions", h.StringLE())
				}
				return &state.AppExecResult{Container: log.Container, Execution: log.Executions[0]}, nil
			}
			if errors.Is(err, neorpc.ErrUnknownScriptContainer) {
				err = nil
				if count > 0 && count-1 >= vub {
					return nil, fmt.Errorf("%w: %s (valid until %d, height %d)", ErrTxNotAccepted, h.StringLE(), vub, count-1)
				}
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("waiting for %s: %w", h.StringLE(), ctx.Err())
			}
			if failures++; failures > waitRetries {
				return nil, fmt.Errorf("waiting for %s: %w", h.StringLE(), err)
			}
		} else {
			failures = 0
		}
		t.Reset(interval)
	}
}
