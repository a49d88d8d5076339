package chaingen

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// farFuture is the end of the getnep17transfers time range (ms, year 3000).
const farFuture = 32503680000000

// recorder sends requests and keeps them with their answers, per file.
type recorder struct {
	rpc   *neogo.Client
	files map[string][]refchain.Record
}

// add records one exchange into file. In the errors file the answer must be
// an error, elsewhere a result; anything else is a generator bug.
func (r *recorder) add(ctx context.Context, file, method string, params ...any) (json.RawMessage, error) {
	if params == nil {
		params = []any{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	resp, err := r.rpc.CallRaw(ctx, method, json.RawMessage(p))
	if err != nil {
		return nil, err
	}
	isErr := len(resp.Error) != 0
	if isErr != (file == refchain.ErrorRecords) {
		return nil, fmt.Errorf("chaingen: %s %s answered %s%s in %s records", method, p, resp.Result, resp.Error, file)
	}
	r.files[file] = append(r.files[file], refchain.Record{Method: method, Params: p, Result: resp.Result, Error: resp.Error})
	return resp.Result, nil
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func hashParam(h hash.Uint160) map[string]any {
	return map[string]any{"type": "Hash160", "value": h.String()}
}

// recordChain records per-height and per-transaction answers and returns
// the transaction hashes in chain order with their block.
func (r *recorder) recordChain(ctx context.Context, height uint32) (map[string]uint32, []string, error) {
	txBlock := make(map[string]uint32)
	var order []string
	for h := uint32(0); h <= height; h++ {
		raw, err := r.add(ctx, refchain.BlocksRecords, "getblockhash", h)
		if err != nil {
			return nil, nil, err
		}
		var bh string
		if err := json.Unmarshal(raw, &bh); err != nil {
			return nil, nil, err
		}
		res, err := r.add(ctx, refchain.BlocksRecords, "getblock", h, true)
		if err != nil {
			return nil, nil, err
		}
		var blk struct {
			Tx []struct {
				Hash string `json:"hash"`
			} `json:"tx"`
		}
		if err := json.Unmarshal(res, &blk); err != nil {
			return nil, nil, err
		}
		if _, err := r.add(ctx, refchain.BlocksRecords, "getblockheader", h, true); err != nil {
			return nil, nil, err
		}
		if _, err := r.add(ctx, refchain.BlocksRecords, "getstateroot", h); err != nil {
			return nil, nil, err
		}
		if _, err := r.add(ctx, refchain.BlocksRecords, "getapplicationlog", bh); err != nil {
			return nil, nil, err
		}
		// Raw forms and lookups by hash for a few heights.
		if h == 0 || h == height || (len(blk.Tx) > 0 && len(order) < 3) {
			if _, err := r.add(ctx, refchain.BlocksRecords, "getblock", h); err != nil {
				return nil, nil, err
			}
			if _, err := r.add(ctx, refchain.BlocksRecords, "getblockheader", h); err != nil {
				return nil, nil, err
			}
			if _, err := r.add(ctx, refchain.BlocksRecords, "getblock", bh, true); err != nil {
				return nil, nil, err
			}
			if _, err := r.add(ctx, refchain.BlocksRecords, "getstateroot", bh); err != nil {
				return nil, nil, err
			}
			// neo-go also takes 1 for verbose (C# documents a boolean).
			if _, err := r.add(ctx, refchain.BlocksRecords, "getblock", h, 1); err != nil {
				return nil, nil, err
			}
		}
		for _, tx := range blk.Tx {
			txBlock[tx.Hash] = h
			order = append(order, tx.Hash)
			if _, err := r.add(ctx, refchain.TransactionsRecords, "getrawtransaction", tx.Hash, true); err != nil {
				return nil, nil, err
			}
			if _, err := r.add(ctx, refchain.TransactionsRecords, "gettransactionheight", tx.Hash); err != nil {
				return nil, nil, err
			}
			if _, err := r.add(ctx, refchain.TransactionsRecords, "getapplicationlog", tx.Hash); err != nil {
				return nil, nil, err
			}
			if len(order) <= 3 {
				if _, err := r.add(ctx, refchain.TransactionsRecords, "getrawtransaction", tx.Hash); err != nil {
					return nil, nil, err
				}
				if _, err := r.add(ctx, refchain.TransactionsRecords, "getrawtransaction", tx.Hash, 1); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	return txBlock, order, nil
}

// stateQuery is one request of the final-height record set.
type stateQuery struct {
	file   string
	method string
	params []any
}

// recordState records queries at the final height: node and protocol
// information, natives and deployed contracts, governance, balances and
// transfers, unclaimed GAS, storage, proofs, test invocations, fee
// calculation, address validation and error answers.
func (w *world) recordState(ctx context.Context, r *recorder, height uint32, onChainTx string, unsentTx []byte) error {
	S, E := refchain.StateRecords, refchain.ErrorRecords
	q := func(file, method string, params ...any) stateQuery { return stateQuery{file, method, params} }
	var qs []stateQuery
	qs = append(qs,
		q(S, "getversion"), q(S, "getblockcount"), q(S, "getbestblockhash"), q(S, "getblockheadercount"),
		q(S, "getnativecontracts"), q(S, "getcommittee"), q(S, "getnextblockvalidators"), q(S, "getcandidates"),
		q(S, "getrawmempool"), q(S, "getstateheight"),
	)
	names := make([]string, 0, len(w.d.natives))
	for n := range w.d.natives {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		qs = append(qs, q(S, "getcontractstate", w.d.natives[n].String()))
	}
	qs = append(qs,
		q(S, "getcontractstate", w.refchainHash.String()),
		q(S, "getcontractstate", w.helperHash.String()),
		q(S, "getcontractstate", -1), // ContractManagement by id
	)
	holders := []*Account{w.acc["V"], w.acc["M"], w.acc["A"], w.acc["B"], w.acc["C"], w.acc["D"], w.acc["E"]}
	for _, a := range holders {
		qs = append(qs,
			q(S, "getnep17balances", a.Address()),
			q(S, "getnep17transfers", a.Address(), 0, farFuture),
			q(S, "getunclaimedgas", a.Address()),
		)
	}
	rc := Address(w.refchainHash)
	qs = append(qs,
		q(S, "getnep17balances", rc),
		q(S, "getnep17transfers", rc, 0, farFuture),
	)
	for _, k := range []string{"alpha", "gamma", "counter", "init"} {
		qs = append(qs, q(S, "getstorage", w.refchainHash.String(), b64(k)))
	}
	qs = append(qs,
		q(S, "findstorage", w.refchainHash.String(), "", 0),
		q(S, "findstorage", w.refchainHash.String(), b64("a"), 0),
		q(S, "findstorage", w.helperHash.String(), "", 0),
		q(S, "findstorage", w.neo.String(), "", 0),
		q(S, "findstorage", w.neo.String(), "", 20),
	)
	ab := func(v any) map[string]any { return map[string]any{"type": "ByteArray", "value": v} }
	A := w.acc["A"]
	qs = append(qs,
		q(S, "invokefunction", w.neo.String(), "balanceOf", []any{hashParam(A.Hash)}),
		q(S, "invokefunction", w.neo.String(), "getCandidates", []any{}),
		q(S, "invokefunction", w.neo.String(), "getCommittee", []any{}),
		q(S, "invokefunction", w.neo.String(), "unclaimedGas", []any{hashParam(A.Hash), map[string]any{"type": "Integer", "value": fmt.Sprint(height + 1)}}),
		q(S, "invokefunction", w.gas.String(), "totalSupply", []any{}),
		q(S, "invokefunction", w.gas.String(), "symbol", []any{}),
		q(S, "invokefunction", w.policy.String(), "getFeePerByte", []any{}),
		q(S, "invokefunction", w.policy.String(), "isBlocked", []any{hashParam(w.acc["E"].Hash)}),
		q(S, "invokefunction", w.roles.String(), "getDesignatedByRole", []any{
			map[string]any{"type": "Integer", "value": fmt.Sprint(roleOracle)}, map[string]any{"type": "Integer", "value": fmt.Sprint(height + 1)}}),
		q(S, "invokefunction", w.refchainHash.String(), "get", []any{ab(b64("gamma"))}),
		q(S, "invokefunction", w.refchainHash.String(), "version", []any{}),
		q(S, "invokefunction", w.helperHash.String(), "getValue", []any{}),
		q(S, "invokefunction", w.refchainHash.String(), "inc", []any{},
			[]any{map[string]any{"account": A.Hash.String(), "scopes": "CalledByEntry"}}),
	)
	// invokescript: a HALT transfer simulation with a signer, and two faults.
	transfer, err := transfers(w.gas, false, tr(A, w.acc["B"], gas(1)))
	if err != nil {
		return err
	}
	div := NewBuilder()
	div.Op(PUSH1, PUSH0, DIV)
	divScript, _ := div.Script()
	qs = append(qs,
		q(S, "invokescript", base64.StdEncoding.EncodeToString(transfer),
			[]any{map[string]any{"account": A.Hash.String(), "scopes": "CalledByEntry"}}),
		q(S, "invokescript", base64.StdEncoding.EncodeToString(transfer)), // no signer: transfer returns false
		q(S, "invokescript", base64.StdEncoding.EncodeToString(divScript)),
		q(S, "invokescript", base64.StdEncoding.EncodeToString([]byte{byte(ABORT)})),
		q(S, "calculatenetworkfee", base64.StdEncoding.EncodeToString(unsentTx)),
		q(S, "validateaddress", A.Address()),
		q(S, "validateaddress", "NotAnAddress"),
		q(S, "validateaddress", A.Address()[:len(A.Address())-1]+"x"),
		q(S, "validateaddress", Address(w.refchainHash)),
	)
	zero256 := "0x" + strings.Repeat("00", 32)
	zero160 := "0x" + strings.Repeat("00", 20)
	qs = append(qs,
		q(E, "nosuchmethod"),
		q(E, "getblock", "abc", true),
		q(E, "getblock", 999999, true),
		q(E, "getblock", -1),
		q(E, "getblock"),
		q(E, "getblock", zero256, true),
		q(E, "getblockhash", 999999),
		q(E, "getblockheader", 999999, true),
		q(E, "getrawtransaction", zero256, true),
		q(E, "getrawtransaction", "nothex"),
		q(E, "getapplicationlog", zero256),
		q(E, "getstateroot", 999999),
		q(E, "gettransactionheight", zero256),
		q(E, "getcontractstate", zero160),
		q(E, "getcontractstate", w.doomedHash.String()),
		q(E, "getstorage", w.refchainHash.String(), b64("beta")),
		q(E, "getstorage", w.doomedHash.String(), b64("x")),
		q(E, "invokefunction", "nothash", "balanceOf", []any{}),
		q(E, "invokescript", "!!notbase64"),
		q(E, "sendrawtransaction", "AAAA"),
		q(E, "calculatenetworkfee", "!!"),
		q(E, "getnep17balances", "NotAnAddress"),
		q(E, "getunclaimedgas", "NotAnAddress"),
		q(E, "validateaddress"),
		q(E, "getproof", zero256, w.refchainHash.String(), b64("alpha")),
	)
	for _, sq := range qs {
		if _, err := r.add(ctx, sq.file, sq.method, sq.params...); err != nil {
			return err
		}
	}
	// A transaction already on chain cannot be sent again.
	raw, err := r.add(ctx, S, "getrawtransaction", onChainTx)
	if err != nil {
		return err
	}
	var txB64 string
	if err := json.Unmarshal(raw, &txB64); err != nil {
		return err
	}
	if _, err := r.add(ctx, E, "sendrawtransaction", txB64); err != nil {
		return err
	}
	return w.recordProofs(ctx, r, height)
}

// recordProofs records getproof/verifyproof and the StateService getstate
// and findstates answers against the final state root.
func (w *world) recordProofs(ctx context.Context, r *recorder, height uint32) error {
	S, E := refchain.StateRecords, refchain.ErrorRecords
	raw, err := r.add(ctx, S, "getstateroot", height)
	if err != nil {
		return err
	}
	var sr refchain.StateRoot
	if err := json.Unmarshal(raw, &sr); err != nil {
		return err
	}
	root := sr.RootHash
	for _, k := range []string{"alpha", "gamma", "counter"} {
		raw, err := r.add(ctx, S, "getproof", root, w.refchainHash.String(), b64(k))
		if err != nil {
			return err
		}
		var proof string
		if err := json.Unmarshal(raw, &proof); err != nil {
			return err
		}
		if _, err := r.add(ctx, S, "verifyproof", root, proof); err != nil {
			return err
		}
		if _, err := r.add(ctx, S, "getstate", root, w.refchainHash.String(), b64(k)); err != nil {
			return err
		}
	}
	if _, err := r.add(ctx, S, "findstates", root, w.refchainHash.String(), ""); err != nil {
		return err
	}
	if _, err := r.add(ctx, S, "findstates", root, w.neo.String(), "", "", 3); err != nil {
		return err
	}
	if _, err := r.add(ctx, E, "getproof", root, w.refchainHash.String(), b64("beta")); err != nil {
		return err
	}
	if _, err := r.add(ctx, E, "verifyproof", root, b64("not a proof")); err != nil {
		return err
	}
	_, err = r.add(ctx, E, "getstate", root, w.refchainHash.String(), b64("beta"))
	return err
}
