package native_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// reportCPU locks the benchmark to its thread and returns a function that
// reports the thread's CPU time per operation.
func reportCPU(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPU()
	return func() {
		if n := b.N; n > 0 {
			b.ReportMetric(float64(threadCPU()-start)/float64(n), "cpu-ns/op")
		}
		runtime.UnlockOSThread()
	}
}

// fundMany sends neo NEO and gas GAS to each account, 100 accounts a
// transaction.
func (c *tokenChain) fundMany(neo, gas int64, accs []hash.Uint160) {
	var txs []*transaction.Transaction
	for i := 0; i < len(accs); i += 100 {
		chunk := accs[i:min(i+100, len(accs))]
		s := script(c.t, func(w *nio.BinWriter) {
			for _, a := range chunk {
				if neo > 0 {
					emit.AppCall(w, neoHash, "transfer", callflag.All, c.bft, a, neo, nil)
					emit.Opcodes(w, opcode.ASSERT)
				}
				if gas > 0 {
					emit.AppCall(w, gasHash, "transfer", callflag.All, c.bft, a, gas, nil)
					emit.Opcodes(w, opcode.ASSERT)
				}
			}
		})
		tx := c.NewTx(s, c.bftSigner())
		tx.SystemFee = 10000 * native.GASFactor
		txs = append(txs, tx)
	}
	for _, aer := range c.AddBlock(txs...) {
		if aer.VMState != vmstate.Halt {
			c.t.Fatalf("funding: %s", aer.FaultException)
		}
	}
}

func benchAccounts(b *testing.B, n int) []hash.Uint160 {
	res := make([]hash.Uint160, n)
	for i := range res {
		res[i] = testKey(b, fmt.Sprintf("bench%d", i)).ScriptHash()
	}
	return res
}

// benchTransfers runs token.transfer(from, to, 1, null) + ASSERT as
// transactions of one block (each in its own DAO layer persisted into the
// block's, as the ledger does), senders cycling over n accounts.
func benchTransfers(b *testing.B, token hash.Uint160, senders int) {
	c := newTokenChain(b)
	accs := benchAccounts(b, senders)
	c.fundMany(int64(10_000_000/senders), 10_000*native.GASFactor, accs)
	to := testKey(b, "receiver").ScriptHash()
	txs := make([]*transaction.Transaction, senders)
	for i, from := range accs {
		s := script(b, func(w *nio.BinWriter) {
			emit.AppCall(w, token, "transfer", callflag.All, from, to, 1, nil)
			emit.Opcodes(w, opcode.ASSERT)
		})
		txs[i] = c.NewTx(s, signer(from))
	}
	blk := c.NextBlock()
	d := c.DAO.GetPrivate()
	var v *vm.VM
	b.ReportAllocs()
	defer reportCPU(b)()
	i := 0
	for b.Loop() {
		aer, nv, err := c.Natives.RunTx(c, d, blk, txs[i%senders], v)
		if err != nil || aer.VMState != vmstate.Halt {
			b.Fatalf("%v %s", err, aer.FaultException)
		}
		v = nv
		i++
	}
}

func BenchmarkNEOTransfer(b *testing.B) {
	b.Run("one sender", func(b *testing.B) { benchTransfers(b, neoHash, 1) })
	b.Run("1000 senders", func(b *testing.B) { benchTransfers(b, neoHash, 1000) })
}

func BenchmarkGASTransfer(b *testing.B) {
	b.Run("one sender", func(b *testing.B) { benchTransfers(b, gasHash, 1) })
	b.Run("1000 senders", func(b *testing.B) { benchTransfers(b, gasHash, 1000) })
}

// BenchmarkPersistFees runs OnPersist and PostPersist of a block of 10,000
// transactions (fees burnt from one or 1000 senders, network fees to the
// primary, committee reward).
func BenchmarkPersistFees(b *testing.B) {
	for _, senders := range []int{1, 1000} {
		b.Run(fmt.Sprintf("%d senders", senders), func(b *testing.B) { benchPersistFees(b, senders) })
	}
}

func benchPersistFees(b *testing.B, senders int) {
	c := newTokenChain(b)
	accs := benchAccounts(b, senders)
	c.fundMany(0, 10_000*native.GASFactor*int64(1000/senders), accs)
	txs := make([]*transaction.Transaction, 10_000)
	for i := range txs {
		txs[i] = c.NewTx([]byte{byte(opcode.PUSH1)}, signer(accs[i%len(accs)]))
		txs[i].SystemFee, txs[i].NetworkFee = 1000_0000, 123_4567
	}
	blk := c.NextBlock(txs...)
	var v *vm.VM
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		d := c.DAO.GetPrivate()
		aer, nv, err := c.Natives.RunPersist(c, d, blk, trigger.OnPersist, v)
		if err != nil || len(aer.Events) != 10_001 {
			b.Fatal(err)
		}
		if aer, v, err = c.Natives.RunPersist(c, d, blk, trigger.PostPersist, nv); err != nil || len(aer.Events) != 1 {
			b.Fatal(err)
		}
	}
}
