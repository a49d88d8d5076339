package smartcontract_test

// Differential test against neo-go 0.120.0 (test-only import).

import (
	"encoding/json"
	"math/big"
	"testing"

	ngkeys "github.com/nspcc-dev/neo-go/pkg/crypto/keys"
	ngsc "github.com/nspcc-dev/neo-go/pkg/smartcontract"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// TestParamJSONNeoGo compares the invokefunction argument JSON with
// neo-go's smartcontract.Parameter encoding.
func TestParamJSONNeoGo(t *testing.T) {
	k, err := ngkeys.NewPrivateKeyFromHex("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
	if err != nil {
		t.Fatal(err)
	}
	pub := k.PublicKey().Bytes()
	h160 := hash.Uint160{1, 2, 3}
	h256 := hash.Uint256{4, 5, 6}
	big70 := new(big.Int).Lsh(big.NewInt(1), 70)
	ours := []smartcontract.Parameter{
		smartcontract.NewIntParameter(-42), smartcontract.NewBigIntParameter(big70), smartcontract.NewBoolParameter(false), smartcontract.NewStringParameter("x:y\u00e9"),
		smartcontract.NewBytesParameter([]byte{0, 1, 0xff}), smartcontract.NewHash160Parameter(h160), smartcontract.NewHash256Parameter(h256),
		smartcontract.NewPublicKeyParameter(pub), {Type: 0x17, Value: make([]byte, 64)}, smartcontract.NewAnyParameter(),
		smartcontract.NewArrayParameter(smartcontract.NewIntParameter(1), smartcontract.NewArrayParameter()), smartcontract.NewArrayParameter(),
	}
	theirs := []ngsc.Parameter{
		{Type: ngsc.IntegerType, Value: big.NewInt(-42)}, {Type: ngsc.IntegerType, Value: big70},
		{Type: ngsc.BoolType, Value: false}, {Type: ngsc.StringType, Value: "x:y\u00e9"},
		{Type: ngsc.ByteArrayType, Value: []byte{0, 1, 0xff}}, {Type: ngsc.Hash160Type, Value: ngutil.Uint160(h160)},
		{Type: ngsc.Hash256Type, Value: ngutil.Uint256(h256)}, {Type: ngsc.PublicKeyType, Value: pub},
		{Type: ngsc.SignatureType, Value: make([]byte, 64)}, {Type: ngsc.AnyType},
		{Type: ngsc.ArrayType, Value: []ngsc.Parameter{{Type: ngsc.IntegerType, Value: big.NewInt(1)}, {Type: ngsc.ArrayType, Value: []ngsc.Parameter{}}}},
		{Type: ngsc.ArrayType, Value: []ngsc.Parameter{}},
	}
	for i := range ours {
		got, err := json.Marshal(ours[i])
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(theirs[i])
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("param %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
