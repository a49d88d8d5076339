package smartcontract

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

func TestParameterJSONAndEmitable(t *testing.T) {
	ps := []Parameter{
		NewStringParameter("a\"b"), NewBytesParameter([]byte{1, 2}), NewPublicKeyParameter([]byte{2, 3}),
		NewHash256Parameter(hash.Uint256{1}), {Type: 0x13}, // String without a value
	}
	b, err := json.Marshal(ps)
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"type":"String","value":"a\"b"},{"type":"ByteArray","value":"AQI="},{"type":"PublicKey","value":"0203"},` +
		`{"type":"Hash256","value":"0x0000000000000000000000000000000000000000000000000000000000000001"},{"type":"String"}]`
	if string(b) != want {
		t.Errorf("params JSON\n got %s\nwant %s", b, want)
	}
	if _, err := json.Marshal(Parameter{Type: 0x11, Value: "x"}); !errors.Is(err, ErrInvalidParameter) {
		t.Errorf("Integer with a string value: %v", err)
	}
	v, err := NewArrayParameter(NewIntParameter(1), NewArrayParameter()).Emitable()
	if err != nil {
		t.Fatal(err)
	}
	arr := v.([]any)
	if len(arr) != 2 || arr[0].(*big.Int).Int64() != 1 || len(arr[1].([]any)) != 0 {
		t.Errorf("emitable %v", v)
	}
	if _, err := (Parameter{Type: 0x22}).Emitable(); err == nil {
		t.Error("Map emitable")
	}
}

// TestParameterJSONRoundTrip: what MarshalJSON writes, UnmarshalJSON reads
// back to the same value.
func TestParameterJSONRoundTrip(t *testing.T) {
	ps := []Parameter{
		NewIntParameter(-42), NewBoolParameter(true), NewStringParameter("x"), NewBytesParameter([]byte{1}),
		NewHash160Parameter(hash.Uint160{1}), NewHash256Parameter(hash.Uint256{2}), NewPublicKeyParameter([]byte{2, 3}),
		NewSignatureParameter(make([]byte, 64)), NewAnyParameter(), {Type: SignatureType},
		NewArrayParameter(NewIntParameter(1), NewArrayParameter()),
		NewMapParameter(ParameterPair{Key: NewStringParameter("k"), Value: NewIntParameter(7)}),
	}
	for _, p := range ps {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q Parameter
		if err := json.Unmarshal(b, &q); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		b2, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != string(b2) {
			t.Errorf("round trip\n got %s\nwant %s", b2, b)
		}
	}
}
