package state

import (
	"math/big"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// TransactionToStackItem returns the stack item LedgerContract.getTransaction
// and System.Runtime.GetScriptContainer give for tx (C# Transaction.
// ToStackItem): Array [hash, version, nonce, sender, sysfee, netfee,
// validUntilBlock, script].
func TransactionToStackItem(tx *transaction.Transaction) stackitem.Item {
	h := tx.Hash()
	sender := tx.Sender()
	return stackitem.NewArray([]stackitem.Item{
		stackitem.NewByteString(h[:]),
		stackitem.NewInt(int64(tx.Version)),
		stackitem.NewInt(int64(tx.Nonce)),
		stackitem.NewByteString(sender[:]),
		stackitem.NewInt(tx.SystemFee),
		stackitem.NewInt(tx.NetworkFee),
		stackitem.NewInt(int64(tx.ValidUntilBlock)),
		stackitem.NewByteString(tx.Script),
	})
}

// BlockToStackItem returns the stack item LedgerContract.getBlock gives (C#
// TrimmedBlock.ToStackItem): Array [hash, version, prevHash, merkleRoot,
// timestamp, nonce, index, primaryIndex, nextConsensus, transaction count].
func BlockToStackItem(h *block.Header, txCount int) stackitem.Item {
	bh := h.Hash()
	prev, root, next := h.PrevHash, h.MerkleRoot, h.NextConsensus
	nonce := stackitem.NewBigInteger(newUint64(h.Nonce))
	return stackitem.NewArray([]stackitem.Item{
		stackitem.NewByteString(bh[:]),
		stackitem.NewInt(int64(h.Version)),
		stackitem.NewByteString(prev[:]),
		stackitem.NewByteString(root[:]),
		stackitem.NewBigInteger(newUint64(h.Timestamp)),
		nonce,
		stackitem.NewInt(int64(h.Index)),
		stackitem.NewInt(int64(h.PrimaryIndex)),
		stackitem.NewByteString(next[:]),
		stackitem.NewInt(int64(txCount)),
	})
}

// SignersToStackItem returns the stack item of transaction signers
// (LedgerContract.getTransactionSigners, System.Runtime.CurrentSigners):
// Array of Array [account, scopes, allowed contracts, allowed groups, rules].
func SignersToStackItem(signers []transaction.Signer) stackitem.Item {
	res := make([]stackitem.Item, len(signers))
	for i := range signers {
		s := &signers[i]
		contracts := make([]stackitem.Item, len(s.AllowedContracts))
		for j := range s.AllowedContracts {
			c := s.AllowedContracts[j]
			contracts[j] = stackitem.NewByteString(c[:])
		}
		groups := make([]stackitem.Item, len(s.AllowedGroups))
		for j, g := range s.AllowedGroups {
			groups[j] = stackitem.NewByteString(g.Bytes())
		}
		rules := make([]stackitem.Item, len(s.Rules))
		for j := range s.Rules {
			rules[j] = stackitem.NewArray([]stackitem.Item{
				stackitem.NewInt(int64(s.Rules[j].Action)),
				conditionToStackItem(&s.Rules[j].Condition),
			})
		}
		acc := s.Account
		res[i] = stackitem.NewArray([]stackitem.Item{
			stackitem.NewByteString(acc[:]),
			stackitem.NewInt(int64(s.Scopes)),
			stackitem.NewArray(contracts),
			stackitem.NewArray(groups),
			stackitem.NewArray(rules),
		})
	}
	return stackitem.NewArray(res)
}

// conditionToStackItem is C# WitnessCondition.ToStackItem: Array [type,
// operand...].
func conditionToStackItem(c *transaction.WitnessCondition) stackitem.Item {
	res := []stackitem.Item{stackitem.NewInt(int64(c.Type))}
	switch c.Type {
	case transaction.ConditionBoolean:
		res = append(res, stackitem.Bool(c.Bool))
	case transaction.ConditionNot:
		res = append(res, conditionToStackItem(&c.Sub[0]))
	case transaction.ConditionAnd, transaction.ConditionOr:
		ops := make([]stackitem.Item, len(c.Sub))
		for i := range c.Sub {
			ops[i] = conditionToStackItem(&c.Sub[i])
		}
		res = append(res, stackitem.NewArray(ops))
	case transaction.ConditionScriptHash, transaction.ConditionCalledByContract:
		h := c.Hash
		res = append(res, stackitem.NewByteString(h[:]))
	case transaction.ConditionGroup, transaction.ConditionCalledByGroup:
		res = append(res, stackitem.NewByteString(c.Group.Bytes()))
	}
	return stackitem.NewArray(res)
}

func newUint64(v uint64) *big.Int { return new(big.Int).SetUint64(v) }
