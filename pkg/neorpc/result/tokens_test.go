package result

import (
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// The appended transfer JSON equals encoding/json's output of the struct
// tags, and decodes back.
func TestTransfersJSON(t *testing.T) {
	t17 := NEP17Transfers{Address: "NcuY8AnCYH2whtGtd7LC6BUEhbCkbeuoSJ", Received: []NEP17Transfer{},
		Sent: []NEP17Transfer{
			{Timestamp: 1795323154301, Asset: hash.Uint160{1, 2}, Address: "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP", Amount: "5247160", Index: 30, TxHash: hash.Uint256{3}},
			{Timestamp: 1, Asset: hash.Uint160{9}, Amount: "1", Index: 1, NotifyIndex: 2},
		}}
	got, err := json.Marshal(t17)
	require.NoError(t, err)
	want, err := json.Marshal((*nep17TransfersAux)(&t17))
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	var back NEP17Transfers
	require.NoError(t, json.Unmarshal(got, &back))
	require.Equal(t, t17, back)

	t11 := NEP11Transfers{Address: "NcuY8AnCYH2whtGtd7LC6BUEhbCkbeuoSJ",
		Received: []NEP11Transfer{{Timestamp: 5, Asset: hash.Uint160{7}, ID: "0102", Amount: "1", Index: 4, TxHash: hash.Uint256{8}}}}
	got, err = json.Marshal(t11)
	require.NoError(t, err)
	want, err = json.Marshal((*nep11TransfersAux)(&t11))
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}
