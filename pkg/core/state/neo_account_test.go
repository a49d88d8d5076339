package state

import (
	"encoding/base64"
	"math/big"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

func testPub(t testing.TB) *keys.PublicKey {
	k, err := keys.NewPublicKeyFromString("02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2")
	require.NoError(t, err)
	return k
}

func neoBalances(t testing.TB) []*NEOBalance {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890123456789", 10)
	var res []*NEOBalance
	for _, bal := range []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(-1), big.NewInt(100_000_000), big.NewInt(255), huge} {
		for _, h := range []uint32{0, 1, 127, 128, 0xffff, 0xffffffff} {
			for _, vote := range []*keys.PublicKey{nil, testPub(t)} {
				for _, g := range []*big.Int{big.NewInt(0), big.NewInt(30000000000), huge} {
					s := &NEOBalance{BalanceHeight: h, VoteTo: vote}
					s.Balance.Set(bal)
					s.LastGasPerVote.Set(g)
					res = append(res, s)
				}
			}
		}
	}
	return res
}

func TestNEOBalanceFastCodec(t *testing.T) {
	for _, s := range neoBalances(t) {
		want := s.Bytes()
		got := s.AppendBytes(nil)
		require.Equal(t, want, got)
		var d NEOBalance
		require.NoError(t, DecodeNEOBalance(got, &d))
		require.Equal(t, want, d.AppendBytes(nil))
		// The fast path read it.
		require.NoError(t, decodeNEOBalanceFast(got, &d))
	}
	// Other valid forms go through the generic decoder: an Array, or a
	// non-minimal integer.
	var d NEOBalance
	arr := []byte{0x40, 4, 0x21, 1, 5, 0x21, 1, 7, 0, 0x21, 0}
	require.Error(t, decodeNEOBalanceFast(arr, &d))
	require.NoError(t, DecodeNEOBalance(arr, &d))
	require.Equal(t, big.NewInt(5), &d.Balance)
	require.Equal(t, uint32(7), d.BalanceHeight)
	require.NoError(t, DecodeNEOBalance(nil, &d))
	require.Equal(t, NEOBalance{}, d)
	require.Error(t, DecodeNEOBalance([]byte{0x41, 4, 0x21}, &d))
}

func TestValidatorsCodec(t *testing.T) {
	// neo-go's stored committee of the reference chain: V with 50 votes.
	stored, err := base64.StdEncoding.DecodeString("QAFBAighArNiK/QBe9/jF8WK7V9MdT8ga324lgRvp9d0u8S/f43CIQEy")
	require.NoError(t, err)
	vs, err := DecodeValidators(stored)
	require.NoError(t, err)
	require.Len(t, vs, 1)
	require.True(t, vs[0].Key.Equal(testPub(t)))
	require.Equal(t, big.NewInt(50), &vs[0].Votes)
	require.Equal(t, stored, EncodeValidators(vs))

	many := make([]Validator, 300)
	items := make([]stackitem.Item, len(many))
	for i := range many {
		many[i].Key = testPub(t)
		many[i].Votes.SetInt64(int64(i) * 1_000_000_007)
		items[i] = stackitem.NewStruct([]stackitem.Item{stackitem.NewByteString(testPub(t).Bytes()), stackitem.NewBigInteger(&many[i].Votes)})
	}
	want, err := stackitem.Serialize(stackitem.NewArray(items))
	require.NoError(t, err)
	require.Equal(t, want, EncodeValidators(many))
	back, err := DecodeValidators(want)
	require.NoError(t, err)
	require.Equal(t, many, back)
	require.Equal(t, []byte{0x40, 0}, EncodeValidators(nil))

	for _, bad := range [][]byte{nil, {0x21, 0}, {0x40, 1, 0x21, 0}, {0x40, 1, 0x41, 1, 0x21, 0}, {0x40, 1, 0x41, 2, 0x28, 1, 2, 0x21, 0}} {
		_, err := DecodeValidators(bad)
		require.Error(t, err, "%x", bad)
	}
}

// FuzzNEOBalanceFast checks that the fast decoder accepts nothing the
// generic one rejects and agrees with it.
func FuzzNEOBalanceFast(f *testing.F) {
	for _, s := range neoBalances(f)[:40] {
		f.Add(s.AppendBytes(nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast NEOBalance
		if decodeNEOBalanceFast(data, &fast) != nil {
			return
		}
		generic := new(NEOBalance)
		if err := stackitem.DeserializeConvertible(data, generic); err != nil {
			t.Fatalf("fast path accepts %x, generic: %v", data, err)
		}
		require.Equal(t, generic.AppendBytes(nil), fast.AppendBytes(nil))
	})
}

func FuzzDecodeValidators(f *testing.F) {
	f.Add(EncodeValidators([]Validator{{Key: testPub(f)}}))
	f.Add([]byte{0x40, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := DecodeValidators(data)
		if err != nil {
			return
		}
		if _, err := DecodeValidators(EncodeValidators(vs)); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzDecodeNEP17Balance checks DecodeNEP17Balance against
// NEP17BalanceFromBytes.
func FuzzDecodeNEP17Balance(f *testing.F) {
	for _, v := range []int64{0, 1, -1, 1 << 40} {
		f.Add((&NEP17Balance{Balance: *big.NewInt(v)}).Bytes(nil))
	}
	f.Add([]byte{0x41, 1, 0x21, 2, 0, 0})
	f.Add([]byte{0x40, 1, 0x21, 1, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := NEP17BalanceFromBytes(data)
		var got NEP17Balance
		got.Balance.SetInt64(7) // must be overwritten
		err := DecodeNEP17Balance(data, &got)
		require.Equal(t, werr == nil, err == nil, "%x: %v vs %v", data, werr, err)
		if err == nil {
			require.Zero(t, want.Balance.Cmp(&got.Balance), "%x", data)
		}
	})
}
