package chainrpc

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Limits of the token methods (neo-go rpcsrv).
const (
	// MaxTransfersLimit is the most transfers one getnep1xtransfers page
	// may ask for (neo-go maxTransfersLimit).
	MaxTransfersLimit = 1000
	// maxTokenIDLen is the longest NFT id listed (limits.MaxStorageKeyLen).
	maxTokenIDLen = 64
)

// invokeReadOnly runs methods of contract h with CallFlags ReadStates|
// AllowCall over the current state with a 3 GAS limit and returns one
// result per method. finalize releases what the results hold (iterators);
// it must be called.
func (s *Service) invokeReadOnly(h hash.Uint160, methods []string, args [][]any) ([]stackitem.Item, func(), error) {
	w := nio.NewBufBinWriter()
	for i := range methods {
		emit.AppCall(w, h, methods[i], callflag.ReadStates|callflag.AllowCall, args[i]...)
		if w.Err != nil {
			return nil, nil, fmt.Errorf("failed to create `%s` invocation script: %w", methods[i], w.Err)
		}
	}
	script := w.Bytes()
	ic, err := s.chain.GetTestVM(trigger.Application, &transaction.Transaction{Script: script}, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to prepare test VM: %w", err)
	}
	ic.VM.SetGasLimit(HeaderVerificationGasLimit)
	if err := ic.LoadScript(script, callflag.All); err != nil {
		ic.Finalize()
		return nil, nil, err
	}
	ic.VM.Execute()
	if ic.VM.HasFailed() {
		ic.Finalize()
		return nil, nil, fmt.Errorf("failed to run %d methods of %s: %w", len(methods), h.StringLE(), ic.VM.FaultError())
	}
	items := ic.ResultItems()
	if len(items) != len(methods) {
		ic.Finalize()
		return nil, nil, fmt.Errorf("invalid return values count: expected %d, got %d", len(methods), len(items))
	}
	return items, ic.Finalize, nil
}

// tokenInfo reads symbol and decimals results.
func tokenInfo(symItem, decItem stackitem.Item) (string, int, error) {
	sym, _, err := stackitem.ToString(symItem)
	if err != nil {
		return "", 0, fmt.Errorf("`symbol` return value error: %w", err)
	}
	dec, err := decItem.TryInteger()
	if err != nil {
		return "", 0, fmt.Errorf("`decimals` return value error: %w", err)
	}
	if !dec.IsInt64() || dec.Sign() < 0 || dec.Int64() > math.MaxInt32 {
		return "", 0, errors.New("`decimals` returned a bad integer")
	}
	return sym, int(dec.Int64()), nil
}

func (s *Service) nep17Balance(h, acc hash.Uint160) (*big.Int, string, int, error) {
	items, finalize, err := s.invokeReadOnly(h, []string{"balanceOf", "symbol", "decimals"}, [][]any{{acc}, nil, nil})
	if err != nil {
		return nil, "", 0, err
	}
	finalize()
	bal, err := items[0].TryInteger()
	if err != nil {
		return nil, "", 0, fmt.Errorf("unexpected `balanceOf` result type: %w", err)
	}
	sym, dec, err := tokenInfo(items[1], items[2])
	if err != nil {
		return nil, "", 0, err
	}
	return bal, sym, dec, nil
}

// lastUpdated returns the last update block of a balance of acc in
// contract id (falling back to the state sync point, as neo-go does).
func (s *Service) lastUpdated(lub map[int32]uint32, id int32, h hash.Uint160) (uint32, *neorpc.Error) {
	if v, ok := lub[id]; ok {
		return v, nil
	}
	cfg := s.chain.Config()
	if cfg.RemoveUntraceableBlocks {
		return 0, neorpc.NewInternalServerError(fmt.Sprintf("failed to get LastUpdatedBlock for balance of %s token: internal database inconsistency", h.StringLE()))
	}
	return lub[math.MinInt32], nil
}

func (s *Service) getNEP17Balances(a *args) (any, *neorpc.Error) {
	u := get[hash.Uint160](a, 0)
	res := &result.NEP17Balances{Address: neorpc.Uint160ToAddress(u), Balances: []result.NEP17Balance{}}
	lub, err := s.chain.GetTokenLastUpdated(u)
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Failed to get NEP-17 last updated block: %s", err))
	}
	for _, h := range s.chain.GetNEP17Contracts() {
		bal, sym, dec, err := s.nep17Balance(h, u)
		if err != nil || bal.Sign() == 0 {
			continue
		}
		cs := s.chain.GetContractState(h)
		if cs == nil {
			continue
		}
		last, rerr := s.lastUpdated(lub, cs.ID, h)
		if rerr != nil {
			return nil, rerr
		}
		res.Balances = append(res.Balances, result.NEP17Balance{
			Asset: h, Amount: bal.String(), Decimals: dec, LastUpdated: last, Name: cs.Manifest.Name, Symbol: sym,
		})
	}
	return res, nil
}

