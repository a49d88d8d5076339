package native

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// GASFactor is the number of datoshi in one GAS (10^decimals).
const GASFactor = 1_0000_0000

// GAS is the GasToken native contract (C# GasToken): a NEP-17 token with 8
// decimals. At genesis it mints the configured InitialGASSupply to the
// standby validators' BFT account; in every block's OnPersist it burns each
// transaction's system and network fees from its sender and mints the
// network fees (less NotaryAssisted attribute fees, which the Notary
// contract pays out) to the block's primary validator.
type GAS struct {
	nep17
}

func newGAS(cs *Contracts) Contract {
	g := &GAS{nep17: nep17{contractBase: newBase(nativenames.Gas, config.HFDefault, cs), symbol: "GAS", decimals: 8}}
	g.addMethods(nil)
	cs.GAS = g
	return g
}

// gasChangeBalance is GAS's balance change (neo-go GAS.increaseBalance); the
// result may alias buf.
func gasChangeBalance(si []byte, amount, required *big.Int, buf []byte) ([]byte, error) {
	var acc state.NEP17Balance
	if err := state.DecodeNEP17Balance(si, &acc); err != nil {
		return nil, err
	}
	switch amount.Sign() {
	case 0:
		// A transfer to self may ask for more than the balance.
		if required != nil && acc.Balance.Cmp(required) < 0 {
			return nil, errInsufficientFunds
		}
		return si, nil
	case -1:
		if acc.Balance.CmpAbs(amount) < 0 {
			return nil, errInsufficientFunds
		}
	}
	acc.Balance.Add(&acc.Balance, amount)
	if acc.Balance.Sign() == 0 {
		return nil, nil
	}
	return acc.Bytes(buf), nil
}

