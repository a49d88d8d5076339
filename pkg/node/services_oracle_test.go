package node

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// oracleUser is a contract whose request(url, filter, callback,
// userData, gas) calls OracleContract.request and whose
// handle(url, userData, code, result) stores the result under "r" and
// sends Callback [url, userData, code, result].
func oracleUser() *chaintest.ContractBuilder {
	anyT := smartcontract.AnyType
	p := chaintest.Param
	b := chaintest.NewContractBuilder("OracleUser")
	b.Method("request", []manifest.Parameter{p("url", smartcontract.StringType), p("filter", anyT), p("callback", smartcontract.StringType),
		p("userData", anyT), p("gas", smartcontract.IntegerType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		for i := 4; i >= 0; i-- {
			emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(i))
		}
		emit.Int(w, 5)
		emit.Opcodes(w, opcode.PACK)
		emit.Int(w, int64(callflag.All))
		emit.String(w, "request")
		emit.Bytes(w, nativenames.OracleHash[:])
		emit.Syscall(w, interop.SystemContractCall)
		emit.Opcodes(w, opcode.DROP)
	})
	b.Method("handle", []manifest.Parameter{p("url", smartcontract.StringType), p("userData", anyT), p("code", smartcontract.IntegerType),
		p("result", smartcontract.ByteArrayType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG3)
		emit.String(w, "r")
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStoragePut)
		for i := 3; i >= 0; i-- {
			emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(i))
		}
		emit.Int(w, 4)
		emit.Opcodes(w, opcode.PACK)
		emit.String(w, "Callback")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	b.Event("Callback", p("url", anyT), p("userData", anyT), p("code", anyT), p("result", anyT))
	return b
}

// deployContract deploys b from acc and returns its hash.
func deployContract(t *testing.T, s *txSender, acc account, b *chaintest.ContractBuilder) hash.Uint160 {
	t.Helper()
	f, m := b.Build()
	s.run(acc, chaintest.DeployScript(f, m), 50_0000_0000)
	h := smartcontract.GetContractHash(acc.hash(), f.Checksum, b.Manifest.Name)
	if s.n.Chain().GetContractState(h) == nil {
		t.Fatal("deployed contract not found")
	}
	return h
}

// findTx waits for a transaction in the blocks after from that match
// reports, and returns it with its block index.
func findTx(t *testing.T, n *Node, from uint32, what string, match func(*transaction.Transaction) bool) (*transaction.Transaction, uint32) {
	t.Helper()
	var (
		found *transaction.Transaction
		at    uint32
	)
	next := from + 1
	waitFor(t, what, func() bool {
		for ; next <= n.Chain().BlockHeight(); next++ {
			b, err := n.Chain().GetBlockByIndex(next)
			if err != nil {
				t.Fatal(err)
			}
			for _, tx := range b.Transactions {
				if match(tx) {
					found, at = tx, next
					return true
				}
			}
		}
		return false
	})
	return found, at
}

