package chainrpc_test

// Differential tests against neo-go 0.120.0's own code (test-only import):
// the invokefunction and invokecontractverify script builders, the texts of
// truncated transactions and blocks, the fake header of
// invokecontainedscript; as plain tests over the seed corpora and as fuzz
// targets. Ours is always what a client gets: the method called on a
// chainrpc.Service over a test chain (chainrpc exports nothing for these
// tests).

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"
	"testing"

	ngblock "github.com/nspcc-dev/neo-go/pkg/core/block"
	ngtx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	ngio "github.com/nspcc-dev/neo-go/pkg/io"
	ngparams "github.com/nspcc-dev/neo-go/pkg/services/rpcsrv/params"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// Our side of every comparison is the production path: the chain methods
// (chainrpc.Service.Call) over a test chain through the node's adapter
// (rpcledger), as a client reaches them.

// node is a chainrpc.Service over a test chain; ledger records the block
// each test run was given (invokecontainedscript's fake block).
type node struct {
	svc    *chainrpc.Service
	ledger *recordingLedger
}

type recordingLedger struct {
	chainrpc.Ledger
	block *block.Block
}

func (l *recordingLedger) GetTestVM(trig trigger.Type, tx *transaction.Transaction, b *block.Block) (*interop.Context, error) {
	l.block = b
	return l.Ledger.GetTestVM(trig, tx, b)
}

func newNode(t testing.TB) *node {
	c := testchain.New(t)
	l := &recordingLedger{Ledger: rpcledger.New(c.BC)}
	return &node{svc: chainrpc.New(l, rpcserver.New(rpcserver.Config{}), chainrpc.Options{}), ledger: l}
}

