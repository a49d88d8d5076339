package chainrpc_test

// Differential tests against neo-go 0.120.0's own code (test-only import):
// the invokefunction and invokecontractverify script builders, as plain
// tests over the seed corpora and as fuzz targets.

import (
	"bytes"
	"encoding/json"
	"testing"

	ngio "github.com/nspcc-dev/neo-go/pkg/io"
	ngparams "github.com/nspcc-dev/neo-go/pkg/services/rpcsrv/params"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/pkg/crypto/hash"
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
	return chainrpc.FunctionInvocationScript(contract, method, p)
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
	got, gerr = chainrpc.PushArray(ourArgs)
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
