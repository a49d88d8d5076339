package nep11_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/rpcclient/nep11"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"

	nio "github.com/n3node/n3node/pkg/io"
)

// TestExpandScript runs the expansion loop on a chain: a contract whose
// "tokens" returns a storage iterator over five keys.
func TestExpandScript(t *testing.T) {
	c := chaintest.New(t)
	ids := [][]byte{{1}, {2}, {3}, {4}, {5}}
	b := chaintest.NewContractBuilder("Iter").
		Method("init", nil, smartcontract.VoidType, func(w *nio.BinWriter) {
			for _, id := range ids {
				emit.Bytes(w, []byte("v"))
				emit.Bytes(w, id)
				emit.Syscall(w, "System.Storage.GetContext")
				emit.Syscall(w, "System.Storage.Put")
			}
		}).
		SafeMethod("tokens", nil, smartcontract.InteropInterfaceType, func(w *nio.BinWriter) {
			emit.Int(w, 1) // KeysOnly
			emit.Bytes(w, nil)
			emit.Syscall(w, "System.Storage.GetReadOnlyContext")
			emit.Syscall(w, "System.Storage.Find")
		})
	cs := c.DeployBuilder(b)
	c.RunOK(chaintest.CallScript(cs.Hash, "init"))
	for _, max := range []int{1, 3, 5, 100} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			script, err := nep11.ExpandScript(cs.Hash, "tokens", max)
			if err != nil {
				t.Fatal(err)
			}
			ic := c.Invoke(script, callflag.All, 1_0000_0000)
			if ic.VM.State() != vmstate.Halt {
				t.Fatalf("state %s: %v", ic.VM.State(), ic.VM.FaultError())
			}
			items := chaintest.ResultItems(ic)
			if len(items) != 1 {
				t.Fatalf("%d items", len(items))
			}
			arr := items[0].Value().([]stackitem.Item)
			if want := min(max, len(ids)); len(arr) != want {
				t.Fatalf("%d values, want %d", len(arr), want)
			}
			for i, v := range arr {
				if got, _ := v.TryBytes(); !bytes.Equal(got, ids[i]) {
					t.Errorf("value %d: %x", i, got)
				}
			}
		})
	}
	if _, err := nep11.ExpandScript(cs.Hash, "tokens", 0); err == nil {
		t.Error("max 0 accepted")
	}
}
