package state

import (
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func FuzzDecodeAppExecResult(f *testing.F) {
	rec, _ := EncodeAppExecResult(&AppExecResult{Execution: Execution{
		Trigger: 0x40, VMState: 1, GasConsumed: 7, Stack: []stackitem.Item{stackitem.NewInt(1)},
		Events: []NotificationEvent{{Name: "x", Item: stackitem.NewArray(nil)}},
	}})
	f.Add(rec)
	rec, _ = EncodeAppExecResult(&AppExecResult{Execution: Execution{
		Trigger: 0x40, VMState: 2, Invocations: []ContractInvocation{
			NewContractInvocation(hash.Uint160{1}, "m", []stackitem.Item{stackitem.NewInt(5)}),
			{Hash: hash.Uint160{2}, Method: "t", ArgumentsCount: 3, Truncated: true},
		},
	}})
	f.Add(rec)
	f.Fuzz(func(t *testing.T, data []byte) {
		aer, err := DecodeAppExecResult(data)
		if err != nil {
			return
		}
		if _, err := json.Marshal(aer); err != nil {
			t.Fatal(err)
		}
		if _, err := EncodeAppExecResult(aer); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzContractFromBytes(f *testing.F) {
	for _, r := range loadRecords(f, "state.json") {
		if r.Method != "getcontractstate" || len(r.Result) == 0 || r.Result[0] != '{' {
			continue
		}
		var c Contract
		if json.Unmarshal(r.Result, &c) == nil {
			if b, err := c.Bytes(); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ContractFromBytes(data)
		if err != nil {
			return
		}
		if _, err := c.Bytes(); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(c); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzBalances(f *testing.F) {
	f.Add([]byte{0x41, 1, 0x21, 1, 5})
	f.Add([]byte{0x41, 4, 0x21, 1, 100, 0x21, 1, 7, 0, 0x21, 1, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if b, err := NEP17BalanceFromBytes(data); err == nil {
			_ = b.Bytes(nil)
		}
		if b, err := NEOBalanceFromBytes(data); err == nil {
			_ = b.Bytes()
		}
	})
}
