package node

// TEMPORARY: the few chain methods the node's own tests need until the
// chain method handlers (pkg/rpcserver/chainrpc) land in main. Delete this
// file then and register theirs in registerMethods.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
)

func (n *Node) registerMethods() error {
	for name, h := range map[string]func(neorpc.Params) (any, *neorpc.Error){
		"getblockcount":      n.tmpGetBlockCount,
		"getversion":         n.tmpGetVersion,
		"sendrawtransaction": n.tmpSendRawTransaction,
		"getapplicationlog":  n.tmpGetApplicationLog,
		"invokefunction":     n.tmpInvokeFunction,
		"invokescript":       n.tmpInvokeScript,
	} {
		if err := n.register(name, h); err != nil {
			return err
		}
	}
	return nil
}

func (n *Node) tmpGetBlockCount(neorpc.Params) (any, *neorpc.Error) {
	return n.chain.BlockHeight() + 1, nil
}

func (n *Node) tmpGetVersion(neorpc.Params) (any, *neorpc.Error) {
	c := n.chain.Config()
	type protocol struct {
		AddressVersion              byte   `json:"addressversion"`
		Network                     uint32 `json:"network"`
		MillisecondsPerBlock        uint32 `json:"msperblock"`
		MaxTraceableBlocks          uint32 `json:"maxtraceableblocks"`
		MaxValidUntilBlockIncrement uint32 `json:"maxvaliduntilblockincrement"`
		MaxTransactionsPerBlock     uint16 `json:"maxtransactionsperblock"`
		MemoryPoolMaxTransactions   int    `json:"memorypoolmaxtransactions"`
		ValidatorsCount             int    `json:"validatorscount"`
		InitialGasDistribution      int64  `json:"initialgasdistribution"`
	}
	return map[string]any{
		"tcpport":   0,
		"nonce":     n.p2p.ID(),
		"useragent": "/n3node/",
		"protocol": protocol{
			AddressVersion:              0x35,
			Network:                     uint32(c.Magic),
			MillisecondsPerBlock:        n.chain.GetMillisecondsPerBlock(),
			MaxTraceableBlocks:          n.chain.GetMaxTraceableBlocks(),
			MaxValidUntilBlockIncrement: n.chain.GetMaxValidUntilBlockIncrement(),
			MaxTransactionsPerBlock:     c.MaxTransactionsPerBlock,
			MemoryPoolMaxTransactions:   c.MemPoolSize,
			ValidatorsCount:             c.GetNumOfCNs(n.chain.BlockHeight()),
			InitialGasDistribution:      int64(c.InitialGASSupply),
		},
	}, nil
}

func (n *Node) tmpSendRawTransaction(p neorpc.Params) (any, *neorpc.Error) {
	s, err := p.Value(0).GetString()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, neorpc.NewInvalidParamsError("not a base64: " + err.Error())
	}
	tx, err := transaction.NewTransactionFromOwnedBytes(raw)
	if err != nil {
		return nil, neorpc.NewInvalidParamsError("can't decode transaction: " + err.Error())
	}
	if err := n.p2p.RelayTx(tx); err != nil {
		code := neorpc.ErrVerificationFailed
		switch {
		case errors.Is(err, core.ErrAlreadyExists):
			code = neorpc.ErrAlreadyExists
		case errors.Is(err, core.ErrAlreadyInPool):
			code = neorpc.ErrAlreadyInPool
		case errors.Is(err, core.ErrInsufficientFunds), errors.Is(err, core.ErrMemPoolConflict):
			code = neorpc.ErrInsufficientFunds
		case errors.Is(err, core.ErrTxSmallNetworkFee):
			code = neorpc.ErrInsufficientNetworkFee
		}
		return nil, neorpc.WrapErrorWithData(code, err.Error())
	}
	return map[string]string{"hash": "0x" + tx.Hash().StringLE()}, nil
}