// nep11Tokens returns up to MaxNEP11Tokens ids of acc in contract h and the
// token's symbol and decimals.
func (s *Service) nep11Tokens(h, acc hash.Uint160) ([]stackitem.Item, string, int, error) {
	items, finalize, err := s.invokeReadOnly(h, []string{"tokensOf", "symbol", "decimals"}, [][]any{{acc}, nil, nil})
	if err != nil {
		return nil, "", 0, err
	}
	defer finalize()
	it, ok := iteratorOf(items[0])
	if !ok {
		return nil, "", 0, fmt.Errorf("invalid `tokensOf` result type %s", items[0].Type())
	}
	vals := takeValues(it, s.cfg.MaxNEP11Tokens)
	sym, dec, err := tokenInfo(items[1], items[2])
	if err != nil {
		return nil, "", 0, err
	}
	return vals, sym, dec, nil
}

func iteratorOf(item stackitem.Item) (interop.Iterator, bool) {
	op, ok := item.(*stackitem.Interop)
	if !ok {
		return nil, false
	}
	it, ok := op.Value().(interop.Iterator)
	return it, ok
}

func (s *Service) getNEP11Balances(a *args) (any, *neorpc.Error) {
	u := get[hash.Uint160](a, 0)
	res := &result.NEP11Balances{Address: neorpc.Uint160ToAddress(u), Balances: []result.NEP11AssetBalance{}}
	lub, err := s.chain.GetTokenLastUpdated(u)
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Failed to get NEP-11 last updated block: %s", err))
	}
	var count int
contracts:
	for _, h := range s.chain.GetNEP11Contracts() {
		toks, sym, dec, err := s.nep11Tokens(h, u)
		if err != nil || len(toks) == 0 {
			continue
		}
		cs := s.chain.GetContractState(h)
		if cs == nil {
			continue
		}
		divisible := isNEP11Divisible(&cs.Manifest)
		last, rerr := s.lastUpdated(lub, cs.ID, h)
		if rerr != nil {
			return nil, rerr
		}
		res.Balances = append(res.Balances, result.NEP11AssetBalance{
			Asset: h, Decimals: dec, Name: cs.Manifest.Name, Symbol: sym,
			Tokens: make([]result.NEP11TokenBalance, 0, len(toks)),
		})
		cur := &res.Balances[len(res.Balances)-1]
		for _, tok := range toks {
			id, err := tok.TryBytes()
			if err != nil || len(id) > maxTokenIDLen {
				continue
			}
			amount := "1"
			if divisible {
				items, finalize, err := s.invokeReadOnly(h, []string{"balanceOf"}, [][]any{{u, id}})
				if err != nil {
					continue
				}
				finalize()
				bal, err := items[0].TryInteger()
				if err != nil || bal.Sign() == 0 {
					continue
				}
				amount = bal.String()
			}
			count++
			cur.Tokens = append(cur.Tokens, result.NEP11TokenBalance{ID: hex.EncodeToString(id), Amount: amount, LastUpdated: last})
			if count >= s.cfg.MaxNEP11Tokens {
				break contracts
			}
		}
	}
	return res, nil
}

func (s *Service) getNEP11Properties(a *args) (any, *neorpc.Error) {
	asset, token := get[hash.Uint160](a, 0), get[[]byte](a, 1)
	items, finalize, err := s.invokeReadOnly(asset, []string{"properties"}, [][]any{{token}})
	if err == nil {
		defer finalize()
		if items[0].Type() != stackitem.MapT {
			err = fmt.Errorf("invalid `properties` result type %s", items[0].Type())
		}
	}
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrExecutionFailed, fmt.Sprintf("Failed to get NEP-11 properties: %s", err))
	}
	res := make(map[string]any)
	for _, kv := range items[0].(*stackitem.Map).Elements() {
		key, err := kv.Key.TryBytes()
		if err != nil {
			continue
		}
		var val any
		known := result.KnownNEP11Properties[string(key)]
		if known || kv.Value.Type() != stackitem.AnyT {
			v, err := kv.Value.TryBytes()
			if err != nil {
				continue
			}
			if known {
				val = string(v)
			} else {
				val = v
			}
		}
		res[string(key)] = val
	}
	return res, nil
}

func (s *Service) getNEP17Transfers(a *args) (any, *neorpc.Error) {
	return s.tokenTransfers(get[hash.Uint160](a, 0), get[window](a, 1), false)
}

func (s *Service) getNEP11Transfers(a *args) (any, *neorpc.Error) {
	return s.tokenTransfers(get[hash.Uint160](a, 0), get[window](a, 1), true)
}

