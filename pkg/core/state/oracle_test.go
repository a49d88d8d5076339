package state

import (
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Tests of the RoleManagement, Oracle and Notary records: stored forms,
// round trips and malformed items.

func TestOracleRequestItem(t *testing.T) {
	filter := "$.x"
	req := &OracleRequest{OriginalTxID: hash.Uint256{1, 2}, GasForResponse: 10_000_000, URL: "https://a.b", Filter: &filter,
		CallbackContract: hash.Uint160{3}, CallbackMethod: "cb", UserData: []byte{0x21, 0x01, 0x05}}
	data, err := stackitem.SerializeConvertible(req)
	require.NoError(t, err)
	// Array of 7: ByteString 32, Integer, ByteString, ByteString, ByteString 20, ByteString, ByteString.
	require.Equal(t, "4007", hex.EncodeToString(data[:2]))
	var back OracleRequest
	require.NoError(t, stackitem.DeserializeConvertible(data, &back))
	require.Equal(t, req, &back)

	req.Filter = nil
	data, err = stackitem.SerializeConvertible(req)
	require.NoError(t, err)
	require.NoError(t, stackitem.DeserializeConvertible(data, &back))
	require.Nil(t, back.Filter)

	good, err := req.ToStackItem()
	require.NoError(t, err)
	for i, bad := range []stackitem.Item{stackitem.NewByteString(make([]byte, 31)), stackitem.NewArray(nil), stackitem.Null{},
		stackitem.NewArray(nil), stackitem.NewByteString(make([]byte, 19)), stackitem.Null{}, stackitem.NewMap()} {
		items := append([]stackitem.Item{}, good.(*stackitem.Array).Items()...)
		items[i] = bad
		require.Error(t, back.FromStackItem(stackitem.NewArray(items)), "field %d", i)
	}
	require.Error(t, back.FromStackItem(stackitem.NewArray(good.(*stackitem.Array).Items()[:6])))
	require.Error(t, back.FromStackItem(stackitem.NewInt(1)))
}

func TestIDList(t *testing.T) {
	l := IDList{1, 5, 1 << 40}
	data, err := stackitem.SerializeConvertible(&l)
	require.NoError(t, err)
	var back IDList
	require.NoError(t, stackitem.DeserializeConvertible(data, &back))
	require.Equal(t, l, back)
	require.True(t, back.Remove(5))
	require.False(t, back.Remove(5))
	require.Equal(t, IDList{1, 1 << 40}, back)
	require.Error(t, back.FromStackItem(stackitem.NewArray([]stackitem.Item{stackitem.NewInt(-1)})))
	require.Error(t, back.FromStackItem(stackitem.NewByteString(nil)))
}

func TestNodeListAndDeposit(t *testing.T) {
	k, err := keys.NewPrivateKeyFromHex("7d128a6d096f0c14c3a25a2b0c41cf79661bfcb4a8cc95aaaea28bde4d732344")
	require.NoError(t, err)
	nl := NodeList{k.PublicKey()}
	data, err := stackitem.SerializeConvertible(&nl)
	require.NoError(t, err)
	require.Equal(t, "40012821"+hex.EncodeToString(k.PublicKey().Bytes()), hex.EncodeToString(data))
	var back NodeList
	require.NoError(t, stackitem.DeserializeConvertible(data, &back))
	require.Equal(t, nl[0].Bytes(), back[0].Bytes())
	require.Error(t, back.FromStackItem(stackitem.NewArray([]stackitem.Item{stackitem.NewByteString([]byte{2})})))
	require.Error(t, back.FromStackItem(stackitem.Null{}))

	d := &Deposit{Till: 100}
	d.Amount.SetInt64(2_0000_0000)
	data, err = stackitem.SerializeConvertible(d)
	require.NoError(t, err)
	require.Equal(t, "41022104"+"00c2eb0b"+"210164", hex.EncodeToString(data))
	var dd Deposit
	require.NoError(t, stackitem.DeserializeConvertible(data, &dd))
	require.Equal(t, big.NewInt(2_0000_0000), &dd.Amount)
	require.EqualValues(t, 100, dd.Till)
	require.Error(t, dd.FromStackItem(stackitem.NewStruct([]stackitem.Item{stackitem.NewInt(1), stackitem.NewInt(-1)})))
	require.Error(t, dd.FromStackItem(stackitem.NewStruct([]stackitem.Item{stackitem.NewInt(1)})))
}

// FuzzNativeRecords decodes arbitrary bytes as the RoleManagement, Oracle
// and Notary records: no panics, and what decodes encodes back to an item
// that decodes to the same value.
func FuzzNativeRecords(f *testing.F) {
	for _, s := range []string{"4001280121", "40012821", "41022104" + "00c2eb0b" + "210164", "400221012102", "4000",
		"4007280020" + "00000000000000000000000000000000000000000000000000000000000000" + "2100280000280000000000000000000000000000000000002800280"} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(c, back stackitem.Convertible) {
			if stackitem.DeserializeConvertible(data, c) != nil {
				return
			}
			enc, err := stackitem.SerializeConvertible(c)
			if err != nil {
				t.Fatalf("%x decodes but does not encode: %v", data, err)
			}
			if err := stackitem.DeserializeConvertible(enc, back); err != nil {
				t.Fatalf("%x: re-encoded %x does not decode: %v", data, enc, err)
			}
		}
		check(new(OracleRequest), new(OracleRequest))
		check(new(IDList), new(IDList))
		check(new(NodeList), new(NodeList))
		check(new(Deposit), new(Deposit))
	})
}
