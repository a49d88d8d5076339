package neorpc_test

// Differential tests against neo-go 0.120.0 itself (test-only import). They
// run as plain tests over the seed corpora and as fuzz targets.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"testing"

	ngaddress "github.com/nspcc-dev/neo-go/pkg/encoding/address"
	ngbase58 "github.com/nspcc-dev/neo-go/pkg/encoding/base58"
	ngrpc "github.com/nspcc-dev/neo-go/pkg/neorpc"
	ngparams "github.com/nspcc-dev/neo-go/pkg/services/rpcsrv/params"

	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/neorpc"
)

// neoGoDecode runs neo-go's HTTP body decoding.
func neoGoDecode(body []byte) (*ngparams.Request, error) {
	req := ngparams.NewRequest()
	err := req.DecodeData(io.NopCloser(bytes.NewReader(body)))
	return req, err
}

func checkDecodeAgainstNeoGo(t *testing.T, body []byte) {
	t.Helper()
	var in neorpc.Incoming
	ourErr := in.DecodeBody(body, nil)
	ref, refErr := neoGoDecode(body)
	if (ourErr != nil) != (refErr != nil) {
		t.Fatalf("body %q: our error %v, neo-go error %v", body, ourErr, refErr)
	}
	if refErr != nil {
		if ourErr.Code != neorpc.BadRequestCode || ourErr.Data != refErr.Error() {
			t.Fatalf("body %q: our error %v, neo-go %q", body, ourErr, refErr.Error())
		}
		return
	}
	var refCalls []ngparams.In
	if ref.In != nil {
		if in.Batch {
			t.Fatalf("body %q: we decoded a batch, neo-go a single call", body)
		}
		refCalls = []ngparams.In{*ref.In}
	} else {
		if !in.Batch {
			t.Fatalf("body %q: we decoded a single call, neo-go a batch", body)
		}
		refCalls = ref.Batch
	}
	if len(refCalls) != len(in.Calls) {
		t.Fatalf("body %q: %d calls, neo-go %d", body, len(in.Calls), len(refCalls))
	}
	for i, rc := range refCalls {
		c := in.Calls[i]
		if c.JSONRPC != rc.JSONRPC || c.Method != rc.Method || !bytes.Equal(c.ID, rc.RawID) ||
			(c.ID == nil) != (rc.RawID == nil) || len(c.Params) != len(rc.RawParams) {
			t.Fatalf("body %q call %d: ours %+v, neo-go %+v", body, i, c, rc)
		}
		for j := range c.Params {
			if !bytes.Equal(c.Params[j].RawMessage, rc.RawParams[j].RawMessage) {
				t.Fatalf("body %q call %d param %d: %q vs %q", body, i, j, c.Params[j].RawMessage, rc.RawParams[j].RawMessage)
			}
		}
	}
}

