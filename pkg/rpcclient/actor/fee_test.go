package actor

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/wallet"
)

// TestStandardNetworkFeeRefchain recomputes the network fee of every
// transaction of the reference chain (each was set to neo-go's
// calculatenetworkfee answer; fee per byte 1000, exec fee factor 30,
// attribute fees 0) and of the recorded calculatenetworkfee call.
func TestStandardNetworkFeeRefchain(t *testing.T) {
	var recs []struct {
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
		Result json.RawMessage   `json:"result"`
	}
	for _, f := range []string{"transactions.json", "state.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "refchain", "rpc", f))
		if err != nil {
			t.Fatal(err)
		}
		var rs []struct {
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
			Result json.RawMessage   `json:"result"`
		}
		if err := json.Unmarshal(data, &rs); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rs...)
	}
	zero := func(transaction.AttrType) (int64, error) { return 0, nil }
	checked, withAttrs, multi := 0, 0, 0
	for _, r := range recs {
		switch {
		case r.Method == "getrawtransaction" && len(r.Params) == 2 && r.Result != nil:
			var out rpcclient.TransactionOutputRaw
			if err := json.Unmarshal(r.Result, &out); err != nil {
				t.Fatal(err)
			}
			tx := &out.Transaction
			fee, err := StandardNetworkFee(tx, 1000, 30, zero)
			if err != nil {
				t.Errorf("%s: %v", tx.Hash().StringLE(), err)
				continue
			}
			if fee != tx.NetworkFee {
				t.Errorf("%s: local fee %d, neo-go %d", tx.Hash().StringLE(), fee, tx.NetworkFee)
			}
			if len(tx.Attributes) > 0 {
				withAttrs++
			}
			if len(tx.Signers) > 1 {
				multi++
			}
			checked++
		case r.Method == "calculatenetworkfee":
			var b []byte
			if err := json.Unmarshal(r.Params[0], &b); err != nil {
				t.Fatal(err)
			}
			tx, err := transaction.NewTransactionFromBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Fee int64 `json:"networkfee,string"`
			}
			if err := json.Unmarshal(r.Result, &res); err != nil {
				t.Fatal(err)
			}
			if fee, err := StandardNetworkFee(tx, 1000, 30, zero); err != nil || fee != res.Fee {
				t.Errorf("calculatenetworkfee: local %d %v, neo-go %d", fee, err, res.Fee)
			}
			checked++
		}
	}
	if checked < 40 || withAttrs == 0 || multi == 0 {
		t.Fatalf("checked %d transactions (%d with attributes, %d with several signers)", checked, withAttrs, multi)
	}
	t.Logf("checked %d transactions (%d with attributes, %d with several signers)", checked, withAttrs, multi)
}

func TestStandardNetworkFeeErrors(t *testing.T) {
	tx := transaction.New([]byte{0x40}, 1, 0, 0, 10)
	tx.Signers = []transaction.Signer{{}}
	tx.Witnesses = []transaction.Witness{{VerificationScript: []byte{0x11}}}
	if _, err := StandardNetworkFee(tx, 1000, 30, nil); !errors.Is(err, ErrNonStandardWitness) {
		t.Errorf("custom witness: %v", err)
	}
	tx.Witnesses = nil
	if _, err := StandardNetworkFee(tx, 1000, 30, nil); err == nil {
		t.Error("missing witnesses accepted")
	}
}

// TestLocalFeeFallback: a node without calculatenetworkfee gets the fee
// computed locally from Policy's values.
func TestLocalFeeFallback(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.srv.Handle("calculatenetworkfee", func([]json.RawMessage) (any, error) {
		return nil, neorpc.NewMethodNotFoundError(`method "calculatenetworkfee" not supported`)
	})
	f.srv.Do(func() {
		f.chain.InvokeStack = []json.RawMessage{json.RawMessage(`{"type":"Integer","value":"1000"}`), json.RawMessage(`{"type":"Integer","value":"30"}`)}
	})
	acc := wallet.NewAccountFromPrivateKey(testKey(t, 1))
	act, err := New(ctx, f.cli, []SignerAccount{signer(acc, transaction.CalledByEntry)}, Options{NetworkFeeExtra: 1})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := act.MakeUnsignedUncheckedRun(ctx, []byte{0x40}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := StandardNetworkFee(tx, 1000, 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tx.NetworkFee != want+1 {
		t.Errorf("fee %d, want %d", tx.NetworkFee, want+1)
	}
	// A standard witness: 66 bytes of invocation, 40 of verification.
	if want != int64(tx.Size()+66)*1000+30*(2*8+32768) {
		t.Errorf("fee %d for size %d", want, tx.Size())
	}
	if _, err := act.Send(ctx, mustSign(t, act, tx)); err != nil {
		t.Fatal(err)
	}
}