func (n *Node) tmpGetApplicationLog(p neorpc.Params) (any, *neorpc.Error) {
	h, err := p.Value(0).GetUint256()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	aers, err := n.chain.GetAppExecResults(h, trigger.All)
	if err != nil || len(aers) == 0 {
		return nil, neorpc.ErrUnknownScriptContainer
	}
	key := "txid"
	if n.chain.HasBlock(h) {
		key = "blockhash"
	}
	execs := make([]json.RawMessage, len(aers))
	for i := range aers {
		b, err := json.Marshal(aers[i].Execution)
		if err != nil {
			return nil, neorpc.NewInternalServerError(err.Error())
		}
		execs[i] = b
	}
	return map[string]any{key: "0x" + h.StringLE(), "executions": execs}, nil
}

// tmpInvokeFunction supports Hash160, Integer, String and Boolean
// arguments, without signers.
func (n *Node) tmpInvokeFunction(p neorpc.Params) (any, *neorpc.Error) {
	h, err := p.Value(0).GetUint160FromHex()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	method, err := p.Value(1).GetString()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	var args []any
	if a := p.Value(2); a != nil {
		arr, err := a.GetArray()
		if err != nil {
			return nil, neorpc.ErrInvalidParams
		}
		for i := range arr {
			fp, err := arr[i].GetFuncParam()
			if err != nil {
				return nil, neorpc.ErrInvalidParams
			}
			v, err := tmpArg(fp)
			if err != nil {
				return nil, neorpc.NewInvalidParamsError(err.Error())
			}
			args = append(args, v)
		}
	}
	w := nio.NewBufBinWriter()
	emit.AppCall(w, h, method, callflag.All, args...)
	if w.Err != nil {
		return nil, neorpc.NewInvalidParamsError(w.Err.Error())
	}
	return n.tmpRun(w.Bytes(), nil)
}

func (n *Node) tmpInvokeScript(p neorpc.Params) (any, *neorpc.Error) {
	script, err := p.Value(0).GetBytesBase64()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	var signers []transaction.Signer
	if s := p.Value(1); s != nil {
		if signers, _, err = s.GetSignersWithWitnesses(); err != nil {
			return nil, neorpc.ErrInvalidParams
		}
	}
	return n.tmpRun(script, signers)
}

func (n *Node) tmpRun(script []byte, signers []transaction.Signer) (any, *neorpc.Error) {
	if len(signers) == 0 {
		signers = []transaction.Signer{{Scopes: transaction.None}}
	}
	tx := &transaction.Transaction{Script: script, Signers: signers,
		ValidUntilBlock: n.chain.BlockHeight() + n.chain.GetMaxValidUntilBlockIncrement()}
	ic, err := n.chain.GetTestVM(trigger.Application, tx, nil)
	if err != nil {
		return nil, neorpc.NewInternalServerError(err.Error())
	}
	defer ic.Finalize()
	ic.VM.SetGasLimit(int64(n.cfg.ApplicationConfiguration.RPC.MaxGasInvoke))
	aer := ic.Execute(hash.Uint256{}, script, callflag.All)
	ex, err := json.Marshal(aer.Execution)
	if err != nil {
		return nil, neorpc.NewInternalServerError(err.Error())
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(ex, &m); err != nil {
		return nil, neorpc.NewInternalServerError(err.Error())
	}
	m["script"], _ = json.Marshal(script)
	m["state"] = m["vmstate"]
	delete(m, "vmstate")
	delete(m, "trigger")
	return m, nil
}

func tmpArg(fp neorpc.FuncParam) (any, error) {
	switch fp.Type.String() {
	case "Hash160":
		return fp.Value.GetUint160FromAddressOrHex()
	case "Integer":
		s, err := fp.Value.GetString()
		if err != nil {
			return nil, err
		}
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("bad integer %q", s)
		}
		return v, nil
	case "String":
		return fp.Value.GetString()
	case "Boolean":
		s, err := fp.Value.GetString()
		if err != nil {
			return nil, err
		}
		return strconv.ParseBool(s)
	}
	return nil, fmt.Errorf("unsupported parameter type %s", fp.Type)
}
