package chainrpc_test

// Differential tests against neo-go 0.120.0's own code (test-only import):
// the invokefunction and invokecontractverify script builders, the texts of
// truncated transactions and blocks, the fake header of
// invokecontainedscript; as plain tests over the seed corpora and as fuzz
// targets.

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	ngblock "github.com/nspcc-dev/neo-go/pkg/core/block"
	ngtx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	ngio "github.com/nspcc-dev/neo-go/pkg/io"
	ngparams "github.com/nspcc-dev/neo-go/pkg/services/rpcsrv/params"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
)

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

func ourScript(contract hash.Uint160, method string, raw []byte) ([]byte, error) {
	var p *neorpc.Param
	if string(raw) != "" {
		p = &neorpc.Param{RawMessage: json.RawMessage(raw)}
	}
	return chainrpc.NeoGoDiff.FunctionInvocationScript(contract, method, p)
}

func checkScript(t *testing.T, raw []byte) {
	// Parameters come out of request decoding without surrounding
	// whitespace.
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return
	}
	raw = buf.Bytes()
	h := hash.Uint160{1, 2, 3}
	want, werr := neoGoScript(h, "method", raw)
	got, gerr := ourScript(h, "method", raw)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%s: neo-go error %v, ours %v", raw, werr, gerr)
	}
	if werr != nil {
		if werr.Error() != gerr.Error() {
			t.Errorf("%s: error text: neo-go %q, ours %q", raw, werr, gerr)
		}
		return
	}
	if string(want) != string(got) {
		t.Fatalf("%s: script: neo-go %x, ours %x", raw, want, got)
	}
	// The same arguments as invokecontractverify's (no packing).
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) != nil {
		return
	}
	ngArgs := make([]ngparams.Param, len(arr))
	ourArgs := make([]neorpc.Param, len(arr))
	for i := range arr {
		ngArgs[i] = ngparams.Param{RawMessage: arr[i]}
		ourArgs[i] = neorpc.Param{RawMessage: arr[i]}
	}
	bw := ngio.NewBufBinWriter()
	werr = ngparams.ExpandArrayIntoScript(bw.BinWriter, ngArgs)
	got, gerr = chainrpc.NeoGoDiff.PushArray(ourArgs)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%s: expand: neo-go error %v, ours %v", raw, werr, gerr)
	}
	if werr == nil && string(bw.Bytes()) != string(got) {
		t.Fatalf("%s: expand: neo-go %x, ours %x", raw, bw.Bytes(), got)
	}
}

func TestInvocationScriptNeoGo(t *testing.T) {
	for _, s := range scriptSeeds {
		checkScript(t, []byte(s))
	}
	// No parameter at all.
	h := hash.Uint160{9}
	want, _ := neoGoScript(h, "m", nil)
	got, _ := ourScript(h, "m", nil)
	if string(want) != string(got) {
		t.Fatalf("no params: neo-go %x, ours %x", want, got)
	}
}

func FuzzInvocationScript(f *testing.F) {
	for _, s := range scriptSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkScript(t, raw) })
}

// isEOF reports whether err is one of the two truncated-input errors of
// neo-go's readers.
func isEOF(err error) bool { return err == io.EOF || err == io.ErrUnexpectedEOF }

// checkTruncated compares the truncated-input texts of our transaction and
// block decoding with neo-go's (other decoding errors have texts of their
// own on both sides and are not compared).
func checkTruncated(t *testing.T, b []byte, isBlock bool) {
	var ngErr, ourErr error
	if isBlock {
		blk := ngblock.New(false)
		r := ngio.NewBinReaderFromBuf(b)
		blk.DecodeBinary(r)
		ngErr = r.Err
		ourBlock := new(block.Block)
		or := nio.NewBinReaderFromBuf(b)
		ourBlock.DecodeBinary(or)
		if or.Err != nil {
			ourErr = chainrpc.NeoGoDiff.EOFText(or.Err, b, true)
		}
	} else {
		_, ngErr = ngtx.NewTransactionFromBytes(b)
		_, ourErr = chainrpc.NeoGoDiff.DecodeTransaction(b)
	}
	if !isEOF(ngErr) || ourErr == nil || !strings.HasSuffix(ourErr.Error(), "EOF") {
		return
	}
	if !strings.HasSuffix(ourErr.Error(), ": "+ngErr.Error()) && ourErr.Error() != ngErr.Error() {
		t.Fatalf("%x (block %v): neo-go %q, ours %q", b, isBlock, ngErr, ourErr)
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
	for _, s := range truncationSeeds() {
		if len(s) > 0 && s[0] == 0xbb {
			checkTruncated(t, s[1:], true)
		} else {
			checkTruncated(t, s, false)
		}
	}
}

// FuzzTruncatedInput: the first byte 0xbb selects block decoding.
func FuzzTruncatedInput(f *testing.F) {
	for _, s := range truncationSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 0xbb {
			checkTruncated(t, b[1:], true)
		} else {
			checkTruncated(t, b, false)
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
	f.Fuzz(func(t *testing.T, data []byte) {
		var ng ngblock.Header
		ngErr := ng.UnmarshalJSON(data)
		ours, ourErr := chainrpc.NeoGoDiff.DecodeFakeHeader(data)
		if (ngErr == nil) != (ourErr == nil) {
			t.Fatalf("%s: neo-go %v, ours %v", data, ngErr, ourErr)
		}
		if ngErr == nil {
			if ng.Hash() != ngutil.Uint256(ours.Hash()) {
				t.Fatalf("%s: hash differs", data)
			}
			return
		}
		if ngErr.Error() != ourErr.Error() && !strings.Contains(ngErr.Error(), "base64") && !strings.Contains(ngErr.Error(), "Witness") {
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
	f.Fuzz(func(t *testing.T, s string) {
		arg, err := json.Marshal([]map[string]string{{"type": "PublicKey", "value": s}})
		if err != nil {
			return
		}
		checkScript(t, arg)
	})
}