func (s *Service) tokenTransfers(u hash.Uint160, w window, nep11 bool) (any, *neorpc.Error) {
	start, end, limit, page := w.start, w.end, w.limit, w.page
	var (
		sent, recv17 []result.NEP17Transfer
		recv11, s11  []result.NEP11Transfer
		cache        = make(map[int32]hash.Uint160)
		addrs        = make(map[hash.Uint160]string)
		found, taken int
	)
	err := s.chain.ForEachTransfer(u, nep11, end, func(tr *Transfer) (bool, error) {
		if tr.Timestamp > end {
			return true, nil
		}
		if tr.Timestamp < start {
			return false, nil
		}
		found++
		if page*limit >= found {
			return true, nil
		}
		h, ok := cache[tr.Asset]
		if !ok {
			cs := s.chain.GetContractStateByID(tr.Asset)
			if cs == nil {
				return false, fmt.Errorf("contract %d not found", tr.Asset)
			}
			h = cs.Hash
			cache[tr.Asset] = h
		}
		t := result.NEP17Transfer{Timestamp: tr.Timestamp, Asset: h, Index: tr.Block, TxHash: tr.Tx}
		if !tr.Counterparty.IsZero() {
			a, ok := addrs[tr.Counterparty]
			if !ok {
				a = neorpc.Uint160ToAddress(tr.Counterparty)
				addrs[tr.Counterparty] = a
			}
			t.Address = a
		}
		received := tr.Amount.Sign() > 0
		if received {
			t.Amount = tr.Amount.String()
		} else {
			t.Amount = new(big.Int).Neg(tr.Amount).String()
		}
		switch {
		case nep11:
			t11 := result.NEP11Transfer{Timestamp: t.Timestamp, Asset: t.Asset, Address: t.Address, ID: hex.EncodeToString(tr.ID),
				Amount: t.Amount, Index: t.Index, TxHash: t.TxHash}
			if received {
				recv11 = append(recv11, t11)
			} else {
				s11 = append(s11, t11)
			}
		case received:
			recv17 = append(recv17, t)
		default:
			sent = append(sent, t)
		}
		taken++
		return taken < limit, nil
	})
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("invalid transfer log: %s", err))
	}
	addr := neorpc.Uint160ToAddress(u)
	if nep11 {
		return rawJSON(&result.NEP11Transfers{Sent: nonNil(s11), Received: nonNil(recv11), Address: addr})
	}
	return rawJSON(&result.NEP17Transfers{Sent: nonNil(sent), Received: nonNil(recv17), Address: addr})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// abiMethod is a method a token standard requires: params nil means any
// parameters.
type abiMethod struct {
	name   string
	params []smartcontract.ParamType
	ret    smartcontract.ParamType
	safe   bool
}

// nep11Divisible is neo-go's standard.Nep11Divisible with its bases
// (decimal token, NEP-11 base), checked as ComplyABI does: required
// methods, the Transfer event, optional methods when present.
var (
	nep11DivisibleMethods = []abiMethod{
		{"decimals", []smartcontract.ParamType{}, smartcontract.IntegerType, true},
		{"symbol", []smartcontract.ParamType{}, smartcontract.StringType, true},
		{"totalSupply", []smartcontract.ParamType{}, smartcontract.IntegerType, true},
		{"balanceOf", []smartcontract.ParamType{smartcontract.Hash160Type}, smartcontract.IntegerType, true},
		{"tokensOf", []smartcontract.ParamType{smartcontract.Hash160Type}, smartcontract.InteropInterfaceType, true},
		{"transfer", []smartcontract.ParamType{smartcontract.Hash160Type, smartcontract.ByteArrayType, smartcontract.AnyType}, smartcontract.BoolType, false},
		{"balanceOf", []smartcontract.ParamType{smartcontract.Hash160Type, smartcontract.ByteArrayType}, smartcontract.IntegerType, true},
		{"ownerOf", []smartcontract.ParamType{smartcontract.ByteArrayType}, smartcontract.InteropInterfaceType, true},
		{"transfer", []smartcontract.ParamType{smartcontract.Hash160Type, smartcontract.Hash160Type, smartcontract.IntegerType, smartcontract.ByteArrayType, smartcontract.AnyType}, smartcontract.BoolType, false},
	}
	nep11OptionalMethods = []abiMethod{
		{"properties", []smartcontract.ParamType{smartcontract.ByteArrayType}, smartcontract.MapType, true},
		{"tokens", []smartcontract.ParamType{}, smartcontract.InteropInterfaceType, true},
	}
	nep11TransferEvent = []smartcontract.ParamType{smartcontract.Hash160Type, smartcontract.Hash160Type, smartcontract.IntegerType, smartcontract.ByteArrayType}
)

func isNEP11Divisible(m *manifest.Manifest) bool {
	check := func(am abiMethod, optional bool) bool {
		n := -1
		if am.params != nil {
			n = len(am.params)
		}
		md := m.ABI.GetMethod(am.name, n)
		if md == nil {
			return optional
		}
		if md.ReturnType != am.ret || md.Safe != am.safe {
			return false
		}
		for i, t := range am.params {
			if md.Parameters[i].Type != t {
				return false
			}
		}
		return true
	}
	for _, am := range nep11DivisibleMethods {
		if !check(am, false) {
			return false
		}
	}
	ev := m.ABI.GetEvent("Transfer")
	if ev == nil || len(ev.Parameters) != len(nep11TransferEvent) {
		return false
	}
	for i, t := range nep11TransferEvent {
		if ev.Parameters[i].Type != t {
			return false
		}
	}
	for _, am := range nep11OptionalMethods {
		if !check(am, true) {
			return false
		}
	}
	return true
}
