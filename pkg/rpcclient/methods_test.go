package rpcclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/rpctest"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// TestTypedMethodParams checks the parameters each typed method sends
// (neo-go's client forms) and that answers are decoded.
func TestTypedMethodParams(t *testing.T) {
	srv := rpctest.NewServer()
	defer srv.Close()
	c, err := rpcclient.New(srv.URL, rpcclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	acc := hash.Uint160{0xaa, 0xbb}
	txh := hash.Uint256{0x01, 0x02}
	addr := neorpc.Uint160ToAddress(acc)

	srv.Result("invokefunction", rpcclient.InvokeResult{State: "HALT", GasConsumed: 7,
		Stack: []stackitem.Item{stackitem.NewBigInteger(big.NewInt(5))}})
	res, err := c.InvokeFunction(ctx, nativenames.GasHash, "balanceOf",
		[]smartcontract.Parameter{smartcontract.NewHash160Parameter(acc), smartcontract.NewIntParameter(-3), smartcontract.NewArrayParameter(smartcontract.NewBoolParameter(true), smartcontract.NewAnyParameter())},
		[]transaction.Signer{{Account: acc, Scopes: transaction.CalledByEntry}})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.Int(0); err != nil || n.Int64() != 5 || res.GasConsumed != 7 {
		t.Errorf("invokefunction result %+v %v", res, err)
	}
	want := []string{
		`"0xd2a4cff31913016155e38e474a2c06d08be276cf"`,
		`"balanceOf"`,
		`[{"type":"Hash160","value":"0x000000000000000000000000000000000000bbaa"},{"type":"Integer","value":"-3"},` +
			`{"type":"Array","value":[{"type":"Boolean","value":true},{"type":"Any"}]}]`,
		`[{"account":"0x000000000000000000000000000000000000bbaa","scopes":"CalledByEntry"}]`,
	}
	checkParams(t, srv.Calls("invokefunction")[0], want)

	srv.Result("invokescript", rpcclient.InvokeResult{State: "HALT"})
	if _, err := c.InvokeScript(ctx, []byte{0x40}, nil); err != nil {
		t.Fatal(err)
	}
	checkParams(t, srv.Calls("invokescript")[0], []string{`"QA=="`})

	srv.Result("calculatenetworkfee", map[string]string{"networkfee": "1232520"})
	tx := transaction.New([]byte{0x40}, 1, 0, 0, 100)
	tx.Signers = []transaction.Signer{{Account: acc}}
	tx.Witnesses = []transaction.Witness{{}}
	if fee, err := c.CalculateNetworkFee(ctx, tx); err != nil || fee != 1232520 {
		t.Errorf("calculatenetworkfee %d %v", fee, err)
	}

	srv.Result("getnep17balances", rpcclient.NEP17Balances{Address: addr, Balances: []rpcclient.NEP17Balance{{Asset: nativenames.GasHash, Amount: "100", Decimals: 8, Symbol: "GAS"}}})
	if b, err := c.GetNEP17Balances(ctx, acc); err != nil || len(b.Balances) != 1 || b.Balances[0].Decimals != 8 {
		t.Errorf("getnep17balances %+v %v", b, err)
	}
	checkParams(t, srv.Calls("getnep17balances")[0], []string{`"` + addr + `"`})

	srv.Result("getnep17transfers", rpcclient.NEP17Transfers{Address: addr, Sent: []rpcclient.NEP17Transfer{}, Received: []rpcclient.NEP17Transfer{}})
	start, stop := uint64(1), uint64(2)
	if _, err := c.GetNEP17Transfers(ctx, acc, &start, &stop); err != nil {
		t.Fatal(err)
	}
	checkParams(t, srv.Calls("getnep17transfers")[0], []string{`"` + addr + `"`, `1`, `2`})
	if _, err := c.GetNEP17Transfers(ctx, acc, nil, &stop); err == nil {
		t.Error("stop without start accepted")
	}

	u := rpcclient.UnclaimedGas{Address: acc}
	u.Unclaimed.SetInt64(99)
	srv.Result("getunclaimedgas", u)
	if g, err := c.GetUnclaimedGas(ctx, acc); err != nil || g.Unclaimed.Cmp(big.NewInt(99)) != 0 || g.Address != acc {
		t.Errorf("getunclaimedgas %+v %v", g, err)
	}

	srv.Handle("getapplicationlog", func([]json.RawMessage) (any, error) { return nil, neorpc.ErrUnknownScriptContainer })
	if _, err := c.GetApplicationLog(ctx, txh); !errors.Is(err, neorpc.ErrUnknownScriptContainer) {
		t.Errorf("unknown application log: %v", err)
	}
	checkParams(t, srv.Calls("getapplicationlog")[0], []string{`"` + txh.String() + `"`})

	srv.Result("getcontractstate", state.Contract{ContractBase: state.ContractBase{ID: -6, Hash: nativenames.GasHash}})
	if cs, err := c.GetContractStateByID(ctx, -6); err != nil || cs.Hash != nativenames.GasHash {
		t.Errorf("getcontractstate %v", err)
	}
	checkParams(t, srv.Calls("getcontractstate")[0], []string{`-6`})

	k, _ := keys.NewPrivateKey()
	srv.Result("getcommittee", []*keys.PublicKey{k.PublicKey()})
	if cm, err := c.GetCommittee(ctx); err != nil || len(cm) != 1 || !cm[0].Equal(k.PublicKey()) {
		t.Errorf("getcommittee %v %v", cm, err)
	}
	srv.Result("getcandidates", []rpcclient.Candidate{{PublicKey: *k.PublicKey(), Votes: 3, Active: true}})
	if cs, err := c.GetCandidates(ctx); err != nil || len(cs) != 1 || cs[0].Votes != 3 {
		t.Errorf("getcandidates %v %v", cs, err)
	}
	srv.Result("sendrawtransaction", map[string]string{"hash": tx.Hash().String()})
	if h, err := c.SendTransaction(ctx, tx); err != nil || h != tx.Hash() {
		t.Errorf("sendrawtransaction %s %v", h.StringLE(), err)
	}
}

func checkParams(t *testing.T, c rpctest.Call, want []string) {
	t.Helper()
	if len(c.Params) != len(want) {
		t.Fatalf("%s: %d params, want %d: %s", c.Method, len(c.Params), len(want), c.Params)
	}
	for i := range want {
		if string(c.Params[i]) != want[i] {
			t.Errorf("%s param %d:\n got %s\nwant %s", c.Method, i, c.Params[i], want[i])
		}
	}
}
