package bench_test

// Differential tests against neo-go v0.120.0 (test-only import): the
// workload's script, transactions and fee rules must be exactly neo-go's
// (hence neo-bench's).

import (
	"bytes"
	"context"
	"testing"

	"github.com/nspcc-dev/neo-go/pkg/core/fee"
	ntx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	nkeys "github.com/nspcc-dev/neo-go/pkg/crypto/keys"
	nio "github.com/nspcc-dev/neo-go/pkg/io"
	nsc "github.com/nspcc-dev/neo-go/pkg/smartcontract"
	"github.com/nspcc-dev/neo-go/pkg/smartcontract/callflag"
	"github.com/nspcc-dev/neo-go/pkg/util"
	"github.com/nspcc-dev/neo-go/pkg/vm/emit"
	"github.com/nspcc-dev/neo-go/pkg/vm/opcode"
	"github.com/nspcc-dev/neo-go/pkg/wallet"

	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// neoHash is the NEO contract (reversed hex as RPC prints it).
const neoHashLE = "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"

func neogoTransfer(token, from, to util.Uint160, amount int64) []byte {
	w := nio.NewBufBinWriter()
	emit.AppCall(w.BinWriter, token, "transfer", callflag.All, from, to, amount, nil)
	emit.Opcodes(w.BinWriter, opcode.ASSERT)
	return w.Bytes()
}

func TestTransferScriptMatchesNeoGo(t *testing.T) {
	token, _ := hash.Uint160DecodeStringLE(neoHashLE)
	from := hash.Hash160([]byte("from"))
	to := hash.Hash160([]byte("to"))
	for _, amount := range []int64{1, 0, -1, 16, 17, -2, 127, 128, 255, 256, 32767, 32768, 70000, 1 << 31, 100_000_000, 290_000_000_000_000, -1 << 63, 1<<63 - 1} {
		got := bench.TransferScript(token, from, to, amount)
		want := neogoTransfer(util.Uint160(token), util.Uint160(from), util.Uint160(to), amount)
		if !bytes.Equal(got, want) {
			t.Errorf("amount %d:\n got %x\nwant %x", amount, got, want)
		}
	}
}

func TestWorkloadMatchesNeoGo(t *testing.T) {
	token, _ := hash.Uint160DecodeStringLE(neoHashLE)
	p := bench.Params{
		Magic: 56753, Token: token, SenderWIF: bench.DefaultSenderWIF, Amount: 1, Count: 40,
		ValidUntilBlock: bench.DefaultValidUntilBlock, SystemFee: bench.DefaultSystemFee, NetworkFee: bench.DefaultNetworkFee,
	}
	w, err := bench.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := nkeys.NewPrivateKeyFromWIF(bench.DefaultSenderWIF)
	if err != nil {
		t.Fatal(err)
	}
	acc := wallet.NewAccountFromPrivateKey(priv)
	from := priv.GetScriptHash()
	if from != util.Uint160(w.Sender) {
		t.Fatalf("sender %s, neo-go %s", w.Sender.StringLE(), from.StringLE())
	}
	for i := range w.Len() {
		tx := ntx.New(neogoTransfer(util.Uint160(token), from, from, 1), bench.DefaultSystemFee)
		tx.NetworkFee = bench.DefaultNetworkFee
		tx.ValidUntilBlock = bench.DefaultValidUntilBlock
		tx.Nonce = uint32(i)
		tx.Signers = []ntx.Signer{{Account: from, Scopes: ntx.CalledByEntry}}
		if err := acc.SignTx(56753, tx); err != nil {
			t.Fatal(err)
		}
		if want := tx.Bytes(); !bytes.Equal(w.Tx(i), want) {
			t.Fatalf("tx %d:\n got %x\nwant %x", i, w.Tx(i), want)
		}
	}
	if w.TxSize != 245 {
		t.Errorf("transfer size %d, neo-bench's is about 245", w.TxSize)
	}
}

// TestNetworkFeeMatchesNeoGo checks RequiredNetworkFee against neo-go's
// fee.Calculate for the workload's single-signature transactions and the
// committee's 1-of-1 and 3-of-4 multisig funding transactions, and that
// neo-bench's fixed fees cover them.
func TestNetworkFeeMatchesNeoGo(t *testing.T) {
	const feePerByte, execFeeFactor = bench.DefaultFeePerByte, bench.DefaultExecFeeFactor
	token, _ := hash.Uint160DecodeStringLE(neoHashLE)
	p := bench.Params{Magic: 56753, Token: token, SenderWIF: bench.DefaultSenderWIF, Amount: 1, Count: 1,
		ValidUntilBlock: 1200, SystemFee: bench.DefaultSystemFee, NetworkFee: bench.DefaultNetworkFee}
	w, err := bench.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := transaction.NewTransactionFromBytes(w.Tx(0))
	if err != nil {
		t.Fatal(err)
	}
	neogoFee := func(tx *transaction.Transaction) int64 {
		var exec int64
		for _, wt := range tx.Witnesses {
			f, _ := fee.Calculate(execFeeFactor*10000, wt.VerificationScript) // picoGAS factor since Faun
			exec += f
		}
		return int64(tx.Size())*feePerByte + exec
	}
	got := bench.RequiredNetworkFee(tx, feePerByte, execFeeFactor)
	if want := neogoFee(tx); got != want {
		t.Errorf("single-sig fee %d, neo-go %d", got, want)
	}
	if got > bench.DefaultNetworkFee {
		t.Errorf("neo-bench's fixed network fee %d does not cover %d", bench.DefaultNetworkFee, got)
	}
	for _, wifs := range [][]string{bench.SingleNodeWIFs, bench.FourNodeWIFs} {
		m, err := bench.NewMultisig(wifs)
		if err != nil {
			t.Fatal(err)
		}
		// The account must be neo-go's BFT multisig of the same keys.
		var pubs nkeys.PublicKeys
		for _, wif := range wifs {
			k, _ := nkeys.NewPrivateKeyFromWIF(wif)
			pubs = append(pubs, k.PublicKey())
		}
		script, err := nsc.CreateDefaultMultiSigRedeemScript(pubs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(script, m.Script) {
			t.Fatalf("%d keys: multisig script differs from neo-go's", len(wifs))
		}
		ftx := transaction.New(bench.TransferScript(token, m.Account, w.Sender, 100_000_000), 7, 11_000_000, 0, 100)
		ftx.Signers = []transaction.Signer{{Account: m.Account, Scopes: transaction.CalledByEntry}}
		m.Sign(ftx, 56753)
		got, want := bench.RequiredNetworkFee(ftx, feePerByte, execFeeFactor), neogoFee(ftx)
		if got != want {
			t.Errorf("%d keys: multisig fee %d, neo-go %d", len(wifs), got, want)
		}
		// neo-bench's fixed fees: 0.015 GAS for 1 validator, 0.045 for 4.
		limit := map[int]int64{1: 1_500_000, 4: 4_500_000}[len(wifs)]
		if got > limit {
			t.Errorf("%d keys: fee %d above neo-bench's %d", len(wifs), got, limit)
		}
	}
}
