package neorpc_test

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"

	ngrpc "github.com/nspcc-dev/neo-go/pkg/neorpc"
	ngsc "github.com/nspcc-dev/neo-go/pkg/smartcontract"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// neoGoDecodeFilter is neo-go's subscribe filter decoding.
func neoGoDecodeFilter(event ngrpc.EventID, raw []byte) (ngrpc.SubscriptionFilter, error) {
	jd := json.NewDecoder(bytes.NewReader(raw))
	jd.DisallowUnknownFields()
	var (
		filter ngrpc.SubscriptionFilter
		err    error
	)
	switch event {
	case ngrpc.BlockEventID, ngrpc.HeaderOfAddedBlockEventID:
		flt := new(ngrpc.BlockFilter)
		err = jd.Decode(flt)
		filter = *flt
	case ngrpc.TransactionEventID:
		flt := new(ngrpc.TxFilter)
		err = jd.Decode(flt)
		filter = *flt
	case ngrpc.NotaryRequestEventID:
		flt := new(ngrpc.NotaryRequestFilter)
		err = jd.Decode(flt)
		filter = *flt
	case ngrpc.NotificationEventID:
		flt := new(ngrpc.NotificationFilter)
		err = jd.Decode(flt)
		filter = *flt
	case ngrpc.ExecutionEventID:
		flt := new(ngrpc.ExecutionFilter)
		err = jd.Decode(flt)
		filter = *flt
	case ngrpc.MempoolEventID:
		flt := new(ngrpc.MempoolEventFilter)
		err = jd.Decode(flt)
		filter = *flt
	}
	if err != nil {
		return nil, err
	}
	if err := filter.IsValid(); err != nil {
		return nil, err
	}
	return filter, nil
}

var filterSeeds = []struct {
	event byte
	raw   string
}{
	{1, `{"primary":1,"since":5,"till":10}`}, {1, `{}`}, {1, `null`}, {1, `{"primary":300}`},
	{1, `{"primary":-1}`}, {1, `{"since":"5"}`}, {1, `{"foo":1}`}, {1, `[]`}, {1, `"x"`},
	{6, `{"till":4294967295}`}, {6, `{"till":4294967296}`}, {1, `{"Primary":2}`},
	{2, `{"sender":"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"}`},
	{2, `{"signer":"cf76e28bd0062c4a478ee35561011319f3cfa4d2"}`},
	{2, `{"signer":"cf76e28bd0062c4a478ee35561011319f3cfa4d"}`},
	{2, `{"signer":"xf76e28bd0062c4a478ee35561011319f3cfa4d2"}`},
	{2, `{"signer":5}`}, {2, `{"signer":null}`},
	{3, `{"contract":"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2","name":"Transfer"}`},
	{3, `{"name":"123456789012345678901234567890123"}`},
	{3, `{"name":"12345678901234567890123456789012"}`},
	{3, `{"parameters":[{"type":"Integer","value":"5"}]}`},
	{3, `{"parameters":[{"type":"Integer","value":5}, {"type":"Any"}]}`},
	{3, `{"parameters":[{"type":"Any"}]}`},
	{3, `{"parameters":[{"type":"Any","value":1}]}`},
	{3, `{"parameters":[{"type":"Array","value":[]}]}`},
	{3, `{"parameters":[{"type":"Map","value":[]}]}`},
	{3, `{"parameters":[{"type":"Void"}]}`},
	{3, `{"parameters":[{"type":"Foo"}]}`},
	{3, `{"parameters":[{"type":"Integer","value":"abc"}]}`},
	{3, `{"parameters":[{"type":"Integer","value":1.5}]}`},
	{3, `{"parameters":[{"type":"Integer","value":"1157920892373161954235709850086879078532699846656405640394575840079131296399360"}]}`},
	{3, `{"parameters":[{"type":"Boolean","value":true},{"type":"String","value":"s"},{"type":"ByteArray","value":"AAE="},{"type":"PublicKey","value":"03aa"},{"type":"Signature","value":"AA=="},{"type":"Hash160","value":"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"},{"type":"Hash256","value":"1f4d1defa46faa5e7b9b8d3f79a06bec777d7c26c4aa5f6f5899a291daa87c15"}]}`},
	{3, `{"parameters":[{"type":"ByteArray","value":"!"}]}`},
	{3, `{"parameters":[{"type":"PublicKey","value":"0g"}]}`},
	{3, `{"parameters":[{"type":"Hash160","value":"0x01"}]}`},
	{3, `{"parameters":[{"type":"Boolean","value":"true"}]}`},
	{3, `{"parameters":"x"}`}, {3, `{"parameters":[1]}`},
	{3, `{"parameters":[{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"},{"type":"Integer"}]}`},
	{3, `{"name":"123456789012345678901234567890123","parameters":[{"type":"Array"}]}`},
	{4, `{"state":"HALT"}`}, {4, `{"state":"FAULT","container":"0x1f4d1defa46faa5e7b9b8d3f79a06bec777d7c26c4aa5f6f5899a291daa87c15"}`},
	{4, `{"state":"NONE"}`}, {4, `{"state":1}`},
	{5, `{"type":"added","sender":"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"}`}, {5, `{"type":"bad"}`}, {5, `{"type":1}`},
	{7, `{"type":"removed","signer":"0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"}`}, {7, `{"type":"x"}`},
}