// TestOracleNodes: the four validators, designated as Oracle nodes by a
// committee transaction, run the Oracle service with RPC between them
// (submitoracleresponse, the Nodes of the configuration). A contract's
// Oracle.request for an https URL of a test server is answered: the
// nodes fetch it, filter it, exchange their signatures and one of them
// relays the 3-of-4 signed response transaction, whose callback gets the
// filtered data and stores it.
func TestOracleNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("four nodes")
	}
	// Not parallel: the RPC ports are reserved before the nodes bind them.
	mux := http.NewServeMux()
	hits := make(chan struct{}, 16)
	mux.HandleFunc("/price", func(w http.ResponseWriter, _ *http.Request) {
		hits <- struct{}{}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"pair":"NEO/GAS","value":"12.5"}`))
	})
	srv := httptest.NewTLSServer(mux)
	defer srv.Close()

	rpcAddrs := freeAddresses(t, 4)
	vals, _ := startFourValidatorsWith(t, 0, func(i int, cfg *config.Config, o *ServiceOptions) {
		app := &cfg.ApplicationConfiguration
		app.RPC.Enabled = true
		app.RPC.Addresses = []string{rpcAddrs[i-1]}
		app.Oracle.Enabled = true
		app.Oracle.UnlockWallet = app.Consensus.UnlockWallet
		// Every Oracle node, this one included (as in the embedded
		// privnet4 configurations).
		app.Oracle.Nodes = nil
		for _, a := range rpcAddrs {
			app.Oracle.Nodes = append(app.Oracle.Nodes, "http://"+a)
		}
		o.OracleHTTPClient = srv.Client() // trusts the test certificate
	})
	for i, n := range vals {
		if n.OracleService() == nil {
			t.Fatalf("node %d: no Oracle service", i+1)
		}
	}
	s := newTxSender(t, vals[0])
	ctx := context.Background()
	waitBlockCount(t, s.c, 2)

	committee := committeeOf(t, vals)
	pubs := make([]*keys.PublicKey, len(vals))
	for i, n := range vals {
		pubs[i] = n.ValidatorKeys()[0]
	}
	s.run(committee, chaintest.Script(func(w *nio.BinWriter) {
		designateScript(w, noderoles.Oracle, pubs...)
	}), 1_0000_0000)
	user := deployContract(t, s, committee, oracleUser())

	url := srv.URL + "/price"
	reqTx := s.send(committee, chaintest.CallScript(user, "request", url, "$.value", "handle", "ud", 1_0000_0000), 10_0000_0000)
	s.wait(reqTx)
	at, err := s.c.GetTransactionHeight(ctx, reqTx)
	if err != nil {
		t.Fatal(err)
	}
	resp, respAt := findTx(t, vals[0], at, "oracle response transaction", func(tx *transaction.Transaction) bool {
		return len(tx.Attributes) > 0 && tx.Attributes[0].Type == transaction.OracleResponseT
	})
	attr := resp.Attributes[0].Value.(*transaction.OracleResponse)
	const want = `["12.5"]`
	if attr.Code != transaction.Success || string(attr.Result) != want {
		t.Fatalf("response %d: code %v result %q", attr.ID, attr.Code, attr.Result)
	}
	if len(resp.Witnesses) != 2 || hash.Hash160(resp.Witnesses[1].VerificationScript) != committee.hash() || len(resp.Witnesses[1].InvocationScript) != 3*66 {
		t.Fatalf("response witnesses: %+v", resp.Witnesses)
	}
	exec := s.wait(resp.Hash())
	var cb *state.NotificationEvent
	for i := range exec.Events {
		if exec.Events[i].Name == "Callback" && exec.Events[i].ScriptHash == user {
			cb = &exec.Events[i]
		}
	}
	if cb == nil {
		t.Fatalf("no Callback in the response transaction: %+v", exec.Events)
	}
	items := cb.Item.Value().([]stackitem.Item)
	if u, _ := items[0].TryBytes(); string(u) != url {
		t.Fatalf("callback url %q", u)
	}
	if r, _ := items[3].TryBytes(); string(r) != want {
		t.Fatalf("callback result %q", r)
	}
	var stored string
	if err := s.c.Call(ctx, "getstorage", []any{user.StringLE(), "cg=="}, &stored); err != nil || stored != "WyIxMi41Il0=" {
		t.Fatalf("getstorage r: %q, %v", stored, err)
	}

	// A URL the server does not have: answered NotFound with no data,
	// the callback runs all the same.
	missing := s.send(committee, chaintest.CallScript(user, "request", srv.URL+"/missing", nil, "handle", "ud", 1_0000_0000), 10_0000_0000)
	s.wait(missing)
	at2, err := s.c.GetTransactionHeight(ctx, missing)
	if err != nil {
		t.Fatal(err)
	}
	resp2, _ := findTx(t, vals[0], at2, "oracle response to the missing URL", func(tx *transaction.Transaction) bool {
		return len(tx.Attributes) > 0 && tx.Attributes[0].Type == transaction.OracleResponseT
	})
	if a := resp2.Attributes[0].Value.(*transaction.OracleResponse); a.Code != transaction.NotFound || len(a.Result) != 0 || a.ID != attr.ID+1 {
		t.Fatalf("response to the missing URL: %+v", a)
	}
	exec = s.wait(resp2.Hash())
	if len(exec.Events) == 0 || exec.Events[len(exec.Events)-1].Name != "Callback" {
		t.Fatalf("missing URL: no callback: %+v", exec.Events)
	}
	t.Logf("request in block %d, response %s in block %d; the server was asked %d times", at, resp.Hash().StringLE(), respAt, len(hits))
}
