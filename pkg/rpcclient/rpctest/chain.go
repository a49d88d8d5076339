package rpctest

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"

	nio "github.com/n3node/n3node/pkg/io"
)

// Chain is a simulated ledger served by a Server. Set its fields before
// Serve; afterwards change them only from handlers or through Do.
type Chain struct {
	Magic                       uint32
	MillisecondsPerBlock        int
	ValidatorsCount             byte
	MaxValidUntilBlockIncrement uint32
	// Height is the current height (block count - 1).
	Height uint32
	// InvokeGas is the GasConsumed of every invoke* answer.
	InvokeGas int64
	// InvokeFault, if set, makes invoke* FAULT with this exception.
	InvokeFault string
	// InvokeStack is the stack of every invoke* answer (RPC JSON items).
	InvokeStack []json.RawMessage
	// FeePerByte and VerifyFee make calculatenetworkfee answer
	// FeePerByte*size + VerifyFee*len(witnesses).
	FeePerByte, VerifyFee int64
	// Balances answer getnep17balances, by account.
	Balances map[hash.Uint160][]rpcclient.NEP17Balance
	// Mempool holds accepted transactions not yet in a block; every
	// getblockcount call makes a block of them (so Wait sees progress).
	Mempool []*transaction.Transaction
	// Blocks maps the transactions put in blocks to their heights.
	Blocks map[hash.Uint256]uint32
	// Sent are all accepted transactions in order.
	Sent []*transaction.Transaction
}

// NewChain returns a chain with neo-go privnet-like settings: magic 56753,
// 1 s blocks, one validator, height 10, 0.01 GAS per invocation, fee 1000
// per byte plus 0.01 GAS per witness.
func NewChain() *Chain {
	return &Chain{
		Magic: 56753, MillisecondsPerBlock: 1000, ValidatorsCount: 1,
		MaxValidUntilBlockIncrement: 5760, Height: 10,
		InvokeGas: 1_000_000, FeePerByte: 1000, VerifyFee: 1_000_000,
		Balances: make(map[hash.Uint160][]rpcclient.NEP17Balance),
		Blocks:   make(map[hash.Uint256]uint32),
	}
}

// Serve installs the chain's methods on s.
func (c *Chain) Serve(s *Server) {
	s.Handle("getversion", func([]json.RawMessage) (any, error) {
		return rpcclient.Version{
			TCPPort: 20333, Nonce: 1, UserAgent: "/rpctest/",
			Protocol: rpcclient.Protocol{
				AddressVersion: 0x35, Network: c.Magic, MillisecondsPerBlock: c.MillisecondsPerBlock,
				MaxTraceableBlocks: 2102400, MaxValidUntilBlockIncrement: c.MaxValidUntilBlockIncrement,
				MaxTransactionsPerBlock: 512, MemoryPoolMaxTransactions: 50000,
				ValidatorsCount: c.ValidatorsCount, InitialGasDistribution: 5200000000000000,
				Hardforks: []rpcclient.HardforkHeight{}, StandbyCommittee: []string{}, SeedList: []string{},
			},
			RPC: rpcclient.VersionRPC{MaxIteratorResultItems: 100},
		}, nil
	})
	s.Handle("getblockcount", func([]json.RawMessage) (any, error) {
		if len(c.Mempool) > 0 {
			c.Height++
			for _, tx := range c.Mempool {
				c.Blocks[tx.Hash()] = c.Height
			}
			c.Mempool = nil
		}
		return c.Height + 1, nil
	})
	s.Handle("invokescript", func(p []json.RawMessage) (any, error) {
		var b []byte
		if len(p) < 1 || json.Unmarshal(p[0], &b) != nil || len(b) == 0 {
			return nil, neorpc.ErrInvalidParams
		}
		return c.invokeResult(b)
	})
	s.Handle("invokefunction", func(p []json.RawMessage) (any, error) {
		script, err := FunctionScript(p)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(err.Error())
		}
		return c.invokeResult(script)
	})
	s.Handle("calculatenetworkfee", func(p []json.RawMessage) (any, error) {
		tx, err := decodeTx(p)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(err.Error())
		}
		fee := c.FeePerByte*int64(tx.Size()) + c.VerifyFee*int64(len(tx.Witnesses))
		return map[string]string{"networkfee": fmt.Sprint(fee)}, nil
	})
	s.Handle("sendrawtransaction", func(p []json.RawMessage) (any, error) {
		tx, err := decodeTx(p)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(err.Error())
		}
		if _, ok := c.Blocks[tx.Hash()]; ok {
			return nil, neorpc.ErrAlreadyExists
		}
		if tx.ValidUntilBlock <= c.Height {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrExpiredTransaction, "transaction has expired")
		}
		if err := CheckWitnesses(tx, c.Magic); err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidSignature, err.Error())
		}
		c.Mempool = append(c.Mempool, tx)
		c.Sent = append(c.Sent, tx)
		return map[string]string{"hash": tx.Hash().String()}, nil
	})
	s.Handle("getapplicationlog", func(p []json.RawMessage) (any, error) {
		var h hash.Uint256
		if len(p) < 1 || json.Unmarshal(p[0], &h) != nil {
			return nil, neorpc.ErrInvalidParams
		}
		if _, ok := c.Blocks[h]; !ok {
			return nil, neorpc.ErrUnknownScriptContainer
		}
		return rpcclient.ApplicationLog{Container: h, IsTransaction: true, Executions: []state.Execution{{
			Trigger: trigger.Application, VMState: vmstate.Halt, GasConsumed: c.InvokeGas,
			Stack: []stackitem.Item{stackitem.Bool(true)},
		}}}, nil
	})
	s.Handle("getnep17balances", func(p []json.RawMessage) (any, error) {
		var addr string
		if len(p) < 1 || json.Unmarshal(p[0], &addr) != nil {
			return nil, neorpc.ErrInvalidParams
		}
		u, err := neorpc.StringToUint160(addr)
		if err != nil {
			return nil, neorpc.ErrInvalidParams
		}
		bs := c.Balances[u]
		if bs == nil {
			bs = []rpcclient.NEP17Balance{}
		}
		return rpcclient.NEP17Balances{Balances: bs, Address: addr}, nil
	})
}

