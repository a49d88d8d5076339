// Package actor builds, signs, sends and awaits transactions through any
// Neo N3 node's JSON-RPC interface.
//
// An Actor is made for a list of signers (the first one pays the fees),
// each with the wallet account that verifies it. It fetches getversion once
// (network magic, block time, validators count). Then:
//
//	act, err := actor.New(ctx, client, signers, actor.Options{})
//	tx, res, err := act.MakeUnsignedRun(ctx, script) // test-invoke: system fee = GAS used (+ extra)
//	pc, err := act.Sign(tx)                           // every account that can sign adds its signature
//	h, err := act.Send(ctx, pc)                       // ErrIncomplete if signatures are missing
//	aer, err := act.Wait(ctx, h, tx.ValidUntilBlock)  // polls getapplicationlog
//
// Transactions are built as neo-go's actor builds them: a random nonce,
// ValidUntilBlock = block count + validators count + 1 (or the protocol's
// maximum with Options.MaxValidity, for transactions that other key
// holders sign later), witnesses carrying each account's verification
// script while the network fee is computed by the node
// (calculatenetworkfee; computed locally for standard accounts with
// Options.LocalNetworkFee or when the node lacks the method, see
// StandardNetworkFee), plus Options.NetworkFeeExtra.
//
// Signing always goes through a parameter context
// (pkg/smartcontract/context), so single-signature accounts, multi-signature
// accounts whose keys are all at hand, and multi-signature accounts that
// need other wallets' signatures are one path: the context is complete and
// sent, or it is saved for `wallet sign`.
//
// Invariants: a transaction returned by a Make* method is final (its hash
// is what gets signed); change a field and the signatures no longer
// match. The Actor does not keep transactions or contexts after returning
// them; they belong to the caller.
package actor