// call runs a method with raw JSON parameters.
func (n *node) call(method string, raw ...string) (json.RawMessage, *neorpc.Error) {
	ps := make(neorpc.Params, len(raw))
	for i := range raw {
		ps[i] = neorpc.Param{RawMessage: json.RawMessage(raw[i])}
	}
	res, rerr := n.svc.Call(method, ps)
	if rerr != nil {
		return nil, rerr
	}
	b, _ := res.(json.RawMessage)
	return b, nil
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

var scriptSeeds = []string{
	`[]`, `null`, `5`, `"x"`, `{}`,
	`[{"type":"String","value":"abc"},{"type":"Integer","value":"123456789012345678901234567890"}]`,
	`[{"type":"Integer","value":-5},{"type":"Boolean","value":true},{"type":"Boolean","value":"false"},{"type":"Boolean","value":1}]`,
	`[{"type":"Hash160","value":"0xa8ef80bdb2abba80a51a2d6cfa0096e4be3765ba"},{"type":"Hash256","value":"85d62555284480da852e9cd3f753afb5c521277136629f6613e2ad750347a82f"}]`,
	`[{"type":"ByteArray","value":"AQID"},{"type":"Signature","value":""},{"type":"PublicKey","value":"02d7de51df894620af30ef30da806a580e52e7eb8658596522454f723718a50455"}]`,
	`[{"type":"PublicKey","value":"00"},{"type":"PublicKey","value":"04"}]`,
	`[{"type":"PublicKey","value":""}]`, `[{"type":"PublicKey","value":"0000"}]`, `[{"type":"PublicKey","value":"05"}]`,
	`[{"type":"PublicKey","value":"02d7de51df"}]`, `[{"type":"PublicKey","value":"zz"}]`,
	`[{"type":"PublicKey","value":"02ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}]`,
	`[{"type":"PublicKey","value":"030000000000000000000000000000000000000000000000000000000000000005"}]`,
	`[{"type":"PublicKey","value":"02d7de51df894620af30ef30da806a580e52e7eb8658596522454f723718a5045500"}]`,
	`[{"type":"PublicKey","value":"046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"}]`,
	`[{"type":"PublicKey","value":"046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f6"}]`,
	`[{"type":"Any"},{"type":"Any","value":null},{"type":"Any","value":5}]`,
	`[{"type":"Array","value":[{"type":"Integer","value":1},{"type":"Array","value":[]}]}]`,
	`[{"type":"Map","value":[{"key":{"type":"String","value":"k"},"value":{"type":"Integer","value":2}}]},{"type":"Map","value":[]}]`,
	`[{"type":"Map","value":[{"key":{"type":"Bad"},"value":{"type":"Integer","value":2}}]}]`,
	`[{"type":"Hash160","value":"bad"}]`, `[{"type":"Integer","value":"x"}]`, `[{"type":"Integer","value":1.5}]`,
	`[{"type":"Boolean","value":"maybe"}]`, `[{"type":"Void"}]`, `[{"type":"InteropInterface"}]`,
	`[{"type":"Unknown","value":1}]`, `[{"value":1}]`, `[5]`, `[[1]]`, `[{"type":"ByteArray","value":"!!"}]`,
	`[{"type":"String","value":true}]`, `[{"type":"String","value":{"a":1}}]`,
}

// neoGoScript runs neo-go's CreateFunctionInvocationScript.
func neoGoScript(contract hash.Uint160, method string, raw []byte) ([]byte, error) {
	var p *ngparams.Param
	if string(raw) != "" {
		p = &ngparams.Param{RawMessage: json.RawMessage(raw)}
	}
	return ngparams.CreateFunctionInvocationScript(ngutil.Uint160(contract), method, p)
}

// ourScript is the script of our invokefunction answer, or its error.
func (n *node) ourScript(contract hash.Uint160, method string, raw []byte) ([]byte, error) {
	params := []string{quote(contract.StringLE()), quote(method)}
	if string(raw) != "" {
		params = append(params, string(raw))
	}
	res, rerr := n.call("invokefunction", params...)
	if rerr != nil {
		return nil, rerr
	}
	var ans struct {
		Script []byte `json:"script"`
	}
	if err := json.Unmarshal(res, &ans); err != nil {
		return nil, err
	}
	return ans.Script, nil
}

// errData is the data of an RPC error ("" for other errors).
func errData(err error) string {
	if rerr, ok := err.(*neorpc.Error); ok {
		return rerr.Data
	}
	return ""
}

func (n *node) checkScript(t *testing.T, raw []byte) {
	// Parameters come out of request decoding without surrounding
	// whitespace.
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return
	}
	raw = buf.Bytes()
	h := hash.Uint160{1, 2, 3}
	want, werr := neoGoScript(h, "method", raw)
	got, gerr := n.ourScript(h, "method", raw)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%s: neo-go error %v, ours %v", raw, werr, gerr)
	}
	if werr != nil {
		if !strings.HasSuffix(errData(gerr), ": "+werr.Error()) {
			t.Errorf("%s: error text: neo-go %q, ours %q", raw, werr, errData(gerr))
		}
		return
	}
	if string(want) != string(got) {
		t.Fatalf("%s: script: neo-go %x, ours %x", raw, want, got)
	}
	// The same arguments as invokecontractverify's (no packing): neo-go's
	// pushes are the beginning of the packed script, and both reject the
	// same arguments.
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) != nil {
		return
	}
	ngArgs := make([]ngparams.Param, len(arr))
	for i := range arr {
		ngArgs[i] = ngparams.Param{RawMessage: arr[i]}
	}
	bw := ngio.NewBufBinWriter()
	werr = ngparams.ExpandArrayIntoScript(bw.BinWriter, ngArgs)
	_, verr := n.call("invokecontractverify", quote(h.StringLE()), string(raw))
	const bad = "can't create witness invocation script: "
	if (werr != nil) != (verr != nil && strings.HasPrefix(verr.Data, bad)) {
		t.Fatalf("%s: expand: neo-go error %v, ours %v", raw, werr, verr)
	}
	if werr == nil && !bytes.HasPrefix(got, bw.Bytes()) {
		t.Fatalf("%s: expand: neo-go %x, ours %x", raw, bw.Bytes(), got)
	}
}

