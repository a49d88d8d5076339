package native_test

// Helpers shared by the tests of StdLib, CryptoLib, RoleManagement, Oracle,
// Notary and Treasury.

import (
	"math/big"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

// callScript returns a script calling method of native h with args.
func callScript(t testing.TB, h hash.Uint160, method string, args ...any) []byte {
	t.Helper()
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, h, method, callflag.All, args...)
	})
	require.NoError(t, err)
	return script
}

// invoke runs method of h with args against the chain's state (nothing is
// persisted) and returns the result item, or the fault message.
func invoke(t testing.TB, c *chaintest.Chain, h hash.Uint160, method string, args ...any) (stackitem.Item, string) {
	t.Helper()
	return invokeSigned(t, c, nil, h, method, args...)
}

func invokeSigned(t testing.TB, c *chaintest.Chain, signers []transaction.Signer, h hash.Uint160, method string, args ...any) (stackitem.Item, string) {
	t.Helper()
	aer, _ := c.TestInvoke(callScript(t, h, method, args...), 100_0000_0000, signers...)
	if aer.VMState != vmstate.Halt {
		require.NotEmpty(t, aer.FaultException)
		return nil, aer.FaultException
	}
	require.Len(t, aer.Stack, 1)
	return aer.Stack[0], ""
}

// mustInvoke is invoke that fails the test on a FAULT.
func mustInvoke(t testing.TB, c *chaintest.Chain, h hash.Uint160, method string, args ...any) stackitem.Item {
	t.Helper()
	it, fault := invoke(t, c, h, method, args...)
	require.Empty(t, fault, "%s: unexpected FAULT", method)
	return it
}

// mustFault is invoke that fails the test unless the call FAULTs; it returns
// the fault message.
func mustFault(t testing.TB, c *chaintest.Chain, h hash.Uint160, method string, args ...any) string {
	t.Helper()
	it, fault := invoke(t, c, h, method, args...)
	require.NotEmpty(t, fault, "%s: expected FAULT, got %v", method, it)
	return fault
}

func itemBytes(t testing.TB, it stackitem.Item) []byte {
	t.Helper()
	require.Equal(t, stackitem.ByteStringT, it.Type(), "%v", it)
	b, err := it.TryBytes()
	require.NoError(t, err)
	return b
}

func itemInt(t testing.TB, it stackitem.Item) *big.Int {
	t.Helper()
	require.Equal(t, stackitem.IntegerT, it.Type(), "%v", it)
	n, err := it.TryInteger()
	require.NoError(t, err)
	return n
}

func itemBool(t testing.TB, it stackitem.Item) bool {
	t.Helper()
	require.Equal(t, stackitem.BooleanT, it.Type(), "%v", it)
	b, err := it.TryBool()
	require.NoError(t, err)
	return b
}

// hfChain returns a chain with every hardfork up to last enabled from
// genesis (HFDefault: none).
func hfChain(t testing.TB, last config.Hardfork) *chaintest.Chain {
	if last == config.HFDefault {
		return chaintest.New(t, chaintest.Options{NoHardforks: true})
	}
	return chaintest.New(t, chaintest.Options{Hardforks: hfUpTo(last, 0)})
}

// methodSpec is a native method's price table entry (C# ContractMethod
// attributes).
type methodSpec struct {
	name   string
	params int
	fee    int64
	flags  callflag.CallFlag
	from   config.Hardfork
	till   config.Hardfork
}

// checkMethodSpecs compares a native's method table with the reference's
// prices, flags and hardforks.
func checkMethodSpecs(t *testing.T, c native.Contract, specs []methodSpec) {
	t.Helper()
	methods := c.Metadata().Methods()
	require.Len(t, methods, len(specs))
	for _, s := range specs {
		found := false
		for _, m := range methods {
			if m.Name != s.name || len(m.Params) != s.params || m.ActiveFrom != s.from || m.ActiveTill != s.till {
				continue
			}
			found = true
			require.Equal(t, s.fee, m.CPUFee, "%s/%d fee", s.name, s.params)
			require.Zero(t, m.StorageFee, "%s/%d storage fee", s.name, s.params)
			require.Equal(t, s.flags, m.RequiredFlags, "%s/%d flags", s.name, s.params)
		}
		require.True(t, found, "%s/%d [%s, %s) not found", s.name, s.params, s.from, s.till)
	}
}