// standbyValidatorsAddress is the BFT account of the standby validators
// (C# Contract.GetBFTAddress(StandbyValidators)), which receives the
// initial NEO and GAS.
func standbyValidatorsAddress(cfg *config.Blockchain) (hash.Uint160, error) {
	pks, err := cfg.StandbyValidatorKeys()
	if err != nil {
		return hash.Uint160{}, err
	}
	vals := make([]*keys.PublicKey, len(pks))
	for i, pk := range pks {
		if vals[i], err = keys.NewPublicKeyFromBytes(pk.Bytes()); err != nil {
			return hash.Uint160{}, err
		}
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(vals)
	if err != nil {
		return hash.Uint160{}, err
	}
	return hash.Hash160(script), nil
}

// Initialize implements Contract: the initial distribution.
func (g *GAS) Initialize(ic *interop.Context, hf config.Hardfork, _ *HFContractMD) error {
	if hf != g.md.ActiveIn {
		return nil
	}
	if g.TotalSupply(ic.DAO).Sign() != 0 {
		return errors.New("already initialized")
	}
	h, err := standbyValidatorsAddress(ic.Config)
	if err != nil {
		return err
	}
	return g.mint(ic, h, big.NewInt(int64(ic.Config.InitialGASSupply)), false, noop)
}

// OnPersist implements Contract: fees are burnt from the senders and the
// network fees minted to the primary validator.
//
// The burns are those of C# (one Transfer to null per transaction, in
// order, failing the block if a sender cannot pay), but the balances and
// the total supply are read and written once per block, not once per
// transaction: the final state is the same.
func (g *GAS) OnPersist(ic *interop.Context) error {
	txs := ic.Block.Transactions
	if len(txs) == 0 {
		return nil
	}
	type payer struct {
		balance big.Int
		item    stackitem.Item // the sender's address, shared by its notifications
		paid    bool
	}
	var (
		netFee int64
		fee    big.Int
		burnt  big.Int
		payers = make(map[hash.Uint160]*payer, min(len(txs), 1024))
		order  []hash.Uint160
	)
	for _, tx := range txs {
		sender := tx.Sender()
		p, ok := payers[sender]
		if !ok {
			var acc state.NEP17Balance
			if err := state.DecodeNEP17Balance(ic.DAO.GetStorageItem(g.md.ID, accountKey(sender)), &acc); err != nil {
				return err
			}
			p = &payer{item: HashItem(sender)}
			p.balance.Set(&acc.Balance)
			payers[sender] = p
			order = append(order, sender)
		}
		fee.SetInt64(tx.SystemFee + tx.NetworkFee)
		if fee.Sign() != 0 {
			if p.balance.Cmp(&fee) < 0 {
				return fmt.Errorf("burning fees of %s: %w", tx.Hash().StringLE(), errInsufficientFunds)
			}
			p.balance.Sub(&p.balance, &fee)
			p.paid = true
			burnt.Add(&burnt, &fee)
			if err := ic.AddNotification(g.md.Hash, "Transfer", stackitem.NewArray([]stackitem.Item{
				p.item, stackitem.Null{}, stackitem.NewInt(tx.SystemFee + tx.NetworkFee),
			})); err != nil {
				return err
			}
		}
		netFee += tx.NetworkFee
		// The NotaryAssisted attribute fee goes to the notary nodes (the
		// Notary contract mints it).
		if attrs := tx.GetAttributes(transaction.NotaryAssistedT); len(attrs) != 0 {
			if na, ok := attrs[0].Value.(*transaction.NotaryAssisted); ok {
				netFee -= (int64(na.NKeys) + 1) * g.cs.Policy.AttributeFee(ic.DAO, transaction.NotaryAssistedT)
			}
		}
	}
	var buf [scratchSize]byte
	for _, h := range order {
		p := payers[h]
		if !p.paid {
			continue
		}
		key := accountKey(h)
		if p.balance.Sign() == 0 {
			ic.DAO.DeleteStorageItem(g.md.ID, key)
			continue
		}
		acc := state.NEP17Balance{Balance: p.balance}
		ic.DAO.PutStorageItem(g.md.ID, key, acc.Bytes(buf[:0]))
	}
	g.addSupply(ic.DAO, burnt.Neg(&burnt))
	vals := g.cs.NEO.NextBlockValidators(ic.DAO)
	if int(ic.Block.PrimaryIndex) >= len(vals) {
		return fmt.Errorf("primary index %d out of %d validators", ic.Block.PrimaryIndex, len(vals))
	}
	return g.mint(ic, vals[ic.Block.PrimaryIndex].ScriptHash(), big.NewInt(netFee), false, noop)
}

// BalanceOf returns the GAS balance of h.
func (g *GAS) BalanceOf(d *dao.Simple, h hash.Uint160) (*big.Int, error) { return g.balanceOf(d, h) }

// Mint creates amount GAS for h for another native contract (Oracle,
// Notary rewards): a Transfer from null and, if callOnPayment, the
// onNEP17Payment call of a contract h. then runs after it (at once or when
// the call returns); Mint runs it itself.
func (g *GAS) Mint(ic *interop.Context, h hash.Uint160, amount *big.Int, callOnPayment bool, then func() error) error {
	if amount.Sign() < 0 {
		return errors.New("negative amount")
	}
	return g.mint(ic, h, amount, callOnPayment, then)
}

// Burn destroys amount GAS of h for another native contract (Notary
// deposits, NEO registration fees); it fails if h has less.
func (g *GAS) Burn(ic *interop.Context, h hash.Uint160, amount *big.Int) error {
	if amount.Sign() < 0 {
		return errors.New("negative amount")
	}
	return g.burn(ic, h, amount)
}

// mintAll mints the GAS distributions one after another, then runs then.
func (g *GAS) mintAll(ic *interop.Context, dists []gasDistribution, callOnPayment bool, then func() error) error {
	if len(dists) == 0 {
		return then()
	}
	return g.mint(ic, dists[0].to, dists[0].amount, callOnPayment, func() error {
		return g.mintAll(ic, dists[1:], callOnPayment, then)
	})
}
