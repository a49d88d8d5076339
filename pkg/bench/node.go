package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient"
)

// NodeInfo is what the benchmark needs of getversion.
type NodeInfo struct {
	UserAgent  string `json:"useragent"`
	Magic      uint32 `json:"network"`
	MSPerBlock int    `json:"msperblock"`
	Validators int    `json:"validatorscount"`
	MaxVUBInc  uint32 `json:"maxvaliduntilblockincrement"`
	MemPool    int    `json:"memorypoolmaxtransactions"`
	MaxTxs     int    `json:"maxtransactionsperblock"`
}

// dialNode opens a client to endpoint (conns idle connections kept) and
// reads the node's facts with it, the first step of Run and RunExternal.
func dialNode(ctx context.Context, endpoint string, conns int) (*rpcclient.Client, NodeInfo, error) {
	cli, err := rpcclient.New(endpoint, rpcclient.Options{RequestTimeout: 30 * time.Second, MaxIdleConnsPerHost: conns})
	if err != nil {
		return nil, NodeInfo{}, err
	}
	info, err := GetNodeInfo(ctx, cli)
	if err != nil {
		cli.Close()
		return nil, NodeInfo{}, err
	}
	return cli, info, nil
}

// GetNodeInfo calls getversion.
func GetNodeInfo(ctx context.Context, c *rpcclient.Client) (NodeInfo, error) {
	var v struct {
		UserAgent string   `json:"useragent"`
		Protocol  NodeInfo `json:"protocol"`
	}
	if err := c.Call(ctx, "getversion", nil, &v); err != nil {
		return NodeInfo{}, fmt.Errorf("getversion: %w", err)
	}
	info := v.Protocol
	info.UserAgent = v.UserAgent
	if info.MSPerBlock <= 0 {
		return info, fmt.Errorf("getversion: msperblock %d", info.MSPerBlock)
	}
	return info, nil
}

// Natives maps native contract names (manifest names: NeoToken, GasToken,
// PolicyContract, ...) to their hashes.
type Natives map[string]hash.Uint160

// GetNatives calls getnativecontracts.
func GetNatives(ctx context.Context, c *rpcclient.Client) (Natives, error) {
	var list []struct {
		Hash     hash.Uint160 `json:"hash"`
		Manifest struct {
			Name string `json:"name"`
		} `json:"manifest"`
	}
	if err := c.Call(ctx, "getnativecontracts", nil, &list); err != nil {
		return nil, fmt.Errorf("getnativecontracts: %w", err)
	}
	n := make(Natives, len(list))
	for _, x := range list {
		n[x.Manifest.Name] = x.Hash
	}
	for _, need := range []string{"NeoToken", "GasToken", "PolicyContract"} {
		if _, ok := n[need]; !ok {
			return nil, fmt.Errorf("getnativecontracts: no %s", need)
		}
	}
	return n, nil
}

// Hashes of the NEO and GAS native contracts: the same on every N3 network.
var (
	NativeNEO = mustHash("ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5")
	NativeGAS = mustHash("d2a4cff31913016155e38e474a2c06d08be276cf")
)

func mustHash(le string) hash.Uint160 {
	h, err := hash.Uint160DecodeStringLE(le)
	if err != nil {
		panic(err)
	}
	return h
}

// ResolveToken maps "NEO", "GAS" (any case) or a contract hash (0x-prefixed
// or plain reversed hex, as RPC prints it) to a contract hash.
// n may be nil: NEO and GAS then resolve to NativeNEO and NativeGAS.
func ResolveToken(n Natives, token string) (hash.Uint160, error) {
	switch strings.ToUpper(token) {
	case "NEO", "":
		if h, ok := n["NeoToken"]; ok {
			return h, nil
		}
		return NativeNEO, nil
	case "GAS":
		if h, ok := n["GasToken"]; ok {
			return h, nil
		}
		return NativeGAS, nil
	}
	h, err := hash.Uint160DecodeStringLE(strings.TrimPrefix(token, "0x"))
	if err != nil {
		return hash.Uint160{}, fmt.Errorf("token %q: not NEO, GAS or a contract hash: %w", token, err)
	}
	return h, nil
}

// ErrFault is returned when an invocation does not HALT.
var ErrFault = errors.New("bench: invocation faulted")

// invokeInt calls invokefunction and returns the integer the method left.
func invokeInt(ctx context.Context, c *rpcclient.Client, contract hash.Uint160, method string, args ...any) (*big.Int, error) {
	if args == nil {
		args = []any{}
	}
	var res struct {
		State     string `json:"state"`
		Exception string `json:"exception"`
		Stack     []struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"stack"`
	}
	if err := c.Call(ctx, "invokefunction", []any{"0x" + contract.StringLE(), method, args}, &res); err != nil {
		return nil, fmt.Errorf("invokefunction %s: %w", method, err)
	}
	if res.State != "HALT" || len(res.Stack) != 1 {
		return nil, fmt.Errorf("%w: %s: %s %s", ErrFault, method, res.State, res.Exception)
	}
	var s string
	if res.Stack[0].Type != "Integer" || json.Unmarshal(res.Stack[0].Value, &s) != nil {
		return nil, fmt.Errorf("invokefunction %s: result %s %s is not an integer", method, res.Stack[0].Type, res.Stack[0].Value)
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("invokefunction %s: bad integer %q", method, s)
	}
	return v, nil
}

// BalanceOf returns account's balance of a NEP-17 token.
func BalanceOf(ctx context.Context, c *rpcclient.Client, token, account hash.Uint160) (*big.Int, error) {
	return invokeInt(ctx, c, token, "balanceOf", map[string]string{"type": "Hash160", "value": "0x" + account.StringLE()})
}

// FeePolicy holds the fee settings of the Policy contract.
type FeePolicy struct {
	FeePerByte    int64 `json:"fee_per_byte"`
	ExecFeeFactor int64 `json:"exec_fee_factor"`
}

// GetFeePolicy reads getFeePerByte and getExecFeeFactor of the Policy
// contract.
func GetFeePolicy(ctx context.Context, c *rpcclient.Client, n Natives) (FeePolicy, error) {
	fpb, err := invokeInt(ctx, c, n["PolicyContract"], "getFeePerByte")
	if err != nil {
		return FeePolicy{}, err
	}
	eff, err := invokeInt(ctx, c, n["PolicyContract"], "getExecFeeFactor")
	if err != nil {
		return FeePolicy{}, err
	}
	return FeePolicy{FeePerByte: fpb.Int64(), ExecFeeFactor: eff.Int64()}, nil
}