var decodeSeeds = []string{
	`{"jsonrpc":"2.0","method":"getblockcount","params":[],"id":1}`,
	`{"jsonrpc": "2.0", "method": "getblock", "params": [1, true], "id": "abc"}`,
	`{"jsonrpc":"2.0","method":"sendrawtransaction","params":["AAECAw=="],"id":7} trailing`,
	`[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b","params":null,"id":null}]`,
	`[]`, `[ ]`, `{}`, `null`, `1`, `"x"`, `true`, ``, `   `, `{`, `[{]`, `{"id":1,"id":2}`,
	`{"JSONRPC":"2.0","Method":"getversion","ID":3}`,
	`{"jsonrpc":"2.0","method":"x","params":{"a":1},"id":1}`,
	`{"jsonrpc":2,"method":"x","id":1}`,
	`{"jsonrpc":"2.0","method":1,"id":1}`,
	`{"jsonrpc":"2.0","method":"x\u0041","id":1}`,
	`{"jsonrpc":"2.0","method":"\xff","id":1}`,
	`{"jsonrpc":"2.0","method":"x","id":{"a": [1, 2]}}`,
	`[1]`, `[null]`, `[{"method":"a"}, 5]`, `[{},{}]`,
	`{"jsonrpc":"2.0","method":"x","params":[1.5e3, -0, "s", [1,[2]], {"k":"v"}, null, false]}`,
	`{"jsonrpc":"2.0","method":"x","unknown":[1,2,3],"id":1}`,
	`{"jsonrpc":"2.0","method":"x","params":[01]}`,
	`{"jsonrpc":"2.0","method":"x","params":[1,]}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":[\"\t\"]}",
}

func batchOf(n int) string {
	return "[" + strings.Repeat(`{"jsonrpc":"2.0","method":"a","id":1},`, n-1) + `{"jsonrpc":"2.0","method":"a","id":1}]`
}

func TestDecodeBodyMatchesNeoGo(t *testing.T) {
	seeds := append([]string{batchOf(100), batchOf(101), batchOf(102),
		strings.Repeat("[", 70) + strings.Repeat("]", 70),
		`{"jsonrpc":"2.0","method":"x","params":[` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `]}`,
	}, decodeSeeds...)
	for _, s := range seeds {
		checkDecodeAgainstNeoGo(t, []byte(s))
	}
}

func FuzzDecodeBodyNeoGo(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecodeAgainstNeoGo(t, body)
	})
}

// getterResults runs every getter on our Param.
func getterResults(p *neorpc.Param) []string {
	var r []string
	add := func(v any, err error) {
		if err != nil {
			r = append(r, "err: "+err.Error())
			return
		}
		switch x := v.(type) {
		case *big.Int:
			r = append(r, x.String())
		case []byte:
			r = append(r, fmt.Sprintf("%x", x))
		case fmt.Stringer:
			r = append(r, x.String())
		default:
			r = append(r, fmt.Sprint(v))
		}
	}
	add(p.GetString())
	add(p.GetStringStrict())
	add(p.GetBoolean())
	add(p.GetBooleanStrict())
	add(p.GetInt())
	add(p.GetIntStrict())
	add(p.GetBigInt())
	if a, err := p.GetArray(); err != nil {
		add(nil, err)
	} else {
		var s []string
		for _, e := range a {
			s = append(s, string(e.RawMessage))
		}
		add(strings.Join(s, "|"), nil)
	}
	u256, err := p.GetUint256()
	add("0x"+u256.StringLE(), err)
	u160, err := p.GetUint160FromHex()
	add("0x"+u160.StringLE(), err)
	u160, err = p.GetUint160FromAddress()
	add("0x"+u160.StringLE(), err)
	u160, err = p.GetUint160FromAddressOrHex()
	add("0x"+u160.StringLE(), err)
	add(p.GetBytesHex())
	add(p.GetBytesBase64())
	add(p.GetUUID())
	return r
}

// neoGoGetterResults runs the same getters on neo-go's Param, each on a
// fresh copy (neo-go caches the first conversion). A panic counts as a
// result: our getter must then return ErrAddressTooShort.
func neoGoGetterResults(raw []byte) []string {
	var r []string
	fresh := func() *ngparams.Param { return &ngparams.Param{RawMessage: bytes.Clone(raw)} }
	add := func(v any, err error) {
		if err != nil {
			r = append(r, "err: "+err.Error())
			return
		}
		switch x := v.(type) {
		case *big.Int:
			r = append(r, x.String())
		case []byte:
			r = append(r, fmt.Sprintf("%x", x))
		case fmt.Stringer:
			r = append(r, x.String())
		default:
			r = append(r, fmt.Sprint(v))
		}
	}
	guard := func(f func()) {
		defer func() {
			if recover() != nil {
				r = append(r, "err: "+neorpc.ErrAddressTooShort.Error())
			}
		}()
		f()
	}
	add(fresh().GetString())
	add(fresh().GetStringStrict())
	add(fresh().GetBoolean())
	add(fresh().GetBooleanStrict())
	add(fresh().GetInt())
	add(fresh().GetIntStrict())
	add(fresh().GetBigInt())
	if a, err := fresh().GetArray(); err != nil {
		add(nil, err)
	} else {
		var s []string
		for _, e := range a {
			s = append(s, string(e.RawMessage))
		}
		add(strings.Join(s, "|"), nil)
	}
	u256, err := fresh().GetUint256()
	add("0x"+u256.StringLE(), err)
	u160, err := fresh().GetUint160FromHex()
	add("0x"+u160.StringLE(), err)
	guard(func() { u160, err := fresh().GetUint160FromAddress(); add("0x"+u160.StringLE(), err) })
	guard(func() { u160, err := fresh().GetUint160FromAddressOrHex(); add("0x"+u160.StringLE(), err) })
	if s, err := fresh().GetString(); err == nil && shortAddress(s) {
		r[10], r[11] = "skip", "skip"
	}
	add(fresh().GetBytesHex())
	add(fresh().GetBytesBase64())
	add(fresh().GetUUID())
	return r
}

var paramSeeds = []string{
	`"abc"`, `""`, `"0"`, `"12"`, `"-7"`, `"+7"`, `" 1"`, `"1e3"`, `"false"`, `"true"`,
	`1`, `0`, `-0`, `-5`, `1.0`, `1e3`, `9223372036854775807`, `9223372036854775808`,
	`true`, `false`, `null`, `[]`, `[1, "a" ,null]`, `{"a":1}`,
	`"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"`,
	`"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"`, `"cf76e28bd0062c4a478ee35561011319f3cfa4d2"`,
	`"0x1f4d1defa46faa5e7b9b8d3f79a06bec777d7c26c4aa5f6f5899a291daa87c15"`,
	`"1f4d1defa46faa5e7b9b8d3f79a06bec777d7c26c4aa5f6f5899a291daa87c1g"`,
	`"AAECAw=="`, `"AAECAw"`, `"00ff"`, `"0g"`, `"a\u0062c"`, `"\u00e9"`,
	`"01234567-89ab-cdef-0123-456789abcdef"`, `"{01234567-89ab-cdef-0123-456789abcdef}"`,
	`"urn:uuid:01234567-89ab-cdef-0123-456789abcdef"`, `"0123456789abcdef0123456789abcdef"`,
	`"URN:UUID:01234567-89AB-CDEF-0123-456789ABCDEF"`, `"x1234567-89ab-cdef-0123-456789abcdef"`,
	`"1"`, `"11111"`, `"1111111111111111111111111"`, `"3yZe7d"`, `"0"`, `"O"`,
}

func checkParamAgainstNeoGo(t *testing.T, raw []byte) {
	t.Helper()
	if !json.Valid(raw) {
		return
	}
	raw = bytes.TrimSpace(raw)
	p := &neorpc.Param{RawMessage: raw}
	ours := getterResults(p)
	ref := neoGoGetterResults(raw)
	for i := range ref {
		if ours[i] != ref[i] && ref[i] != "skip" {
			t.Fatalf("param %s getter %d: ours %q, neo-go %q", raw, i, ours[i], ref[i])
		}
	}
}

func TestParamGettersMatchNeoGo(t *testing.T) {
	for _, s := range paramSeeds {
		checkParamAgainstNeoGo(t, []byte(s))
	}
	// Short addresses that make neo-go read past the checksum, and longer
	// ones whose tail it ignores.
	for n := 1; n <= 30; n++ {
		b := make([]byte, n)
		b[0] = address.Version
		for i := 1; i < n; i++ {
			b[i] = byte(i * 7)
		}
		checkParamAgainstNeoGo(t, []byte(`"`+base58Check(b)+`"`))
	}
	var nilParam *neorpc.Param
	if _, err := nilParam.GetString(); err != neorpc.ErrMissingParameter {
		t.Fatal(err)
	}
}

func FuzzParamNeoGo(f *testing.F) {
	for _, s := range paramSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkParamAgainstNeoGo(t, raw)
	})
}

func FuzzAddressNeoGo(f *testing.F) {
	for _, s := range []string{"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP", "", "1", "3yZe7d", "AKkkumHbBipZ46UMZJoFynJMXzSRnBvKcs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if shortAddress(s) {
			return // covered by TestAddressVectorsNeoGo
		}
		ours, err := neorpc.StringToUint160(s)
		var (
			ref    [20]byte
			refErr error
			panics bool
		)
		func() {
			defer func() { panics = recover() != nil }()
			u, e := ngaddress.StringToUint160(s)
			ref, refErr = [20]byte(u.BytesBE()), e
		}()
		switch {
		case panics:
			if err != neorpc.ErrAddressTooShort {
				t.Fatalf("%q: neo-go panics, we return %v", s, err)
			}
		case refErr != nil:
			if err == nil || err.Error() != refErr.Error() {
				t.Fatalf("%q: ours %v, neo-go %v", s, err, refErr)
			}
		default:
			if err != nil || ours != ref {
				t.Fatalf("%q: ours %x %v, neo-go %x", s, ours, err, ref)
			}
		}
	})
}

// TestErrorsMatchNeoGo compares every canonical error.
func TestErrorsMatchNeoGo(t *testing.T) {
	pairs := []struct{ ours, ref *ngrpc.Error }{}
	_ = pairs
	type e = struct {
		ours *neorpc.Error
		ref  *ngrpc.Error
	}
	all := []e{
		{neorpc.ErrInvalidParams, ngrpc.ErrInvalidParams},
		{neorpc.ErrUnknownBlock, ngrpc.ErrUnknownBlock},
		{neorpc.ErrUnknownContract, ngrpc.ErrUnknownContract},
		{neorpc.ErrUnknownTransaction, ngrpc.ErrUnknownTransaction},
		{neorpc.ErrUnknownStorageItem, ngrpc.ErrUnknownStorageItem},
		{neorpc.ErrUnknownScriptContainer, ngrpc.ErrUnknownScriptContainer},
		{neorpc.ErrUnknownStateRoot, ngrpc.ErrUnknownStateRoot},
		{neorpc.ErrUnknownSession, ngrpc.ErrUnknownSession},
		{neorpc.ErrUnknownIterator, ngrpc.ErrUnknownIterator},
		{neorpc.ErrUnknownHeight, ngrpc.ErrUnknownHeight},
		{neorpc.ErrInsufficientFundsWallet, ngrpc.ErrInsufficientFundsWallet},
		{neorpc.ErrWalletFeeLimit, ngrpc.ErrWalletFeeLimit},
		{neorpc.ErrNoOpenedWallet, ngrpc.ErrNoOpenedWallet},
		{neorpc.ErrWalletNotFound, ngrpc.ErrWalletNotFound},
		{neorpc.ErrWalletNotSupported, ngrpc.ErrWalletNotSupported},
		{neorpc.ErrVerificationFailed, ngrpc.ErrVerificationFailed},
		{neorpc.ErrAlreadyExists, ngrpc.ErrAlreadyExists},
		{neorpc.ErrMempoolCapReached, ngrpc.ErrMempoolCapReached},
		{neorpc.ErrAlreadyInPool, ngrpc.ErrAlreadyInPool},
		{neorpc.ErrInsufficientNetworkFee, ngrpc.ErrInsufficientNetworkFee},
		{neorpc.ErrPolicyFailed, ngrpc.ErrPolicyFailed},
		{neorpc.ErrInvalidScript, ngrpc.ErrInvalidScript},
		{neorpc.ErrInvalidAttribute, ngrpc.ErrInvalidAttribute},
		{neorpc.ErrInvalidSignature, ngrpc.ErrInvalidSignature},
		{neorpc.ErrInvalidSize, ngrpc.ErrInvalidSize},
		{neorpc.ErrExpiredTransaction, ngrpc.ErrExpiredTransaction},
		{neorpc.ErrInsufficientFunds, ngrpc.ErrInsufficientFunds},
		{neorpc.ErrInvalidVerificationFunction, ngrpc.ErrInvalidVerificationFunction},
		{neorpc.ErrSessionsDisabled, ngrpc.ErrSessionsDisabled},
		{neorpc.ErrOracleDisabled, ngrpc.ErrOracleDisabled},
		{neorpc.ErrOracleRequestFinished, ngrpc.ErrOracleRequestFinished},
		{neorpc.ErrOracleRequestNotFound, ngrpc.ErrOracleRequestNotFound},
		{neorpc.ErrOracleNotDesignatedNode, ngrpc.ErrOracleNotDesignatedNode},
		{neorpc.ErrUnsupportedState, ngrpc.ErrUnsupportedState},
		{neorpc.ErrInvalidProof, ngrpc.ErrInvalidProof},
		{neorpc.ErrExecutionFailed, ngrpc.ErrExecutionFailed},
		{neorpc.NewParseError("d"), ngrpc.NewParseError("d")},
		{neorpc.NewInvalidRequestError("d"), ngrpc.NewInvalidRequestError("d")},
		{neorpc.NewMethodNotFoundError("d"), ngrpc.NewMethodNotFoundError("d")},
		{neorpc.NewInvalidParamsError("d"), ngrpc.NewInvalidParamsError("d")},
		{neorpc.NewInternalServerError("d"), ngrpc.NewInternalServerError("d")},
	}
	for _, p := range all {
		if p.ours.Code != p.ref.Code || p.ours.Message != p.ref.Message || p.ours.Data != p.ref.Data ||
			p.ours.Error() != p.ref.Error() {
			t.Errorf("ours %+v, neo-go %+v", p.ours, p.ref)
		}
	}
}

// neoGoResponse mirrors neo-go's server-side response struct (abstract).
type neoGoResponse struct {
	ngrpc.Header
	Error  *ngrpc.Error `json:"error,omitzero"`
	Result any          `json:"result,omitzero"`
}

func TestAppendResponseMatchesNeoGoEncoder(t *testing.T) {
	ids := []json.RawMessage{nil, json.RawMessage(`1`), json.RawMessage(`"a<b>&"`), json.RawMessage(`{"x": [1, 2]}`), json.RawMessage("\"\u2028\"")}
	versions := []string{"2.0", "", "1.0\"<"}
	errs := []*ngrpc.Error{nil, ngrpc.ErrInvalidParams, ngrpc.NewMethodNotFoundError(`method "\u0001<x>\xff" not supported`)}
	for _, id := range ids {
		for _, v := range versions {
			for _, e := range errs {
				var buf bytes.Buffer
				resp := neoGoResponse{Header: ngrpc.Header{ID: id, JSONRPC: v}}
				var result []byte
				if e != nil {
					resp.Error = e
				} else {
					resp.Result = json.RawMessage(`{"hash":"0x01"}`)
					result = []byte(`{"hash":"0x01"}`)
				}
				if err := json.NewEncoder(&buf).Encode(resp); err != nil {
					t.Fatal(err)
				}
				var oe *neorpc.Error
				if e != nil {
					oe = neorpc.NewError(e.Code, e.Message, e.Data)
				}
				got := neorpc.AppendResponse(nil, id, v, result, oe)
				want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
				if !bytes.Equal(got, want) {
					t.Errorf("got  %s\nwant %s", got, want)
				}
			}
		}
	}
}

// shortAddress reports whether s is a base58check string with a payload
// shorter than 21 bytes. neo-go's result for those depends on the spare
// capacity of mr-tron/base58's buffer: the reference binary uses v1.2.0, but
// this test links neo-go against our v1.3.0, so such inputs are checked
// against vectors generated with v1.2.0 instead.
func shortAddress(s string) bool {
	b, err := ngbase58.CheckDecode(s)
	return err == nil && len(b) < 21
}

// TestAddressVectorsNeoGo checks addresses of every payload length against
// testdata/neogo-address-vectors.txt (see testdata/README.md).
func TestAddressVectorsNeoGo(t *testing.T) {
	data, err := os.ReadFile("testdata/neogo-address-vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		n++
		u, err := neorpc.StringToUint160(f[0])
		switch {
		case f[1] == "PANIC":
			if err != neorpc.ErrAddressTooShort {
				t.Errorf("%s: want ErrAddressTooShort, got %x %v", f[0], u, err)
			}
		case err != nil || hex.EncodeToString(u[:]) != f[1]:
			t.Errorf("%s: want %s, got %x %v", f[0], f[1], u, err)
		}
	}
	if n < 80 {
		t.Fatalf("only %d vectors", n)
	}
}

func base58Check(b []byte) string {
	return ngbase58.CheckEncode(b)
}

// checkMessageAgainstNeoGo compares WebSocket message decoding with neo-go's
// (ws.ReadJSON into a params.Request): both fail, or both give the same
// calls.
func checkMessageAgainstNeoGo(t *testing.T, msg []byte) {
	t.Helper()
	var in neorpc.Incoming
	ourErr := in.DecodeMessage(msg)
	ref := ngparams.NewRequest()
	refErr := json.NewDecoder(bytes.NewReader(msg)).Decode(ref)
	if (ourErr != nil) != (refErr != nil) {
		t.Fatalf("message %q: our error %v, neo-go error %v", msg, ourErr, refErr)
	}
	if refErr != nil {
		return
	}
	var refCalls []ngparams.In
	if ref.In != nil {
		refCalls = []ngparams.In{*ref.In}
	} else {
		refCalls = ref.Batch
	}
	if len(refCalls) != len(in.Calls) || in.Batch != (ref.In == nil) {
		t.Fatalf("message %q: %d calls (batch %v), neo-go %d", msg, len(in.Calls), in.Batch, len(refCalls))
	}
	for i, rc := range refCalls {
		c := in.Calls[i]
		if c.JSONRPC != rc.JSONRPC || c.Method != rc.Method || !bytes.Equal(c.ID, rc.RawID) || len(c.Params) != len(rc.RawParams) {
			t.Fatalf("message %q call %d: ours %+v, neo-go %+v", msg, i, c, rc)
		}
	}
}

func FuzzDecodeMessageNeoGo(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		checkMessageAgainstNeoGo(t, msg)
	})
}
