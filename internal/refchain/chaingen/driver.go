package chaingen

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Fixed transaction fields. ValidUntilBlock is far above the chain's height
// and below MaxValidUntilBlockIncrement, so every transaction stays the same
// bytes whatever height it is sent at.
const (
	fixedValidUntilBlock = 5000
	firstNonce           = 1000
	// sysFeeMargin is added to the GAS an invokescript test run consumed.
	sysFeeMargin = 1_000_000
	// faultSysFee is the system fee of transactions meant to FAULT by
	// THROW or ABORT.
	faultSysFee = 10_000_000
	// inclusionTimeout bounds the wait for a sent transaction to land.
	inclusionTimeout = 30 * time.Second
)

// driver sends scenario transactions to a neo-go node and waits for them.
type driver struct {
	rpc     *neogo.Client
	log     io.Writer
	magic   uint32
	nonce   uint32
	step    string
	natives map[string]hash.Uint160 // by manifest name
	pending []pendingTx
	txs     []refchain.TxInfo
}

type pendingTx struct {
	hash   hash.Uint256
	expect string
	info   int // index into txs
}

// sig is one transaction signer: the account and its witness scope.
type sig struct {
	acc       *Account
	scopes    byte
	contracts []hash.Uint160
	rules     [][]byte
}

func entry(a *Account) sig { return sig{acc: a, scopes: ScopeCalledByEntry} }

// txOpts modify one scenario transaction.
type txOpts struct {
	signers []sig
	attrs   []Attribute
	sysFee  int64  // 0: estimate with invokescript
	expect  string // "HALT" (default) or "FAULT"
}

func (d *driver) logf(format string, args ...any) {
	if d.log != nil {
		fmt.Fprintf(d.log, format+"\n", args...)
	}
}

// invokeResult is the part of an invokescript answer the driver reads.
type invokeResult struct {
	State       string          `json:"state"`
	GasConsumed json.Number     `json:"gasconsumed"`
	Exception   *string         `json:"exception"`
	Stack       json.RawMessage `json:"stack"`
}

func signersJSON(ss []sig) []map[string]any {
	out := make([]map[string]any, len(ss))
	for i, s := range ss {
		// Global gives every CheckWitness the answer the real scopes give
		// in these scripts and costs the same GAS.
		out[i] = map[string]any{"account": s.acc.Hash.String(), "scopes": "Global"}
	}
	return out
}

// send builds, signs and relays one transaction; it is settled by wait.
func (d *driver) send(ctx context.Context, desc string, script []byte, o txOpts) (hash.Uint256, error) {
	if o.expect == "" {
		o.expect = "HALT"
	}
	if len(o.signers) == 0 {
		return hash.Uint256{}, errors.New("chaingen: transaction without signers")
	}
	sysFee := o.sysFee
	if sysFee == 0 {
		var res invokeResult
		if err := d.rpc.Call(ctx, "invokescript", &res, base64.StdEncoding.EncodeToString(script), signersJSON(o.signers)); err != nil {
			return hash.Uint256{}, fmt.Errorf("%s: invokescript: %w", desc, err)
		}
		if res.State != o.expect {
			exc := ""
			if res.Exception != nil {
				exc = *res.Exception
			}
			return hash.Uint256{}, fmt.Errorf("%s: test invocation ended in %s (%s), want %s", desc, res.State, exc, o.expect)
		}
		gas, err := res.GasConsumed.Int64()
		if err != nil {
			return hash.Uint256{}, fmt.Errorf("%s: gasconsumed %q: %w", desc, res.GasConsumed, err)
		}
		sysFee = gas + sysFeeMargin
	}
	tx := &Tx{
		Nonce:           d.nonce,
		SystemFee:       sysFee,
		ValidUntilBlock: fixedValidUntilBlock,
		Attributes:      o.attrs,
		Script:          script,
	}
	d.nonce++
	for _, s := range o.signers {
		tx.Signers = append(tx.Signers, Signer{Account: s.acc.Hash, Scopes: s.scopes, AllowedContracts: s.contracts, Rules: s.rules})
		tx.Witnesses = append(tx.Witnesses, Witness{Invocation: []byte{}, Verification: s.acc.Verification})
	}
	var fee struct {
		NetworkFee json.Number `json:"networkfee"`
	}
	if err := d.rpc.Call(ctx, "calculatenetworkfee", &fee, base64.StdEncoding.EncodeToString(tx.Bytes())); err != nil {
		return hash.Uint256{}, fmt.Errorf("%s: calculatenetworkfee: %w", desc, err)
	}
	netFee, err := fee.NetworkFee.Int64()
	if err != nil {
		return hash.Uint256{}, fmt.Errorf("%s: networkfee %q: %w", desc, fee.NetworkFee, err)
	}
	tx.NetworkFee = netFee
	if err := d.sign(tx, o.signers); err != nil {
		return hash.Uint256{}, err
	}
	h := tx.Hash()
	var sent struct {
		Hash string `json:"hash"`
	}
	if err := d.rpc.Call(ctx, "sendrawtransaction", &sent, base64.StdEncoding.EncodeToString(tx.Bytes())); err != nil {
		return hash.Uint256{}, fmt.Errorf("%s: sendrawtransaction: %w", desc, err)
	}
	if sent.Hash != h.String() {
		return hash.Uint256{}, fmt.Errorf("%s: node says hash %s, we computed %s", desc, sent.Hash, h)
	}
	d.txs = append(d.txs, refchain.TxInfo{Step: d.step, Description: desc, Hash: h.String(), VMState: o.expect})
	d.pending = append(d.pending, pendingTx{hash: h, expect: o.expect, info: len(d.txs) - 1})
	d.logf("  sent %s %s (sysfee %d, netfee %d)", h, desc, sysFee, netFee)
	return h, nil
}

