package native_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

var roleHash = nativenames.DesignationHash

// seedKey returns a deterministic private key for seed.
func seedKey(t testing.TB, seed string) *keys.PrivateKey {
	t.Helper()
	sum := sha256.Sum256([]byte(seed))
	k, err := keys.NewPrivateKeyFromBytes(sum[:])
	require.NoError(t, err)
	return k
}

func seedPubs(t testing.TB, seed string, n int) []*keys.PublicKey {
	res := make([]*keys.PublicKey, n)
	for i := range res {
		res[i] = seedKey(t, fmt.Sprintf("%s %d", seed, i)).PublicKey()
	}
	return res
}

func pubsArg(pubs []*keys.PublicKey) []any {
	res := make([]any, len(pubs))
	for i, p := range pubs {
		res[i] = p.Bytes()
	}
	return res
}

func sortedKeys(pubs []*keys.PublicKey) []*keys.PublicKey {
	s := slices.Clone(pubs)
	keys.SortPublicKeys(s)
	return s
}

// pubsOf converts a getDesignatedByRole result.
func pubsOf(t testing.TB, it stackitem.Item) [][]byte {
	t.Helper()
	arr, ok := it.(*stackitem.Array)
	require.True(t, ok, "%v", it)
	res := [][]byte{}
	for _, e := range arr.Items() {
		res = append(res, itemBytes(t, e))
	}
	return res
}

func pubBytes(pubs []*keys.PublicKey) [][]byte {
	res := [][]byte{}
	for _, p := range pubs {
		res = append(res, p.Bytes())
	}
	return res
}

func designatedAt(t testing.TB, c *chaintest.Chain, role noderoles.Role, index uint32) [][]byte {
	t.Helper()
	return pubsOf(t, mustInvoke(t, c, roleHash, "getDesignatedByRole", int64(role), int64(index)))
}

func TestRoleManagementMethods(t *testing.T) {
	c := chaintest.New(t)
	d := config.HFDefault
	checkMethodSpecs(t, c.Natives.ByID(nativenames.DesignationID), []methodSpec{
		{"getDesignatedByRole", 2, 1 << 15, callflag.ReadStates, d, d},
		{"designateAsRole", 2, 1 << 15, callflag.States | callflag.AllowNotify, d, d},
	})
}

// TestRoleManagementSetAndGet follows C# UT_RoleManagement.TestSetAndGet
// for every role.
func TestRoleManagementSetAndGet(t *testing.T) {
	for _, role := range noderoles.All {
		t.Run(role.String(), func(t *testing.T) {
			c := chaintest.New(t)
			pubs := sortedKeys(seedPubs(t, "set and get "+role.String(), 2))
			// Cannot be empty, cannot contain duplicates.
			require.Equal(t, vmstate.Fault, c.Run(callScript(t, roleHash, "designateAsRole", int64(role), []any{})).VMState)
			aer := c.Run(callScript(t, roleHash, "designateAsRole", int64(role), pubsArg([]*keys.PublicKey{pubs[0], pubs[0]})))
			require.Equal(t, vmstate.Fault, aer.VMState)
			require.Contains(t, aer.FaultException, "duplicate")
			// Designate, then again in the same block: the second fails.
			script := callScript(t, roleHash, "designateAsRole", int64(role), pubsArg(pubs))
			aers := c.AddBlock(c.NewTx(script), c.NewTx(script))
			require.Equal(t, vmstate.Halt, aers[0].VMState, aers[0].FaultException)
			require.Len(t, aers[0].Events, 1)
			require.Equal(t, native.DesignationEvent, aers[0].Events[0].Name)
			require.Equal(t, roleHash, aers[0].Events[0].ScriptHash)
			require.Equal(t, vmstate.Fault, aers[1].VMState)
			require.Contains(t, aers[1].FaultException, "already designated")

			h := c.BlockHeight()
			require.Equal(t, pubBytes(pubs), designatedAt(t, c, role, h+1))
			require.Equal(t, [][]byte{}, designatedAt(t, c, role, 0))
			require.Equal(t, [][]byte{}, designatedAt(t, c, role, h))
			// The next block may be asked for, not the one after.
			require.Equal(t, pubBytes(pubs), designatedAt(t, c, role, h+1))
			mustFault(t, c, roleHash, "getDesignatedByRole", int64(role), int64(h+2))
		})
	}
}

