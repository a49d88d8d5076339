package state

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

type rpcRecord struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

func loadRecords(t testing.TB, file string) []rpcRecord {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "refchain", "rpc", file))
	require.NoError(t, err)
	var recs []rpcRecord
	require.NoError(t, json.Unmarshal(raw, &recs))
	return recs
}

func compact(t testing.TB, b []byte) string {
	var buf bytes.Buffer
	require.NoError(t, json.Compact(&buf, b))
	return buf.String()
}

// TestContractStatesFromRefchain checks the JSON form (neo-go key order) and
// the stack item round trip of every contract state neo-go 0.120.0 returned
// for the reference chain (natives and deployed contracts).
func TestContractStatesFromRefchain(t *testing.T) {
	n := 0
	for _, r := range loadRecords(t, "state.json") {
		if r.Method != "getcontractstate" || len(r.Result) == 0 || r.Result[0] != '{' {
			continue
		}
		var c Contract
		require.NoError(t, json.Unmarshal(r.Result, &c))
		out, err := json.Marshal(&c)
		require.NoError(t, err)
		require.Equal(t, compact(t, r.Result), string(out))

		b, err := c.Bytes()
		require.NoError(t, err)
		c2, err := ContractFromBytes(b)
		require.NoError(t, err)
		out2, err := json.Marshal(c2)
		require.NoError(t, err)
		require.Equal(t, string(out), string(out2))
		require.NoError(t, c2.Manifest.IsValid(c2.Hash, true))
		n++
	}
	require.GreaterOrEqual(t, n, 11, "natives and deployed contracts")
}

// TestExecutionsFromRefchain decodes every application log neo-go recorded,
// re-encodes it to JSON (must be identical) and through the stored CBOR form.
func TestExecutionsFromRefchain(t *testing.T) {
	n := 0
	for _, file := range []string{"blocks.json", "transactions.json"} {
		for _, r := range loadRecords(t, file) {
			if r.Method != "getapplicationlog" || len(r.Result) == 0 || r.Result[0] != '{' {
				continue
			}
			var log struct {
				Executions []json.RawMessage `json:"executions"`
			}
			require.NoError(t, json.Unmarshal(r.Result, &log))
			for _, raw := range log.Executions {
				var e Execution
				require.NoError(t, json.Unmarshal(raw, &e))
				out, err := json.Marshal(e)
				require.NoError(t, err)
				require.Equal(t, compact(t, raw), string(out))

				aer := &AppExecResult{Container: [32]byte{1, 2, 3}, Execution: e}
				rec, err := EncodeAppExecResult(aer)
				require.NoError(t, err)
				back, err := DecodeAppExecResult(rec)
				require.NoError(t, err)
				require.Equal(t, aer.Container, back.Container)
				out2, err := json.Marshal(back.Execution)
				require.NoError(t, err)
				require.Equal(t, string(out), string(out2))
				rec2, err := EncodeAppExecResult(back)
				require.NoError(t, err)
				require.Equal(t, rec, rec2, "deterministic")
				n++
			}
		}
	}
	require.Greater(t, n, 50)
}

func TestLiveExecutionJSON(t *testing.T) {
	e := Execution{
		Trigger:     0x40,
		VMState:     1,
		GasConsumed: 123,
		Stack:       []stackitem.Item{stackitem.NewInt(5), stackitem.NewInterop(nil), stackitem.NewByteString([]byte{1})},
		Events:      []NotificationEvent{{Name: "E", Item: stackitem.NewArray([]stackitem.Item{stackitem.Null{}, stackitem.Bool(true)})}},
	}
	out, err := json.Marshal(e)
	require.NoError(t, err)
	require.Equal(t, `{"trigger":"Application","vmstate":"HALT","gasconsumed":"123","stack":[{"type":"Integer","value":"5"},{"type":"InteropInterface"},{"type":"ByteString","value":"AQ=="}],"notifications":[{"contract":"0x0000000000000000000000000000000000000000","eventname":"E","state":{"type":"Array","value":[{"type":"Any"},{"type":"Boolean","value":true}]}}],"exception":null,"invocations":null}`, string(out))

	rec, err := EncodeAppExecResult(&AppExecResult{Execution: e})
	require.NoError(t, err)
	back, err := DecodeAppExecResult(rec)
	require.NoError(t, err)
	out2, err := json.Marshal(back.Execution)
	require.NoError(t, err)
	require.Equal(t, string(out), string(out2))

	// A recursive item cannot be printed: neo-go writes an error string.
	arr := stackitem.NewArray(nil)
	require.NoError(t, arr.Append(arr))
	e = Execution{Stack: []stackitem.Item{arr}, VMState: 2, FaultException: "boom"}
	out, err = json.Marshal(e)
	require.NoError(t, err)
	require.Contains(t, string(out), `"stack":["error: `)
	require.Contains(t, string(out), `"exception":"boom"`)

	_, err = DecodeAppExecResult(nil)
	require.ErrorIs(t, err, ErrRecord)
	_, err = DecodeAppExecResult([]byte{9, 1})
	require.ErrorIs(t, err, ErrRecord)
}

func TestBalances(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 127, 128, 255, 256, 1 << 40, -(1 << 40)} {
		s := NEP17Balance{Balance: *big.NewInt(v)}
		item, err := s.ToStackItem()
		require.NoError(t, err)
		want, err := stackitem.Serialize(item)
		require.NoError(t, err)
		require.Equal(t, want, s.Bytes(nil), "value %d", v)
		back, err := NEP17BalanceFromBytes(want)
		require.NoError(t, err)
		require.Equal(t, 0, back.Balance.Cmp(big.NewInt(v)))
	}
	z, err := NEP17BalanceFromBytes(nil)
	require.NoError(t, err)
	require.Equal(t, 0, z.Balance.Sign())
	_, err = NEP17BalanceFromBytes([]byte{1, 2, 3})
	require.Error(t, err)

	k, err := keys.NewPublicKeyFromString("02028a99826edc0c97d18e22b6932373d908d323aa7f92656a77ec26e8861699ef")
	require.NoError(t, err)
	nb := NEOBalance{NEP17Balance: NEP17Balance{Balance: *big.NewInt(100)}, BalanceHeight: 7, VoteTo: k, LastGasPerVote: *big.NewInt(9)}
	back, err := NEOBalanceFromBytes(nb.Bytes())
	require.NoError(t, err)
	require.Equal(t, nb.Bytes(), back.Bytes())
	require.True(t, back.VoteTo.Equal(k))
	nb.VoteTo = nil
	back, err = NEOBalanceFromBytes(nb.Bytes())
	require.NoError(t, err)
	require.Nil(t, back.VoteTo)
	// C# NeoAccountState bytes: Struct(4) [Integer 100, Integer 7, Null, Integer 9].
	require.Equal(t, []byte{0x41, 4, 0x21, 1, 100, 0x21, 1, 7, 0, 0x21, 1, 9}, nb.Bytes())

	c := Candidate{Registered: true, Votes: *big.NewInt(1000)}
	b, err := stackitem.SerializeConvertible(&c)
	require.NoError(t, err)
	var c2 Candidate
	require.NoError(t, stackitem.DeserializeConvertible(b, &c2))
	require.True(t, c2.Registered)
	require.Equal(t, int64(1000), c2.Votes.Int64())
}
