package native

import (
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

func syscallScript(name string) []byte {
	id := smartcontract.InteropID(name)
	return []byte{byte(opcode.SYSCALL), byte(id), byte(id >> 8), byte(id >> 16), byte(id >> 24)}
}

// The scripts of the persist triggers (C# NativeContract OnPersist and
// PostPersist scripts: one SYSCALL each).
var (
	onPersistScript   = syscallScript(interop.SystemContractNativeOnPersist)
	postPersistScript = syscallScript(interop.SystemContractNativePostPersist)
)

// OnPersistScript returns the script of the OnPersist trigger.
func OnPersistScript() []byte { return onPersistScript }

// PostPersistScript returns the script of the PostPersist trigger.
func PostPersistScript() []byte { return postPersistScript }

// RunPersist runs the OnPersist or PostPersist trigger of blk in a private
// layer of d, which it persists into d. v is reused if not nil. A FAULT is
// an error: the block cannot be accepted.
func (cs *Contracts) RunPersist(chain interop.Ledger, d *dao.Simple, blk *block.Block, trig trigger.Type, v *vm.VM) (*state.AppExecResult, *vm.VM, error) {
	script := onPersistScript
	if trig == trigger.PostPersist {
		script = postPersistScript
	}
	ic := cs.NewContext(trig, chain, d.GetPrivate(), blk, blk)
	if v == nil {
		v = ic.SpawnVM()
	} else {
		ic.InitVM(v)
	}
	aer := ic.Execute(blk.Hash(), script, callflag.All)
	if aer.VMState != vmstate.Halt {
		return nil, v, fmt.Errorf("%s failed: %s", trig, aer.FaultException)
	}
	if _, err := ic.DAO.Persist(); err != nil {
		return nil, v, fmt.Errorf("can't save %s changes: %w", trig, err)
	}
	return aer, v, nil
}

// RunTx runs transaction tx of blk in a private layer of d with tx's system
// fee as GAS limit, and persists the layer into d if the execution HALTs. v
// is reused if not nil.
func (cs *Contracts) RunTx(chain interop.Ledger, d *dao.Simple, blk *block.Block, tx *transaction.Transaction, v *vm.VM) (*state.AppExecResult, *vm.VM, error) {
	ic := cs.NewContext(trigger.Application, chain, d.GetPrivate(), blk, tx)
	if v == nil {
		v = ic.SpawnVM()
	} else {
		ic.InitVM(v)
	}
	v.SetGasLimit(tx.SystemFee)
	aer := ic.Execute(tx.Hash(), tx.Script, callflag.All)
	if aer.VMState == vmstate.Halt {
		if _, err := ic.DAO.Persist(); err != nil {
			return nil, v, fmt.Errorf("failed to persist invocation results: %w", err)
		}
	}
	return aer, v, nil
}

// ExecuteBlock runs a whole block in d: OnPersist, every transaction and
// PostPersist. It returns the execution results in that order. d should be
// a private layer for the block: its storage changes
// (d.Store.Changes([]byte{dao.STStorage})) are the block's state changes,
// and it holds no ledger records (see StoreBlock).
func (cs *Contracts) ExecuteBlock(chain interop.Ledger, d *dao.Simple, blk *block.Block) ([]*state.AppExecResult, error) {
	aers := make([]*state.AppExecResult, 0, len(blk.Transactions)+2)
	aer, v, err := cs.RunPersist(chain, d, blk, trigger.OnPersist, nil)
	if err != nil {
		return nil, err
	}
	aers = append(aers, aer)
	for _, tx := range blk.Transactions {
		if aer, v, err = cs.RunTx(chain, d, blk, tx, v); err != nil {
			return nil, err
		}
		aers = append(aers, aer)
	}
	if aer, _, err = cs.RunPersist(chain, d, blk, trigger.PostPersist, v); err != nil {
		return nil, err
	}
	return append(aers, aer), nil
}

// StoreBlock writes the ledger records of an executed block into d: the
// trimmed block, each transaction with its VM state, the execution results,
// the header hash and the current block. aers are ExecuteBlock's results.
func StoreBlock(d *dao.Simple, blk *block.Block, aers []*state.AppExecResult) error {
	if len(aers) != len(blk.Transactions)+2 {
		return fmt.Errorf("%d execution results for a block with %d transactions", len(aers), len(blk.Transactions))
	}
	if err := d.StoreAsBlock(blk); err != nil {
		return err
	}
	for i, tx := range blk.Transactions {
		if err := d.StoreAsTransaction(tx, blk.Index, aers[i+1].VMState); err != nil {
			return err
		}
	}
	for _, aer := range aers {
		if err := d.StoreAppExecResult(aer); err != nil {
			return err
		}
	}
	d.PutHeaderHash(blk.Index, blk.Hash())
	d.StoreAsCurrentBlock(blk.Hash(), blk.Index)
	return nil
}

// VerifyWitness checks witness w of account h for container c against the
// state in d, for the block after the chain's height (or blk if given), and
// returns the GAS consumed (see interop.VerifyWitness).
func (cs *Contracts) VerifyWitness(chain interop.Ledger, d *dao.Simple, blk *block.Block, c interop.Container,
	h hash.Uint160, w *transaction.Witness, gas int64) (int64, error) {
	ic := cs.NewContext(trigger.Verification, chain, d, blk, c)
	return interop.VerifyWitness(ic, h, w, gas)
}