func TestRoleManagementArguments(t *testing.T) {
	c := chaintest.New(t)
	pubs := seedPubs(t, "args", 1)
	// Invalid roles (neo-go 0xFF), indexes out of range (neo-go 100500).
	// The FAULT texts are neo-go's bare ones; the role is checked first.
	for _, role := range []any{0xff, 0, 5, 64, 256, -1, "x"} {
		require.Contains(t, mustFault(t, c, roleHash, "getDesignatedByRole", role, 100500), "): invalid role")
		require.Contains(t, mustFault(t, c, roleHash, "designateAsRole", role, []any{}), "): invalid role")
	}
	for _, index := range []any{100500, -1, int64(1) << 32} {
		require.Contains(t, mustFault(t, c, roleHash, "getDesignatedByRole", int64(noderoles.Oracle), index), "): invalid index")
	}
	require.Contains(t, mustFault(t, c, roleHash, "designateAsRole", int64(noderoles.Oracle), []any{}), "node list is empty")
	require.Contains(t, mustFault(t, c, roleHash, "designateAsRole", int64(noderoles.Oracle), 1), "not an array")
	// Node lists: not an array, a Null element, a bad key, more than 32.
	oracle := int64(noderoles.Oracle)
	for _, nodes := range []any{nil, 1, pubs[0].Bytes(), []any{nil}, []any{[]byte{2, 1}}, []any{make([]byte, 33)},
		pubsArg(seedPubs(t, "many", native.MaxDesignatedNodes+1))} {
		mustFault(t, c, roleHash, "designateAsRole", oracle, nodes)
	}
	// Not the committee.
	_, fault := invokeSigned(t, c, []transaction.Signer{chaintest.AccountSigner(seedKey(t, "stranger"))}, roleHash,
		"designateAsRole", oracle, pubsArg(pubs))
	require.Contains(t, fault, "witness check failed")
	// 32 keys are fine; uncompressed keys are stored compressed.
	many := seedPubs(t, "many", native.MaxDesignatedNodes)
	c.RunOK(callScript(t, roleHash, "designateAsRole", oracle, pubsArg(many)))
	require.Equal(t, pubBytes(sortedKeys(many)), designatedAt(t, c, noderoles.Oracle, c.BlockHeight()+1))
	c.RunOK(callScript(t, roleHash, "designateAsRole", int64(noderoles.StateValidator), []any{pubs[0].UncompressedBytes()}))
	require.Equal(t, pubBytes(pubs), designatedAt(t, c, noderoles.StateValidator, c.BlockHeight()+1))
	// Compressed and uncompressed forms of one key are duplicates.
	aer := c.Run(callScript(t, roleHash, "designateAsRole", oracle, []any{pubs[0].Bytes(), pubs[0].UncompressedBytes()}))
	require.Equal(t, vmstate.Fault, aer.VMState)
}

