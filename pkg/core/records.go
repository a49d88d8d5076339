package core

import (
	"fmt"

	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transferlog"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// storeRecords writes the ledger records of j's block into j.rec as the
// execution results arrive: each transaction with its VM state, every
// result, the transfer logs of HALTed executions, then the block, its
// header hash and the current-block marker. The records reflect the state
// before the block (contract ids of transferred tokens are looked up there,
// as neo-go does).
func (bc *Blockchain) storeRecords(j *job, in <-chan *state.AppExecResult) error {
	var (
		d   = j.rec
		b   = j.blk
		tw  = transferlog.NewWriter(d.Store, b.Index, b.Timestamp)
		err error
		txi int
		n   int
	)
	for aer := range in {
		n++
		if err != nil {
			continue
		}
		if aer.Trigger == trigger.Application {
			if txi >= len(b.Transactions) {
				err = fmt.Errorf("block %d: more results than transactions", b.Index)
				continue
			}
			err = d.StoreAsTransaction(b.Transactions[txi], b.Index, aer.VMState)
			txi++
		}
		if err == nil {
			err = d.StoreAppExecResult(aer)
		}
		if err == nil && aer.VMState == vmstate.Halt {
			for i := range aer.Events {
				if err = bc.handleNotification(tw, d, &aer.Events[i], aer.Container); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		return err
	}
	if n != len(b.Transactions)+2 {
		return fmt.Errorf("block %d: execution stopped after %d results", b.Index, n)
	}
	if err := d.StoreAsBlock(b); err != nil {
		return err
	}
	d.PutHeaderHash(b.Index, b.Hash())
	d.StoreAsCurrentBlock(b.Hash(), b.Index)
	return tw.Flush()
}

// handleNotification records a NEP-17 or NEP-11 Transfer notification in
// the transfer logs (neo-go Blockchain.handleNotification and
// processTokenTransfer). Notifications of other shapes, or of contracts
// not deployed before the block, are ignored.
func (bc *Blockchain) handleNotification(tw *transferlog.Writer, d *dao.Simple, ev *state.NotificationEvent, container hash.Uint256) error {
	if ev.Name != "Transfer" || ev.Item == nil {
		return nil
	}
	args := ev.Item.Value().([]stackitem.Item)
	if len(args) != 3 && len(args) != 4 {
		return nil
	}
	from, ok := parseAddress(args[0])
	if !ok {
		return nil
	}
	to, ok := parseAddress(args[1])
	if !ok {
		return nil
	}
	amount, err := args[2].TryInteger()
	if err != nil {
		return nil
	}
	var id []byte
	nep11 := len(args) == 4
	if nep11 {
		id, err = args[3].TryBytes()
		if err != nil || len(id) > transferlog.MaxTokenIDLen {
			return nil
		}
	}
	var asset int32
	if c := bc.natives.ByHash(ev.ScriptHash); c != nil {
		asset = c.Metadata().ID
	} else {
		cs, err := bc.natives.Management.GetContract(d, ev.ScriptHash)
		if err != nil {
			return nil
		}
		asset = cs.ID
	}
	return tw.Add(asset, from, to, amount, id, nep11, container)
}

// parseAddress reads a Transfer address: Null (mint or burn) or 20 bytes.
func parseAddress(it stackitem.Item) (hash.Uint160, bool) {
	if _, ok := it.(stackitem.Null); ok {
		return hash.Uint160{}, true
	}
	b, err := it.TryBytes()
	if err != nil || len(b) != hash.Uint160Size {
		return hash.Uint160{}, false
	}
	return hash.Uint160(b), true
}
