package testchain

import (
	"testing"

	nio "github.com/n3node/n3node/pkg/io"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// RunAs runs script in a new block as a transaction of k's standard
// account (which pays) and requires it to HALT.
func (c *Chain) RunAs(k *keys.PrivateKey, script []byte, sysFee int64) *state.AppExecResult {
	c.T.Helper()
	tx := c.NewTx(script, sysFee, 1000_0000, transaction.Signer{Account: k.ScriptHash(), Scopes: transaction.CalledByEntry})
	tx.Witnesses = []transaction.Witness{SigWitness(tx, k)}
	c.AddBlock(tx)
	aer := c.AppLog(tx.Hash())
	if aer.VMState != vmstate.Halt {
		c.T.Fatalf("tx faulted: %s", aer.FaultException)
	}
	return aer
}

// RunCommittee runs script in a new block as a committee transaction and
// requires it to HALT.
func (c *Chain) RunCommittee(script []byte, sysFee int64) *state.AppExecResult {
	c.T.Helper()
	tx := c.SignCommittee(c.NewTx(script, sysFee, 1000_0000,
		transaction.Signer{Account: c.Account(), Scopes: transaction.CalledByEntry}))
	c.AddBlock(tx)
	aer := c.AppLog(tx.Hash())
	if aer.VMState != vmstate.Halt {
		c.T.Fatalf("committee tx faulted: %s", aer.FaultException)
	}
	return aer
}

// AppLog returns the application execution result of a transaction.
func (c *Chain) AppLog(h hash.Uint256) *state.AppExecResult {
	c.T.Helper()
	aers, err := c.BC.GetAppExecResults(h, trigger.Application)
	if err != nil || len(aers) == 0 {
		c.T.Fatalf("no application log for %s: %v", h.StringLE(), err)
	}
	return &aers[0]
}

// Designate designates pubs for role (from the next block on).
func (c *Chain) Designate(role noderoles.Role, pubs []*keys.PublicKey) {
	c.T.Helper()
	args := make([]any, len(pubs))
	for i, p := range pubs {
		args[i] = p.Bytes()
	}
	c.RunCommittee(chaintest.CallScript(nativenames.DesignationHash, "designateAsRole", int64(role), args), 1_0000_0000)
}

// Deploy deploys the contract of b from the committee.
func (c *Chain) Deploy(b *chaintest.ContractBuilder) *state.Contract {
	c.T.Helper()
	f, m := b.Build()
	c.RunCommittee(chaintest.DeployScript(f, m), 50_0000_0000)
	cs := c.BC.GetContractState(smartcontract.GetContractHash(c.Account(), f.Checksum, b.Manifest.Name))
	if cs == nil {
		c.T.Fatal("deployed contract not found")
	}
	return cs
}

// TransferGAS sends amount GAS from the committee to to, with data.
func (c *Chain) TransferGAS(to hash.Uint160, amount int64, data any) {
	c.T.Helper()
	c.RunCommittee(chaintest.CallScript(nativenames.GasHash, "transfer", c.Account(), to, amount, data), 1_0000_0000)
}

// Keys returns n deterministic private keys derived from seed.
func Keys(t testing.TB, seed byte, n int) []*keys.PrivateKey {
	res := make([]*keys.PrivateKey, n)
	for i := range res {
		b := make([]byte, 32)
		b[0], b[30], b[31] = 1, seed, byte(i+1)
		k, err := keys.NewPrivateKeyFromBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = k
	}
	return res
}

// Pubs returns the public keys of ks, sorted as RoleManagement stores
// them.
func Pubs(ks []*keys.PrivateKey) []*keys.PublicKey {
	res := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		res[i] = k.PublicKey()
	}
	keys.SortPublicKeys(res)
	return res
}

// DeployStorage deploys the storage contract (methods put(key, value) and
// delete(key)) in a new block and returns its hash.
func (c *Chain) DeployStorage() hash.Uint160 {
	cb := chaintest.NewContractBuilder("storage")
	bs := chaintest.Param("key", smartcontract.ByteArrayType)
	cb.Method("put", []manifest.Parameter{bs, chaintest.Param("value", smartcontract.ByteArrayType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG1, opcode.LDARG0)
		emit.Syscall(w, "System.Storage.GetContext")
		emit.Syscall(w, "System.Storage.Put")
	})
	cb.Method("delete", []manifest.Parameter{bs}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG0)
		emit.Syscall(w, "System.Storage.GetContext")
		emit.Syscall(w, "System.Storage.Delete")
	})
	f, m := cb.Build()
	c.AddBlock(c.Tx(chaintest.DeployScript(f, m)))
	return smartcontract.GetContractHash(c.Account(), f.Checksum, "storage")
}

// PutScript returns a script calling put(key, value) of contract h for
// each pair (keys[i], values[i]); a nil value calls delete instead.
func PutScript(h hash.Uint160, ks, vs [][]byte) []byte {
	s, err := emit.Script(func(w *nio.BinWriter) {
		for i := range ks {
			if vs[i] == nil {
				emit.AppCall(w, h, "delete", callflag.All, ks[i])
			} else {
				emit.AppCall(w, h, "put", callflag.All, ks[i], vs[i])
			}
		}
	})
	if err != nil {
		panic(err)
	}
	return s
}