// TestRoleManagementEvents: Designation is [role, block] before Echidna and
// [role, block, old, new] from Echidna (neo-go
// TestDesignate_DesignateAsRole_Echidna), new sorted as stored (neo-go,
// followed; C# lists them in the order given).
func TestRoleManagementEvents(t *testing.T) {
	c := chaintest.New(t, chaintest.Options{Hardforks: map[string]uint32{"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 0, "Domovoi": 0, "Echidna": 3}})
	oracle := int64(noderoles.Oracle)
	first := seedPubs(t, "events first", 1)
	aer := c.RunOK(callScript(t, roleHash, "designateAsRole", oracle, pubsArg(first))) // block 1
	require.Equal(t, stackitem.NewArray([]stackitem.Item{stackitem.NewInt(oracle), stackitem.NewInt(1)}), aer.Events[0].Item)
	c.AddBlock() // block 2

	second := seedPubs(t, "events second", 3)
	slices.SortFunc(second, func(a, b *keys.PublicKey) int { return -a.Cmp(b) })       // descending
	aer = c.RunOK(callScript(t, roleHash, "designateAsRole", oracle, pubsArg(second))) // block 3, Echidna
	want := stackitem.NewArray([]stackitem.Item{stackitem.NewInt(oracle), stackitem.NewInt(3),
		stackitem.NewArray([]stackitem.Item{stackitem.NewByteString(first[0].Bytes())}),
		stackitem.NewArray([]stackitem.Item{stackitem.NewByteString(second[2].Bytes()),
			stackitem.NewByteString(second[1].Bytes()), stackitem.NewByteString(second[0].Bytes())}),
	})
	require.Equal(t, want, aer.Events[0].Item)
	require.Equal(t, pubBytes(sortedKeys(second)), designatedAt(t, c, noderoles.Oracle, 4))
	require.Equal(t, pubBytes(first), designatedAt(t, c, noderoles.Oracle, 3))
	require.Equal(t, pubBytes(first), designatedAt(t, c, noderoles.Oracle, 2))
	require.Equal(t, [][]byte{}, designatedAt(t, c, noderoles.Oracle, 1))
	// A first designation of a role has no old keys.
	aer = c.RunOK(callScript(t, roleHash, "designateAsRole", int64(noderoles.P2PNotary), pubsArg(first)))
	require.Zero(t, aer.Events[0].Item.Get(2).(*stackitem.Array).Len())
}

// TestRoleManagementHistory checks lookups at every height across several
// designations (the cache holds the latest, older ones come from storage)
// and after a cache rebuild.
func TestRoleManagementHistory(t *testing.T) {
	c := chaintest.New(t)
	r := c.Natives.RoleManagement()
	var (
		sets    [][]*keys.PublicKey
		indexes []uint32
	)
	for i := range 4 {
		pubs := sortedKeys(seedPubs(t, fmt.Sprintf("history %d", i), i+1))
		c.RunOK(callScript(t, roleHash, "designateAsRole", int64(noderoles.StateValidator), pubsArg(pubs)))
		sets = append(sets, pubs)
		indexes = append(indexes, c.BlockHeight()+1)
		c.AddBlock()
	}
	check := func(t *testing.T) {
		for h := uint32(0); h <= c.BlockHeight()+1; h++ {
			want := []*keys.PublicKey{}
			wantIndex := uint32(0)
			for i, idx := range indexes {
				if idx <= h {
					want, wantIndex = sets[i], idx
				}
			}
			got, idx, err := r.GetDesignatedByRole(c.DAO, noderoles.StateValidator, h)
			require.NoError(t, err)
			require.Equal(t, pubBytes(want), pubBytes(got), "height %d", h)
			require.Equal(t, wantIndex, idx)
			require.Equal(t, pubBytes(want), designatedAt(t, c, noderoles.StateValidator, h))
		}
		addr, err := r.DesignatedAddress(c.DAO, noderoles.StateValidator)
		require.NoError(t, err)
		require.NotZero(t, addr)
		addr, err = r.DesignatedAddress(c.DAO, noderoles.P2PNotary)
		require.NoError(t, err)
		require.Zero(t, addr)
	}
	check(t)
	// After a restart.
	require.NoError(t, c.Natives.InitializeCache(c.DAO, c.BlockHeight()))
	t.Run("rebuilt cache", check)
	_, _, err := r.GetDesignatedByRole(c.DAO, 5, 0)
	require.ErrorIs(t, err, native.ErrInvalidRole)
}

// TestRoleManagementCallback: OnRolesChanged runs in the PostPersist of a
// block that designated keys, not for a FAULTed designation (neo-go
// TestDesignate_Cache).
func TestRoleManagementCallback(t *testing.T) {
	c := chaintest.New(t)
	type change struct {
		role  noderoles.Role
		index uint32
		keys  [][]byte
	}
	var changes []change
	c.Natives.RoleManagement().OnRolesChanged = func(r noderoles.Role, index uint32, nodes []*keys.PublicKey) {
		changes = append(changes, change{r, index, pubBytes(nodes)})
	}
	good := seedPubs(t, "callback good", 1)
	c.RunOK(callScript(t, roleHash, "designateAsRole", int64(noderoles.Oracle), pubsArg(good)))
	require.Equal(t, []change{{noderoles.Oracle, c.BlockHeight() + 1, pubBytes(good)}}, changes)
	changes = nil
	c.AddBlock()
	require.Nil(t, changes)

	bad := seedPubs(t, "callback bad", 1)
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, roleHash, "designateAsRole", callflag.All, int64(noderoles.Oracle), pubsArg(bad))
		emit.Opcodes(w, opcode.ABORT)
	})
	require.NoError(t, err)
	require.Equal(t, vmstate.Fault, c.Run(script).VMState)
	require.Nil(t, changes)
	require.Equal(t, pubBytes(good), designatedAt(t, c, noderoles.Oracle, c.BlockHeight()+1))

	// Two roles in one block.
	both, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, roleHash, "designateAsRole", callflag.All, int64(noderoles.P2PNotary), pubsArg(bad))
		emit.AppCall(w, roleHash, "designateAsRole", callflag.All, int64(noderoles.StateValidator), pubsArg(good))
	})
	require.NoError(t, err)
	c.RunOK(both)
	require.Equal(t, []change{
		{noderoles.StateValidator, c.BlockHeight() + 1, pubBytes(good)},
		{noderoles.P2PNotary, c.BlockHeight() + 1, pubBytes(bad)},
	}, changes)
}

// TestRoleManagementGenesisRoles: neo-go's Genesis.Roles extension
// (TestDesignate_GenesisRolesExtension).
func TestRoleManagementGenesisRoles(t *testing.T) {
	pubs := seedPubs(t, "genesis roles", 2)
	extra := "  Genesis:\n    Roles:\n      StateValidator:\n"
	for _, p := range pubs {
		extra += "        - " + hex.EncodeToString(p.Bytes()) + "\n"
	}
	c := chaintest.New(t, chaintest.Options{Extra: extra})
	require.Equal(t, pubBytes(sortedKeys(pubs)), designatedAt(t, c, noderoles.StateValidator, 1))
	var found bool
	for _, ev := range c.GenesisResults[0].Events {
		if ev.Name == native.DesignationEvent {
			found = true
			items := ev.Item.Items()
			require.Len(t, items, 4)
			require.True(t, bytes.Equal(sortedKeys(pubs)[0].Bytes(), itemBytes(t, items[3].(*stackitem.Array).Get(0))))
		}
	}
	require.True(t, found)
}