func TestInvocationScriptNeoGo(t *testing.T) {
	n := newNode(t)
	for _, s := range scriptSeeds {
		n.checkScript(t, []byte(s))
	}
	// No parameter at all.
	h := hash.Uint160{9}
	want, _ := neoGoScript(h, "m", nil)
	got, _ := n.ourScript(h, "m", nil)
	if string(want) != string(got) {
		t.Fatalf("no params: neo-go %x, ours %x", want, got)
	}
}

func FuzzInvocationScript(f *testing.F) {
	for _, s := range scriptSeeds {
		f.Add([]byte(s))
	}
	n := newNode(f)
	f.Fuzz(func(t *testing.T, raw []byte) { n.checkScript(t, raw) })
}

// isEOF reports whether err is one of the two truncated-input errors of
// neo-go's readers.
func isEOF(err error) bool { return err == io.EOF || err == io.ErrUnexpectedEOF }

// checkTruncated compares the truncated-input texts of our transaction and
// block decoding with neo-go's (other decoding errors have texts of their
// own on both sides and are not compared).
func (n *node) checkTruncated(t *testing.T, b []byte, isBlock bool) {
	var (
		ngErr  error
		method = "sendrawtransaction"
	)
	if isBlock {
		blk := ngblock.New(false)
		r := ngio.NewBinReaderFromBuf(b)
		blk.DecodeBinary(r)
		ngErr = r.Err
		method = "submitblock"
	} else {
		_, ngErr = ngtx.NewTransactionFromBytes(b)
	}
	if !isEOF(ngErr) {
		return
	}
	_, rerr := n.call(method, quote(base64.StdEncoding.EncodeToString(b)))
	if rerr == nil || !strings.HasSuffix(rerr.Data, "EOF") {
		return
	}
	if !strings.HasSuffix(rerr.Data, ": "+ngErr.Error()) {
		t.Fatalf("%x (block %v): neo-go %q, ours %q", b, isBlock, ngErr, rerr.Data)
	}
}

func truncationSeeds() [][]byte {
	tx := transaction.New([]byte{0x11, 0x40}, 7, 1, 2, 100)
	tx.Signers = []transaction.Signer{{Account: hash.Uint160{1}, Scopes: transaction.CustomContracts | transaction.CalledByEntry,
		AllowedContracts: []hash.Uint160{{2}}}}
	tx.Attributes = []transaction.Attribute{{Type: transaction.HighPriority}}
	tx.Witnesses = []transaction.Witness{{InvocationScript: []byte{1, 2}, VerificationScript: []byte{3}}}
	raw := tx.Bytes()
	blk := &block.Block{Header: block.Header{Index: 3, Witness: transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}}},
		Transactions: []*transaction.Transaction{tx}}
	braw := blk.Bytes()
	var seeds [][]byte
	for _, n := range []int{0, 1, 3, 5, 25, 26, 45, 46, 48, 60, len(raw) - 1} {
		if n <= len(raw) {
			seeds = append(seeds, raw[:n])
		}
	}
	for _, n := range []int{0, 2, 4, 36, 100, 108, 109, 110, 113, len(braw) - 1} {
		if n <= len(braw) {
			seeds = append(seeds, append([]byte{0xbb}, braw[:n]...))
		}
	}
	return seeds
}

func TestTruncatedInputNeoGo(t *testing.T) {
	n := newNode(t)
	for _, s := range truncationSeeds() {
		if len(s) > 0 && s[0] == 0xbb {
			n.checkTruncated(t, s[1:], true)
		} else {
			n.checkTruncated(t, s, false)
		}
	}
}

// FuzzTruncatedInput: the first byte 0xbb selects block decoding.
func FuzzTruncatedInput(f *testing.F) {
	for _, s := range truncationSeeds() {
		f.Add(s)
	}
	n := newNode(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 0xbb {
			n.checkTruncated(t, b[1:], true)
		} else {
			n.checkTruncated(t, b, false)
		}
	})
}

