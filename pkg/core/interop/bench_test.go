package interop_test

import (
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// benchRun executes script as an Application transaction on c's state the
// way the block executor does (a context and a private DAO layer per run,
// one reused VM), without persisting.
func benchRun(b *testing.B, c *chaintest.Chain, script []byte) {
	tx := c.NewTx(script)
	blk := c.NextBlock(tx)
	v := vm.New()
	b.ReportAllocs()
	for b.Loop() {
		ic := c.Natives.NewContext(trigger.Application, c, c.DAO.GetPrivate(), blk, tx)
		ic.InitVM(v)
		v.SetGasLimit(tx.SystemFee)
		aer := ic.Execute(tx.Hash(), script, callflag.All)
		if aer.VMState != vmstate.Halt {
			b.Fatal(aer.FaultException)
		}
	}
}

// BenchmarkNativeCall: System.Contract.Call of PolicyContract.getFeePerByte.
func BenchmarkNativeCall(b *testing.B) {
	c := chaintest.New(b)
	benchRun(b, c, chaintest.CallScript(nativenames.PolicyHash, "getFeePerByte"))
}

// BenchmarkStorage: Storage.Put and Storage.Get through a deployed
// contract (one System.Contract.Call each).
func BenchmarkStorage(b *testing.B) {
	c := chaintest.New(b)
	cs := c.DeployBuilder(testerBuilder("Bench"))
	c.RunOK(chaintest.CallScript(cs.Hash, "put", []byte("key"), []byte("value")))
	b.Run("Put", func(b *testing.B) {
		benchRun(b, c, chaintest.CallScript(cs.Hash, "put", []byte("key"), make([]byte, 32)))
	})
	b.Run("Get", func(b *testing.B) {
		benchRun(b, c, chaintest.CallScript(cs.Hash, "get", []byte("key")))
	})
	b.Run("Put10", func(b *testing.B) {
		benchRun(b, c, chaintest.Script(func(w *nio.BinWriter) {
			for i := range 10 {
				emit.AppCall(w, cs.Hash, "put", callflag.All, []byte{byte(i)}, make([]byte, 32))
			}
		}))
	})
}

// BenchmarkVerifyWitness: a standard single-signature witness through
// interop.VerifyWitness (fast path), and the same check run by the VM
// (System.Crypto.CheckSig in a script).
func BenchmarkVerifyWitness(b *testing.B) {
	c := chaintest.New(b)
	k := chaintest.CommitteeKey
	acc := k.PublicKey().ScriptHash()
	tx := c.NewTx([]byte{byte(opcode.PUSH1)}, transaction.Signer{Account: acc})
	sd := tx.SignData(uint32(c.Cfg.Magic))
	sig := k.Sign(sd[:])
	w := transaction.Witness{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: k.PublicKey().VerificationScript()}
	b.Run("FastPath", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &w, interop.MaxVerificationGas); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("VM", func(b *testing.B) {
		script := append(append([]byte{}, w.InvocationScript...), w.VerificationScript...)
		v := vm.New()
		b.ReportAllocs()
		for b.Loop() {
			ic := c.Natives.NewContext(trigger.Verification, c, c.DAO, nil, tx)
			ic.InitVM(v)
			if err := ic.LoadScript(script, callflag.ReadOnly); err != nil {
				b.Fatal(err)
			}
			if err := ic.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
