package state

import (
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// TestInvocationRecords: an execution result with invocations is stored as
// a version 2 record and reads back equal; one without is still version 1.
// Arguments that cannot be serialized (an interop item) give a truncated
// invocation whose JSON has no "arguments", as neo-go writes it.
func TestInvocationRecords(t *testing.T) {
	args := []stackitem.Item{stackitem.NewInt(7), stackitem.NewByteString([]byte{1, 2})}
	truncated := NewContractInvocation(hash.Uint160{9}, "bad", []stackitem.Item{stackitem.NewInterop(struct{}{})})
	require.True(t, truncated.Truncated)
	require.Nil(t, truncated.Arguments)
	aer := &AppExecResult{Container: hash.Uint256{3}, Execution: Execution{
		Trigger: 0x40, VMState: 2, GasConsumed: 11,
		Invocations: []ContractInvocation{NewContractInvocation(hash.Uint160{1}, "transfer", args), truncated},
	}}
	rec, err := EncodeAppExecResult(aer)
	require.NoError(t, err)
	require.Equal(t, byte(recordV2), rec[0])
	back, err := DecodeAppExecResult(rec)
	require.NoError(t, err)
	require.Equal(t, aer.Invocations, back.Invocations)

	js, err := json.Marshal(back.Invocations)
	require.NoError(t, err)
	require.JSONEq(t, `[{"hash":"0x`+hash.Uint160{1}.StringLE()+`","method":"transfer","arguments":{"type":"Array","value":[{"type":"Integer","value":"7"},{"type":"ByteString","value":"AQI="}]},"argumentscount":2,"truncated":false},`+
		`{"hash":"0x`+hash.Uint160{9}.StringLE()+`","method":"bad","argumentscount":1,"truncated":true}]`, string(js))
	var fromJSON []ContractInvocation
	require.NoError(t, json.Unmarshal(js, &fromJSON))
	require.Equal(t, aer.Invocations, fromJSON)

	aer.Invocations = nil
	rec, err = EncodeAppExecResult(aer)
	require.NoError(t, err)
	require.Equal(t, byte(recordV1), rec[0])
	back, err = DecodeAppExecResult(rec)
	require.NoError(t, err)
	require.Nil(t, back.Invocations)
}