func (d *driver) sign(tx *Tx, ss []sig) error {
	data := SignData(d.magic, tx.Hash())
	for i, s := range ss {
		inv, err := s.acc.Invocation(data)
		if err != nil {
			return err
		}
		tx.Witnesses[i].Invocation = inv
	}
	return nil
}

// wait blocks until every pending transaction is in a block and checks its
// VM state.
func (d *driver) wait(ctx context.Context) error {
	deadline := time.Now().Add(inclusionTimeout)
	for _, p := range d.pending {
		var height uint32
		for {
			err := d.rpc.Call(ctx, "gettransactionheight", &height, p.hash.String())
			if err == nil {
				break
			}
			var re *neogo.RPCError
			if !errors.As(err, &re) {
				return err
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("chaingen: %s (%s) not in a block after %s: %w", p.hash, d.txs[p.info].Description, inclusionTimeout, err)
			}
			if err := sleep(ctx, 100*time.Millisecond); err != nil {
				return err
			}
		}
		var log struct {
			Executions []struct {
				VMState   string  `json:"vmstate"`
				Exception *string `json:"exception"`
			} `json:"executions"`
		}
		if err := d.rpc.Call(ctx, "getapplicationlog", &log, p.hash.String()); err != nil {
			return err
		}
		if len(log.Executions) != 1 {
			return fmt.Errorf("chaingen: %s has %d executions", p.hash, len(log.Executions))
		}
		ex := log.Executions[0]
		info := &d.txs[p.info]
		info.Block = height
		if ex.Exception != nil {
			info.Exception = *ex.Exception
		}
		if ex.VMState != p.expect {
			return fmt.Errorf("chaingen: %s (%s) ended in %s (%s), want %s", p.hash, info.Description, ex.VMState, info.Exception, p.expect)
		}
	}
	d.pending = d.pending[:0]
	return nil
}

// height returns the index of the last persisted block.
func (d *driver) height(ctx context.Context) (uint32, error) {
	var count uint32
	if err := d.rpc.Call(ctx, "getblockcount", &count); err != nil {
		return 0, err
	}
	return count - 1, nil
}

// waitBlocks waits until n more blocks are persisted.
func (d *driver) waitBlocks(ctx context.Context, n uint32) error {
	start, err := d.height(ctx)
	if err != nil {
		return err
	}
	return d.waitHeight(ctx, start+n)
}

// waitHeight waits until block h is persisted.
func (d *driver) waitHeight(ctx context.Context, h uint32) error {
	deadline := time.Now().Add(inclusionTimeout + time.Duration(h)*time.Second)
	for {
		cur, err := d.height(ctx)
		if err != nil {
			return err
		}
		if cur >= h {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("chaingen: height %d not reached (at %d)", h, cur)
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// loadNatives reads the native contract hashes from getnativecontracts.
func (d *driver) loadNatives(ctx context.Context) error {
	var natives []struct {
		ID       int32  `json:"id"`
		Hash     string `json:"hash"`
		Manifest struct {
			Name string `json:"name"`
		} `json:"manifest"`
	}
	if err := d.rpc.Call(ctx, "getnativecontracts", &natives); err != nil {
		return err
	}
	d.natives = make(map[string]hash.Uint160)
	for _, n := range natives {
		h, err := hash.Uint160DecodeStringLE(strings.TrimPrefix(n.Hash, "0x"))
		if err != nil {
			return fmt.Errorf("chaingen: native %s hash %q: %w", n.Manifest.Name, n.Hash, err)
		}
		d.natives[n.Manifest.Name] = h
	}
	for _, name := range []string{"NeoToken", "GasToken", "PolicyContract", "ContractManagement", "RoleManagement"} {
		if _, ok := d.natives[name]; !ok {
			return fmt.Errorf("chaingen: native %s missing", name)
		}
	}
	return nil
}