// FuzzFakeHeader compares the decoding of invokecontainedscript's header
// parameter with neo-go's block.Header.UnmarshalJSON.
func FuzzFakeHeader(f *testing.F) {
	h := block.Header{Index: 5, Timestamp: 1234, Nonce: 42, Witness: transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}
	good, _ := json.Marshal(&h)
	f.Add(good)
	f.Add([]byte(`{"hash":"bad"}`))
	f.Add([]byte(`{"hash":"0x00","witnesses":[]}`))
	f.Add([]byte(`{"nonce":"zz"}`))
	f.Add([]byte(`{"nextconsensus":"NotAnAddress"}`))
	f.Add([]byte(`{"time":"x"}`))
	f.Add([]byte(`[]`))
	n := newNode(f)
	ftx := transaction.New([]byte{0x11}, 1, 0, 0, 100)
	ftx.Signers = []transaction.Signer{{Account: hash.Uint160{1}}}
	ftx.Witnesses = []transaction.Witness{{InvocationScript: []byte{}, VerificationScript: []byte{}}}
	txJSON, err := json.Marshal(ftx)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // the request would not parse
		}
		var buf bytes.Buffer
		_ = json.Compact(&buf, data)
		data = buf.Bytes()
		var ng ngblock.Header
		ngErr := ng.UnmarshalJSON(data)
		n.ledger.block = nil
		_, rerr := n.call("invokecontainedscript", string(txJSON), string(data))
		const bad = "failed to unmarshal fake block: failed to unmarshal fake header: "
		var ourErr string
		if rerr != nil && strings.HasPrefix(rerr.Data, bad) {
			ourErr = strings.TrimPrefix(rerr.Data, bad)
		}
		if (ngErr == nil) != (ourErr == "") {
			t.Fatalf("%s: neo-go %v, ours %v", data, ngErr, rerr)
		}
		if ngErr == nil {
			// The header's non-zero fields are the fake block's.
			b := n.ledger.block
			if b == nil {
				t.Fatalf("%s: no block ran (%v)", data, rerr)
			}
			if (ng.Timestamp != 0 && ng.Timestamp != b.Timestamp) || (ng.Nonce != 0 && ng.Nonce != b.Nonce) ||
				(ng.Index != 0 && ng.Index != b.Index) || (ng.Version != 0 && ng.Version != b.Version) ||
				(!ng.PrevHash.Equals(ngutil.Uint256{}) && ngutil.Uint256(b.PrevHash) != ng.PrevHash) ||
				(!ng.MerkleRoot.Equals(ngutil.Uint256{}) && ngutil.Uint256(b.MerkleRoot) != ng.MerkleRoot) ||
				(!ng.NextConsensus.Equals(ngutil.Uint160{}) && ngutil.Uint160(b.NextConsensus) != ng.NextConsensus) ||
				ng.PrimaryIndex != b.PrimaryIndex {
				t.Fatalf("%s: fake block %+v, neo-go header %+v", data, b.Header, ng)
			}
			return
		}
		if ngErr.Error() != ourErr && !strings.Contains(ngErr.Error(), "base64") && !strings.Contains(ngErr.Error(), "Witness") {
			t.Fatalf("%s: neo-go %q, ours %q", data, ngErr, ourErr)
		}
	})
}

// FuzzPublicKeyParam compares PublicKey arguments (neo-go's key decoding:
// compressed bytes pushed, error texts) with neo-go's script builder.
func FuzzPublicKeyParam(f *testing.F) {
	for _, s := range []string{"00", "", "02", "0200", "05", "zz", "0000",
		"02d7de51df894620af30ef30da806a580e52e7eb8658596522454f723718a50455",
		"03d7de51df894620af30ef30da806a580e52e7eb8658596522454f723718a50455",
		"046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
		"02ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"} {
		f.Add(s)
	}
	n := newNode(f)
	f.Fuzz(func(t *testing.T, s string) {
		arg, err := json.Marshal([]map[string]string{{"type": "PublicKey", "value": s}})
		if err != nil {
			return
		}
		n.checkScript(t, arg)
	})
}