// invokeResult is the answer of the invoke methods: the configured stack
// (its JSON items verbatim) or fault.
func (c *Chain) invokeResult(script []byte) (any, error) {
	r := rpcclient.InvokeResult{State: rpcclient.StateHalt, GasConsumed: c.InvokeGas, Script: script}
	if c.InvokeFault != "" {
		r.State, r.FaultException = rpcclient.StateFault, c.InvokeFault
	}
	b, err := json.Marshal(r)
	if err != nil || c.InvokeFault != "" || len(c.InvokeStack) == 0 {
		return json.RawMessage(b), err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	if obj["stack"], err = json.Marshal(c.InvokeStack); err != nil {
		return nil, err
	}
	return obj, nil
}

func decodeTx(p []json.RawMessage) (*transaction.Transaction, error) {
	var b []byte
	if len(p) < 1 {
		return nil, errors.New("no transaction")
	}
	if err := json.Unmarshal(p[0], &b); err != nil {
		return nil, err
	}
	return transaction.NewTransactionFromBytes(b)
}

// CheckWitnesses verifies every witness of tx that uses a standard
// single- or multi-signature verification script: the script must hash to
// the signer's account and the signatures must verify over
// SHA-256(magic || hash). Other witnesses are refused.
func CheckWitnesses(tx *transaction.Transaction, magic uint32) error {
	if len(tx.Witnesses) != len(tx.Signers) {
		return fmt.Errorf("%d witnesses for %d signers", len(tx.Witnesses), len(tx.Signers))
	}
	sd := tx.SignData(magic)
	digest := hash.Sha256(sd[:])
	for i, w := range tx.Witnesses {
		if hash.Hash160(w.VerificationScript) != tx.Signers[i].Account {
			return fmt.Errorf("witness #%d: verification script is not the signer's", i)
		}
		if pub, ok := smartcontract.ParseSignatureContract(w.VerificationScript); ok {
			sig, ok := smartcontract.ParseSignatureInvocation(w.InvocationScript)
			if !ok {
				return fmt.Errorf("witness #%d: bad invocation script %x", i, w.InvocationScript)
			}
			k, err := keys.NewPublicKeyFromBytes(pub)
			if err != nil || !k.Verify(sig, digest[:]) {
				return fmt.Errorf("witness #%d: bad signature", i)
			}
			continue
		}
		m, pubs, ok := smartcontract.ParseMultiSigContract(w.VerificationScript)
		if !ok {
			return fmt.Errorf("witness #%d: not a standard contract", i)
		}
		sigs, ok := smartcontract.ParseMultiSigInvocation(m, w.InvocationScript)
		if !ok {
			return fmt.Errorf("witness #%d: bad multisig invocation script %x", i, w.InvocationScript)
		}
		// CheckMultisig: signatures in key order, each key used once.
		k := 0
		for _, sig := range sigs {
			for k < len(pubs) && !pubs[k].Verify(sig, digest[:]) {
				k++
			}
			if k == len(pubs) {
				return fmt.Errorf("witness #%d: multisig signatures do not verify", i)
			}
			k++
		}
	}
	return nil
}

// FunctionScript builds the script invokefunction runs for its params
// (contract hash, method, [arguments]): System.Contract.Call with
// CallFlags.All, as neo-go and C# build it.
func FunctionScript(p []json.RawMessage) ([]byte, error) {
	if len(p) < 2 {
		return nil, errors.New("not enough parameters")
	}
	var (
		contract hash.Uint160
		method   string
		args     []json.RawMessage
	)
	if err := json.Unmarshal(p[0], &contract); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(p[1], &method); err != nil {
		return nil, err
	}
	if len(p) > 2 {
		if err := json.Unmarshal(p[2], &args); err != nil {
			return nil, err
		}
	}
	vals := make([]any, len(args))
	for i := range args {
		var p smartcontract.Parameter
		err := json.Unmarshal(args[i], &p)
		if err == nil {
			vals[i], err = p.Emitable()
		}
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
	}
	return emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, contract, method, callflag.All, vals...)
	})
}