func checkFilterAgainstNeoGo(t *testing.T, event byte, raw []byte) {
	t.Helper()
	if !json.Valid(raw) {
		return
	}
	ours, err := neorpc.DecodeFilter(neorpc.EventID(event), raw)
	ref, refErr := neoGoDecodeFilter(ngrpc.EventID(event), raw)
	if (err != nil) != (refErr != nil) {
		t.Fatalf("%d %s: ours %v, neo-go %v", event, raw, err, refErr)
	}
	if err != nil {
		if err.Error() != refErr.Error() {
			t.Fatalf("%d %s: ours %q, neo-go %q", event, raw, err, refErr)
		}
		return
	}
	a, err := json.Marshal(ours)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("%d %s: ours %s, neo-go %s", event, raw, a, b)
	}
}

func TestDecodeFilterMatchesNeoGo(t *testing.T) {
	for _, s := range filterSeeds {
		checkFilterAgainstNeoGo(t, s.event, []byte(s.raw))
	}
}

func FuzzDecodeFilterNeoGo(f *testing.F) {
	for _, s := range filterSeeds {
		f.Add(s.event, []byte(s.raw))
	}
	f.Fuzz(func(t *testing.T, event byte, raw []byte) {
		if event == 0 || event > 7 {
			return
		}
		checkFilterAgainstNeoGo(t, event, raw)
	})
}

// TestNotificationMatchSemantics compares parameter matching with neo-go's
// stack item equality on the cases that differ by item type.
func TestNotificationMatchSemantics(t *testing.T) {
	h := hash.Uint160{1, 2, 3}
	items := []neorpc.StackValue{
		{Kind: neorpc.StackByteString, Bytes: h[:]},
		{Kind: neorpc.StackInteger, Int: big.NewInt(5)},
		{Kind: neorpc.StackBool, Bool: true},
		{Kind: neorpc.StackOther, Bytes: []byte("buf")}, // a Buffer
	}
	fields := &neorpc.EventFields{Contract: h, Name: "Transfer", Items: items}
	name := "Transfer"
	cases := []struct {
		params []smartcontract.Parameter
		want   bool
	}{
		{[]smartcontract.Parameter{{Type: neorpc.Hash160Type, Value: h}}, true},
		{[]smartcontract.Parameter{{Type: neorpc.ByteArrayType, Value: h[:]}}, true},
		{[]smartcontract.Parameter{{Type: neorpc.AnyType}, {Type: neorpc.IntegerType, Value: big.NewInt(5)}}, true},
		{[]smartcontract.Parameter{{Type: neorpc.AnyType}, {Type: neorpc.BoolType, Value: true}}, false},
		{[]smartcontract.Parameter{{Type: neorpc.AnyType}, {Type: neorpc.AnyType}, {Type: neorpc.IntegerType, Value: big.NewInt(1)}}, false},
		{[]smartcontract.Parameter{{Type: neorpc.AnyType}, {Type: neorpc.AnyType}, {Type: neorpc.BoolType, Value: true}}, true},
		{[]smartcontract.Parameter{{Type: neorpc.AnyType}, {Type: neorpc.AnyType}, {Type: neorpc.AnyType}, {Type: neorpc.StringType, Value: "buf"}}, false},
		{[]smartcontract.Parameter{{Type: neorpc.IntegerType}}, true},
		{make([]smartcontract.Parameter, 5), false},
	}
	for i, c := range cases {
		f := neorpc.NotificationFilter{Contract: &h, Name: &name, Parameters: c.params}
		if got := neorpc.Matches(neorpc.NotificationEventID, f, fields); got != c.want {
			t.Errorf("case %d: got %v", i, got)
		}
	}
	// The same comparisons through neo-go's stack items.
	ngH := ngutil.Uint160(h)
	ref := ngsc.Parameter{Type: ngsc.Hash160Type, Value: ngH}
	si, err := ref.ToStackItem()
	if err != nil || !bytes.Equal(si.Value().([]byte), h[:]) {
		t.Fatalf("neo-go Hash160 parameter is %v (%v), want serialized bytes", si, err)
	}
}
