package bench

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient"
)

// prepGAS is the GAS neo-bench moves from the committee to its sender.
const prepGAS = 2_900_000 * GASFactor

// Funding is the outcome of preparation.
type Funding struct {
	Skipped  bool     `json:"skipped"` // the sender was already funded
	TxHashes []string `json:"txs,omitempty"`
	NEO      string   `json:"neo"` // sender balances after funding
	GAS      string   `json:"gas"`
	Seconds  float64  `json:"seconds"`
}

// funded reports whether the sender can send the whole workload: for NEO
// transfers it needs Amount NEO, for GAS transfers Amount GAS on top of the
// fees, and the fees of every transaction.
func fundingNeeds(p *Params, n Natives) (neo, gas *big.Int) {
	gas = big.NewInt(int64(p.Count))
	gas.Mul(gas, big.NewInt(p.SystemFee+p.NetworkFee))
	neo = new(big.Int)
	switch p.Token {
	case n["NeoToken"]:
		neo.SetInt64(p.Amount)
	case n["GasToken"]:
		gas.Add(gas, big.NewInt(p.Amount))
	}
	return neo, gas
}

// Fund moves NEO and GAS from the committee's multisig account to the
// workload's sender, as neo-bench does (all the committee's NEO, 2.9M GAS),
// unless the sender already holds enough, and waits until the balances show.
func Fund(ctx context.Context, c *rpcclient.Client, info NodeInfo, n Natives, fees FeePolicy, committee *Multisig, p *Params, sender hash.Uint160, logf func(string, ...any)) (Funding, error) {
	start := time.Now()
	needNEO, needGAS := fundingNeeds(p, n)
	enough := func() (bool, *big.Int, *big.Int, error) {
		neo, err := BalanceOf(ctx, c, n["NeoToken"], sender)
		if err != nil {
			return false, nil, nil, err
		}
		gas, err := BalanceOf(ctx, c, n["GasToken"], sender)
		if err != nil {
			return false, nil, nil, err
		}
		return neo.Cmp(needNEO) >= 0 && gas.Cmp(needGAS) >= 0, neo, gas, nil
	}
	ok, neo, gas, err := enough()
	if err != nil {
		return Funding{}, err
	}
	if ok {
		return Funding{Skipped: true, NEO: neo.String(), GAS: gas.String()}, nil
	}
	cNEO, err := BalanceOf(ctx, c, n["NeoToken"], committee.Account)
	if err != nil {
		return Funding{}, err
	}
	cGAS, err := BalanceOf(ctx, c, n["GasToken"], committee.Account)
	if err != nil {
		return Funding{}, err
	}
	moveGAS := big.NewInt(prepGAS)
	if limit := new(big.Int).Sub(cGAS, big.NewInt(100*GASFactor)); limit.Cmp(moveGAS) < 0 {
		moveGAS = limit
	}
	if cNEO.Cmp(needNEO) < 0 || moveGAS.Cmp(needGAS) < 0 {
		return Funding{}, fmt.Errorf("bench: committee %s holds %s NEO and %s GAS (datoshi), the sender needs %s NEO and %s GAS: use a fresh chain or other committee keys",
			committee.Account.StringLE(), cNEO, cGAS, needNEO, needGAS)
	}
	height, err := c.GetBlockCount(ctx)
	if err != nil {
		return Funding{}, err
	}
	vub := height + 100
	if info.MaxVUBInc > 1 && info.MaxVUBInc <= 100 {
		vub = height + info.MaxVUBInc - 1
	}
	var f Funding
	for i, mv := range []struct {
		token  hash.Uint160
		amount *big.Int
	}{{n["NeoToken"], cNEO}, {n["GasToken"], moveGAS}} {
		if mv.amount.Sign() <= 0 || !mv.amount.IsInt64() {
			continue
		}
		script := TransferScript(mv.token, committee.Account, sender, mv.amount.Int64())
		// "ben"+i, varied with the height so a second funding is a new transaction.
		nonce := (uint32(0x62656e00) + uint32(i)) ^ (height << 8)
		build := func(netfee int64) *transaction.Transaction {
			tx := transaction.New(script, nonce, prepSystemFee, netfee, vub)
			tx.Signers = []transaction.Signer{{Account: committee.Account, Scopes: transaction.CalledByEntry}}
			committee.Sign(tx, info.Magic)
			return tx
		}
		tx := build(0)
		tx = build(RequiredNetworkFee(tx, fees.FeePerByte, fees.ExecFeeFactor))
		h, err := c.SendRawTransaction(ctx, tx.Bytes())
		if err != nil {
			return Funding{}, fmt.Errorf("bench: send funding transaction: %w", err)
		}
		f.TxHashes = append(f.TxHashes, h)
	}
	logf("funding: sent %d transactions from the committee %s, waiting for them", len(f.TxHashes), committee.Account.StringLE())
	timeout := max(30*time.Second, 30*time.Duration(info.MSPerBlock)*time.Millisecond)
	deadline := time.Now().Add(timeout)
	for {
		ok, neo, gas, err = enough()
		if err != nil {
			return Funding{}, err
		}
		if ok {
			f.NEO, f.GAS = neo.String(), gas.String()
			f.Seconds = time.Since(start).Seconds()
			return f, nil
		}
		if time.Now().After(deadline) {
			return Funding{}, fmt.Errorf("bench: sender not funded after %s (NEO %s, GAS %s)", timeout, neo, gas)
		}
		select {
		case <-ctx.Done():
			return Funding{}, ctx.Err()
		case <-time.After(time.Duration(info.MSPerBlock) * time.Millisecond / 4):
		}
	}
}
