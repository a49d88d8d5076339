package bench

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// fakeNode is a small JSON-RPC node for the end-to-end tests: it answers the
// calls the benchmark makes, verifies the witnesses and fees of what it is
// sent, keeps a capped mempool (-502 when full) and makes a block of real
// encoded transactions every interval, with timestamps exactly 1000 ms
// apart. It executes the transfers of its blocks on a balance table.
type fakeNode struct {
	t          *testing.T
	magic      uint32
	msPerBlock int // reported in getversion
	poolCap    int
	perBlock   int
	natives    map[string]hash.Uint160

	mu       sync.Mutex
	pool     []*transaction.Transaction
	known    map[hash.Uint256]bool
	received map[hash.Uint256][]byte // every accepted transaction's bytes
	blocks   []*block.Block
	raw      [][]byte
	balances map[hash.Uint160]map[hash.Uint160]int64 // token → account → amount
	full     int                                     // -502 answers given
	rejected []string

	srv  *httptest.Server
	stop chan struct{}
	done chan struct{}
}

const fakeT0 = 1_700_000_000_000 // timestamp of the fake genesis, ms

type fakeOpts struct {
	poolCap, perBlock int
	interval          time.Duration
}

func newFakeNode(t *testing.T, o fakeOpts) *fakeNode {
	n := &fakeNode{
		t: t, magic: 56753, msPerBlock: int(o.interval / time.Millisecond), poolCap: o.poolCap, perBlock: o.perBlock,
		natives:  map[string]hash.Uint160{"NeoToken": neoToken},
		known:    make(map[hash.Uint256]bool),
		received: make(map[hash.Uint256][]byte),
		balances: make(map[hash.Uint160]map[hash.Uint160]int64),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	n.natives["GasToken"], _ = hash.Uint160DecodeStringLE("d2a4cff31913016155e38e474a2c06d08be276cf")
	n.natives["PolicyContract"], _ = hash.Uint160DecodeStringLE("cc5e4edd9f5f8dba8bb65734541df7a1c081c67b")
	committee, err := NewMultisig(SingleNodeWIFs)
	if err != nil {
		t.Fatal(err)
	}
	n.credit(n.natives["NeoToken"], committee.Account, 100_000_000)
	n.credit(n.natives["GasToken"], committee.Account, 52_000_000*GASFactor)
	n.makeBlock() // genesis
	n.srv = httptest.NewServer(http.HandlerFunc(n.serve))
	go func() {
		defer close(n.done)
		tk := time.NewTicker(o.interval)
		defer tk.Stop()
		for {
			select {
			case <-n.stop:
				return
			case <-tk.C:
				n.mu.Lock()
				n.makeBlock()
				n.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		close(n.stop)
		<-n.done
		n.srv.Close()
	})
	return n
}

func (n *fakeNode) credit(token, acc hash.Uint160, v int64) {
	if n.balances[token] == nil {
		n.balances[token] = make(map[hash.Uint160]int64)
	}
	n.balances[token][acc] += v
}

// parseTransfer reads TransferScript's layout back.
func parseTransfer(s []byte) (token, from, to hash.Uint160, amount int64, ok bool) {
	if len(s) < 2 || s[0] != byte(opcode.PUSHNULL) {
		return
	}
	i := 1
	switch op := opcode.Opcode(s[i]); {
	case op >= opcode.PUSHM1 && op <= opcode.PUSH16:
		amount = int64(op) - int64(opcode.PUSH0)
		i++
	case op <= opcode.PUSHINT64:
		size := 1 << op
		if len(s) < i+1+size {
			return
		}
		for j := size - 1; j >= 0; j-- {
			amount = amount<<8 | int64(s[i+1+j])
		}
		if size < 8 && s[i+size]&0x80 != 0 {
			amount -= 1 << (8 * size)
		}
		i += 1 + size
	default:
		return
	}
	get := func(dst *hash.Uint160) bool {
		if len(s) < i+22 || s[i] != byte(opcode.PUSHDATA1) || s[i+1] != 20 {
			return false
		}
		copy(dst[:], s[i+2:i+22])
		i += 22
		return true
	}
	if !get(&to) || !get(&from) {
		return
	}
	i += 3 // PUSH4 PACK PUSH15
	if len(s) < i+10 || string(s[i+2:i+10]) != "transfer" {
		return
	}
	i += 10
	ok = get(&token)
	return
}

// makeBlock takes up to perBlock transactions from the pool into a block
// and executes their transfers. n.mu is held.
func (n *fakeNode) makeBlock() {
	take := min(len(n.pool), n.perBlock)
	b := &block.Block{Header: block.Header{
		Index:     uint32(len(n.blocks)),
		Timestamp: fakeT0 + 1000*uint64(len(n.blocks)),
		Witness:   transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{byte(opcode.PUSH1)}},
	}, Transactions: n.pool[:take:take]}
	n.pool = append([]*transaction.Transaction(nil), n.pool[take:]...)
	if len(n.blocks) > 0 {
		b.PrevHash = n.blocks[len(n.blocks)-1].Hash()
	}
	b.MerkleRoot = b.ComputeMerkleRoot()
	for _, tx := range b.Transactions {
		if token, from, to, amount, ok := parseTransfer(tx.Script); ok && n.balances[token][from] >= amount {
			n.balances[token][from] -= amount
			n.credit(token, to, amount)
		}
	}
	n.blocks = append(n.blocks, b)
	n.raw = append(n.raw, b.Bytes())
}

// verify checks the witness and network fee of tx as a node would.
func (n *fakeNode) verify(tx *transaction.Transaction) error {
	if len(tx.Witnesses) != 1 || tx.Witnesses[0].ScriptHash() != tx.Signers[0].Account {
		return fmt.Errorf("witness does not match the signer")
	}
	w := tx.Witnesses[0]
	sd := tx.SignData(n.magic)
	if key, ok := smartcontract.ParseSignatureContract(w.VerificationScript); ok {
		pub, err := keys.NewPublicKeyFromBytes(key)
		sig, ok := smartcontract.ParseSignatureInvocation(w.InvocationScript)
		if err != nil || !ok || !pub.VerifyMessage(sig, sd[:]) {
			return fmt.Errorf("bad signature")
		}
	} else if m, pubs, ok := smartcontract.ParseMultiSigContract(w.VerificationScript); ok {
		sigs, ok := smartcontract.ParseMultiSigInvocation(m, w.InvocationScript)
		if !ok {
			return fmt.Errorf("bad multisig invocation")
		}
		j := 0
		for _, s := range sigs {
			for j < len(pubs) && !pubs[j].VerifyMessage(s, sd[:]) {
				j++
			}
			if j == len(pubs) {
				return fmt.Errorf("bad multisig signature")
			}
			j++
		}
	} else {
		return fmt.Errorf("non-standard witness")
	}
	if need := RequiredNetworkFee(tx, DefaultFeePerByte, DefaultExecFeeFactor); tx.NetworkFee < need {
		return fmt.Errorf("insufficient network fee %d < %d", tx.NetworkFee, need)
	}
	if tx.ValidUntilBlock <= uint32(len(n.blocks)-1) {
		return fmt.Errorf("expired")
	}
	return nil
}

func (n *fakeNode) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
		ID     json.RawMessage   `json:"id"`
	}
	reply := func(result any, e *neorpc.Error) {
		out := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if e != nil {
			out["error"] = e
		} else {
			out["result"] = result
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	}
	if err := json.Unmarshal(body, &req); err != nil {
		reply(nil, neorpc.NewParseError(err.Error()))
		return
	}
	str := func(i int) string {
		var s string
		if i < len(req.Params) {
			json.Unmarshal(req.Params[i], &s)
		}
		return s
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	switch req.Method {
	case "getversion":
		reply(map[string]any{"useragent": "/fake:0.0.1/", "protocol": map[string]any{
			"network": n.magic, "msperblock": n.msPerBlock, "validatorscount": 1,
			"maxvaliduntilblockincrement": 86400, "memorypoolmaxtransactions": n.poolCap, "maxtransactionsperblock": n.perBlock,
		}}, nil)
	case "getnativecontracts":
		var list []any
		for name, h := range n.natives {
			list = append(list, map[string]any{"hash": "0x" + h.StringLE(), "manifest": map[string]any{"name": name}})
		}
		reply(list, nil)
	case "getblockcount":
		reply(len(n.blocks), nil)
	case "getblock":
		var i int
		if len(req.Params) == 0 || json.Unmarshal(req.Params[0], &i) != nil || i < 0 || i >= len(n.raw) {
			reply(nil, neorpc.NewErrorWithCode(neorpc.ErrUnknownBlockCode, "Unknown block"))
			return
		}
		reply(base64.StdEncoding.EncodeToString(n.raw[i]), nil)
	case "invokefunction":
		h, _ := hash.Uint160DecodeStringLE(str(0)[2:])
		var v int64
		switch method := str(1); {
		case method == "getFeePerByte" && h == n.natives["PolicyContract"]:
			v = DefaultFeePerByte
		case method == "getExecFeeFactor" && h == n.natives["PolicyContract"]:
			v = DefaultExecFeeFactor
		case method == "balanceOf":
			var args []struct{ Value string }
			json.Unmarshal(req.Params[2], &args)
			acc, _ := hash.Uint160DecodeStringLE(args[0].Value[2:])
			v = n.balances[h][acc]
		default:
			reply(nil, neorpc.NewInvalidParamsError("unknown method "+method))
			return
		}
		reply(map[string]any{"state": "HALT", "stack": []any{map[string]any{"type": "Integer", "value": strconv.FormatInt(v, 10)}}}, nil)
	case "sendrawtransaction":
		raw, err := base64.StdEncoding.DecodeString(str(0))
		if err != nil {
			reply(nil, neorpc.NewInvalidParamsError(err.Error()))
			return
		}
		tx, err := transaction.NewTransactionFromBytes(raw)
		if err != nil {
			reply(nil, neorpc.NewInvalidParamsError(err.Error()))
			return
		}
		if err := n.verify(tx); err != nil {
			n.rejected = append(n.rejected, err.Error())
			reply(nil, neorpc.NewError(neorpc.ErrVerificationFailedCode, "Verification failed", err.Error()))
			return
		}
		if n.known[tx.Hash()] {
			reply(nil, neorpc.NewErrorWithCode(-501, "Already exists"))
			return
		}
		if len(n.pool) >= n.poolCap {
			n.full++
			reply(nil, neorpc.ErrMempoolCapReached)
			return
		}
		n.known[tx.Hash()] = true
		n.received[tx.Hash()] = raw
		n.pool = append(n.pool, tx)
		reply(map[string]string{"hash": "0x" + tx.Hash().StringLE()}, nil)
	default:
		reply(nil, neorpc.NewMethodNotFoundError(req.Method))
	}
}
