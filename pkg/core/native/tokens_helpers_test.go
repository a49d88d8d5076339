package native_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"os"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

var (
	neoHash = nativenames.NeoHash
	gasHash = nativenames.GasHash
)

// testKey returns a deterministic private key.
func testKey(t testing.TB, name string) *keys.PrivateKey {
	d := sha256.Sum256([]byte("n3node neogas test " + name))
	k, err := keys.NewPrivateKeyFromHex(hex.EncodeToString(d[:]))
	require.NoError(t, err)
	return k
}

func testKeys(t testing.TB, prefix string, n int) []*keys.PrivateKey {
	res := make([]*keys.PrivateKey, n)
	for i := range res {
		res[i] = testKey(t, fmt.Sprintf("%s%d", prefix, i))
	}
	return res
}

// tokenChain is a chaintest chain with helpers for NEO and GAS tests.
type tokenChain struct {
	*chaintest.Chain
	t testing.TB
	// bft is the standby validators' account that holds the initial NEO and
	// GAS (for one validator, the committee account too).
	bft hash.Uint160
}

func newTokenChain(t testing.TB, opts ...chaintest.Options) *tokenChain {
	c := chaintest.New(t, opts...)
	n := c.Cfg.GetNumOfCNs(0)
	pubs := make([]*keys.PublicKey, n)
	for i := range pubs {
		pubs[i] = c.Committee[i].PublicKey()
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
	require.NoError(t, err)
	return &tokenChain{Chain: c, t: t, bft: hash.Hash160(script)}
}

// multiNodeOptions is a chain of 7 committee members and 4 validators, as
// neo-go's neotest multi-node chain, with the given hardforks.
func multiNodeOptions(t testing.TB, hfs map[string]uint32) chaintest.Options {
	return chaintest.Options{Committee: testKeys(t, "committee", 7), ValidatorsCount: 4, Hardforks: hfs}
}

func signer(h hash.Uint160) transaction.Signer {
	return transaction.Signer{Account: h, Scopes: transaction.CalledByEntry}
}

func (c *tokenChain) bftSigner() transaction.Signer { return signer(c.bft) }

func appCall(t testing.TB, h hash.Uint160, method string, args ...any) []byte {
	s, err := emit.Script(func(w *nio.BinWriter) { emit.AppCall(w, h, method, callflag.All, args...) })
	require.NoError(t, err)
	return s
}

func script(t testing.TB, f func(w *nio.BinWriter)) []byte {
	s, err := emit.Script(f)
	require.NoError(t, err)
	return s
}

// call runs one method call as a transaction and returns its result.
func (c *tokenChain) call(signers []transaction.Signer, h hash.Uint160, method string, args ...any) *state.AppExecResult {
	c.t.Helper()
	return c.callFee(chaintest.DefaultSystemFee, signers, h, method, args...)
}

// registrationFee is a system fee that covers registerCandidate.
const registrationFee = 1100_0000_0000

// callFee is call with the given system fee.
func (c *tokenChain) callFee(fee int64, signers []transaction.Signer, h hash.Uint160, method string, args ...any) *state.AppExecResult {
	c.t.Helper()
	tx := c.NewTx(appCall(c.t, h, method, args...), signers...)
	tx.SystemFee = fee
	return c.AddBlock(tx)[0]
}

// register registers k as a candidate (its account pays 1100 GAS).
func (c *tokenChain) register(k *keys.PrivateKey) *state.AppExecResult {
	c.t.Helper()
	aer := c.callFee(registrationFee, []transaction.Signer{signer(k.ScriptHash())}, neoHash, "registerCandidate", k.PublicKey().Bytes())
	require.Equal(c.t, vmstate.Halt, aer.VMState, aer.FaultException)
	require.Equal(c.t, stackitem.Bool(true), aer.Stack[0])
	return aer
}

// requireItem compares stack items by value (their JSON with types).
func requireItem(t testing.TB, want, got stackitem.Item, msgAndArgs ...any) {
	t.Helper()
	wj, err := stackitem.ToJSONWithTypes(want, 1<<20)
	require.NoError(t, err)
	gj, err := stackitem.ToJSONWithTypes(got, 1<<20)
	require.NoError(t, err)
	require.JSONEq(t, string(wj), string(gj), msgAndArgs...)
}

// invoke runs a call that must HALT with one result item and returns it.
func (c *tokenChain) invoke(signers []transaction.Signer, h hash.Uint160, method string, args ...any) stackitem.Item {
	c.t.Helper()
	aer := c.call(signers, h, method, args...)
	require.Equal(c.t, vmstate.Halt, aer.VMState, "%s: %s", method, aer.FaultException)
	require.Len(c.t, aer.Stack, 1)
	return aer.Stack[0]
}

// fault runs a call that must FAULT with a message containing msg.
func (c *tokenChain) fault(msg string, signers []transaction.Signer, h hash.Uint160, method string, args ...any) *state.AppExecResult {
	c.t.Helper()
	aer := c.call(signers, h, method, args...)
	require.Equal(c.t, vmstate.Fault, aer.VMState, method)
	require.Contains(c.t, aer.FaultException, msg)
	return aer
}

// read runs a read-only call against the current state (not persisted).
func (c *tokenChain) read(h hash.Uint160, method string, args ...any) stackitem.Item {
	c.t.Helper()
	aer, _ := c.TestInvoke(appCall(c.t, h, method, args...), 100_0000_0000, c.bftSigner())
	require.Equal(c.t, vmstate.Halt, aer.VMState, "%s: %s", method, aer.FaultException)
	require.Len(c.t, aer.Stack, 1)
	return aer.Stack[0]
}

func (c *tokenChain) readInt(h hash.Uint160, method string, args ...any) *big.Int {
	c.t.Helper()
	n, err := c.read(h, method, args...).TryInteger()
	require.NoError(c.t, err)
	return n
}

func (c *tokenChain) gasBalance(h hash.Uint160) *big.Int {
	b, err := c.Natives.GAS.BalanceOf(c.DAO, h)
	require.NoError(c.t, err)
	return b
}

func (c *tokenChain) neoBalance(h hash.Uint160) *big.Int {
	b, _, err := c.Natives.NEO.BalanceOf(c.DAO, h)
	require.NoError(c.t, err)
	return b
}

// fund sends NEO and GAS from the BFT account to accounts, in one block.
func (c *tokenChain) fund(neo, gas int64, accs ...hash.Uint160) {
	c.t.Helper()
	s := script(c.t, func(w *nio.BinWriter) {
		for _, a := range accs {
			if neo > 0 {
				emit.AppCall(w, neoHash, "transfer", callflag.All, c.bft, a, neo, nil)
				emit.Opcodes(w, 0x39) // ASSERT
			}
			if gas > 0 {
				emit.AppCall(w, gasHash, "transfer", callflag.All, c.bft, a, gas, nil)
				emit.Opcodes(w, 0x39)
			}
		}
	})
	c.RunOK(s, c.bftSigner())
}

// event returns notification i of aer as (contract, name, items).
func event(t testing.TB, aer *state.AppExecResult, i int) (hash.Uint160, string, []stackitem.Item) {
	require.Greater(t, len(aer.Events), i, "notification %d", i)
	e := aer.Events[i]
	return e.ScriptHash, e.Name, e.Item.Items()
}

func requireEvent(t testing.TB, aer *state.AppExecResult, i int, h hash.Uint160, name string, items ...stackitem.Item) {
	t.Helper()
	gh, gn, gi := event(t, aer, i)
	require.Equal(t, h, gh, "contract of notification %d", i)
	require.Equal(t, name, gn, "name of notification %d", i)
	requireItem(t, stackitem.NewArray(items), stackitem.NewArray(gi), "%s notification %d", name, i)
}

func hashItem(h hash.Uint160) stackitem.Item { return stackitem.NewByteString(h[:]) }

func intItem(n int64) stackitem.Item { return stackitem.NewInt(n) }

func bigItem(n *big.Int) stackitem.Item { return stackitem.NewBigInteger(n) }

// deployRefChain deploys the reference chain's RefChain contract (its
// onNEP17Payment sends a Payment(from, amount) notification) from sender.
func (c *tokenChain) deployRefChain(sender hash.Uint160) hash.Uint160 {
	c.t.Helper()
	nefB, err := os.ReadFile("../../../testdata/refchain/contracts/refchain.nef")
	require.NoError(c.t, err)
	man, err := os.ReadFile("../../../testdata/refchain/contracts/refchain.manifest.json")
	require.NoError(c.t, err)
	aer := c.RunOK(appCall(c.t, nativenames.ManagementHash, "deploy", nefB, man, []byte("data")), signer(sender))
	for _, e := range aer.Events {
		if e.Name == "Deploy" {
			b, err := e.Item.Items()[0].TryBytes()
			require.NoError(c.t, err)
			return hash.Uint160(b)
		}
	}
	c.t.Fatal("no Deploy notification")
	return hash.Uint160{}
}
