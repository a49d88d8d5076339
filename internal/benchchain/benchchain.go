// Package benchchain generates a large chain dump for import benchmarks:
// blocks of NEO and GAS transfers between many accounts on a single-
// validator network, signed by the validator key, valid for both n3node and
// neo-go 0.120.0 (`db restore`). The dump is not committed; docs/perf.md
// says how to make it.
package benchchain

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// Options describe the chain.
type Options struct {
	// Validator is the key of the network's single validator (and
	// committee member), which holds the genesis NEO and GAS.
	Validator *keys.PrivateKey
	// Blocks is the number of blocks after the genesis; TxPerBlock the
	// transfers per block (from distinct senders); Accounts the number of
	// funded accounts (at least TxPerBlock).
	Blocks, TxPerBlock, Accounts int
	// Seed makes the receivers and amounts reproducible.
	Seed uint64
}

// Fees of the generated transactions (datoshi).
const (
	transferSysFee = 5000_0000 // 0.5 GAS, well above a NEO transfer with a GAS claim
	netFee         = 200_0000  // 0.02 GAS: size fee plus one signature check
	fundBatch      = 100       // transfers per funding transaction
)

// Generate writes the dump (C# layout, genesis included) of the chain for
// cfg to w.
func Generate(cfg *config.ProtocolConfiguration, o Options, w io.Writer) error {
	if o.Accounts < o.TxPerBlock {
		return fmt.Errorf("%d accounts cannot send %d transfers per block", o.Accounts, o.TxPerBlock)
	}
	g, err := core.CreateGenesisBlock(cfg)
	if err != nil {
		return err
	}
	vpub := o.Validator.PublicKey()
	vscript, err := smartcontract.CreateDefaultMultiSigRedeemScript([]*keys.PublicKey{vpub})
	if err != nil {
		return err
	}
	vacc := hash.Hash160(vscript)
	if vacc != g.NextConsensus {
		return fmt.Errorf("the validator key is not the network's (next consensus %s)", g.NextConsensus.StringLE())
	}
	accs := make([]*keys.PrivateKey, o.Accounts)
	for i := range accs {
		b := make([]byte, 32)
		b[0] = 0x42
		b[28], b[29], b[30], b[31] = byte(i>>24), byte(i>>16), byte(i>>8), byte(i)
		b[27] = 1
		if accs[i], err = keys.NewPrivateKeyFromBytes(b); err != nil {
			return err
		}
	}
	// Funding batches (NEO and GAS), then the transfer blocks.
	var fund [][]*transaction.Transaction
	nonce := uint32(1)
	magic := uint32(cfg.Magic)
	signCommittee := func(tx *transaction.Transaction) {
		sd := tx.SignData(magic)
		tx.Witnesses = []transaction.Witness{{InvocationScript: push(o.Validator.Sign(sd[:])), VerificationScript: vscript}}
	}
	var batch []*transaction.Transaction
	for start := 0; start < len(accs); start += fundBatch {
		end := min(start+fundBatch, len(accs))
		script, err := emit.Script(func(wr *nio.BinWriter) {
			for _, a := range accs[start:end] {
				emit.AppCall(wr, nativenames.NeoHash, "transfer", callflag.All, vacc, a.PublicKey().ScriptHash(), int64(10000), nil)
				emit.Opcodes(wr, opcode.ASSERT)
				emit.AppCall(wr, nativenames.GasHash, "transfer", callflag.All, vacc, a.PublicKey().ScriptHash(), int64(5000_0000_0000), nil)
				emit.Opcodes(wr, opcode.ASSERT)
			}
		})
		if err != nil {
			return err
		}
		tx := transaction.New(script, nonce, int64(end-start)*2*transferSysFee, netFee*4+int64(len(script))*1000, 0)
		nonce++
		tx.Signers = []transaction.Signer{{Account: vacc, Scopes: transaction.CalledByEntry}}
		batch = append(batch, tx)
		if len(batch) == 5 {
			fund = append(fund, batch)
			batch = nil
		}
	}
	if batch != nil {
		fund = append(fund, batch)
	}
	total := len(fund) + o.Blocks
	dw, err := chaindump.NewWriter(w, 0, uint32(total+1), false)
	if err != nil {
		return err
	}
	if err := dw.WriteBlock(g.Bytes()); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6e336e6f6465))
	prev := &g.Header
	next := 0 // next sender
	for i := range total {
		index := prev.Index + 1
		var txs []*transaction.Transaction
		if i < len(fund) {
			for _, tx := range fund[i] {
				tx.ValidUntilBlock = index + 10
				signCommittee(tx)
				txs = append(txs, tx)
			}
		} else {
			for range o.TxPerBlock {
				from := accs[next]
				next = (next + 1) % len(accs)
				to := accs[rng.IntN(len(accs))].PublicKey().ScriptHash()
				token, amount := nativenames.GasHash, int64(1+rng.IntN(1000_0000))
				if rng.IntN(2) == 0 {
					token, amount = nativenames.NeoHash, int64(1+rng.IntN(5))
				}
				script, err := emit.Script(func(wr *nio.BinWriter) {
					emit.AppCall(wr, token, "transfer", callflag.All, from.PublicKey().ScriptHash(), to, amount, nil)
					emit.Opcodes(wr, opcode.ASSERT)
				})
				if err != nil {
					return err
				}
				tx := transaction.New(script, nonce, transferSysFee, netFee, index+10)
				nonce++
				tx.Signers = []transaction.Signer{{Account: from.PublicKey().ScriptHash(), Scopes: transaction.CalledByEntry}}
				sd := tx.SignData(magic)
				tx.Witnesses = []transaction.Witness{{
					InvocationScript:   push(from.Sign(sd[:])),
					VerificationScript: smartcontract.CreateSignatureRedeemScript(from.PublicKey()),
				}}
				txs = append(txs, tx)
			}
		}
		b := &block.Block{Header: block.Header{
			PrevHash:      prev.Hash(),
			Timestamp:     prev.Timestamp + 1000,
			Nonce:         uint64(index) * 2654435761,
			Index:         index,
			NextConsensus: prev.NextConsensus,
		}, Transactions: txs}
		b.RebuildMerkleRoot()
		sd := b.SignData(magic)
		b.Witness = transaction.Witness{InvocationScript: push(o.Validator.Sign(sd[:])), VerificationScript: vscript}
		if err := dw.WriteBlock(b.Bytes()); err != nil {
			return err
		}
		prev = &b.Header
	}
	return dw.Close()
}

func push(b []byte) []byte {
	w := nio.NewBufBinWriter()
	emit.Bytes(w, b)
	return w.Bytes()
}
