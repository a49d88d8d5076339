package native_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

var oracleHash = nativenames.OracleHash

// requireGAS skips a test that needs GasToken (minting, fees) while it is
// not registered.
func requireGAS(t *testing.T, c *chaintest.Chain) {
	t.Helper()
	if c.Natives.ByID(nativenames.GasID) == nil {
		t.Skip("GasToken is not implemented yet")
	}
}

func TestOracleMethods(t *testing.T) {
	c := chaintest.New(t)
	d := config.HFDefault
	checkMethodSpecs(t, c.Natives.ByID(nativenames.OracleID), []methodSpec{
		{"request", 5, 0, callflag.States | callflag.AllowNotify, d, d},
		{"finish", 0, 0, callflag.States | callflag.AllowCall | callflag.AllowNotify, d, d},
		{"verify", 0, 1 << 15, callflag.None, d, d},
		{"getPrice", 0, 1 << 15, callflag.ReadStates, d, d},
		{"setPrice", 1, 1 << 15, callflag.States, d, d},
	})
	md := c.Natives.ByID(nativenames.OracleID).Metadata()
	require.Empty(t, md.HFSpecific(config.HFEchidna).Manifest.SupportedStandards)
	require.Equal(t, []string{"NEP-30"}, md.HFSpecific(config.HFFaun).Manifest.SupportedStandards)
	// The response script is a call of finish (C# OracleResponse.FixedScript).
	require.Equal(t, callScript(t, oracleHash, "finish"), c.Natives.Oracle().ResponseScript())
}

func TestOraclePrice(t *testing.T) {
	c := chaintest.New(t)
	require.EqualValues(t, native.DefaultOracleRequestPrice, itemInt(t, mustInvoke(t, c, oracleHash, "getPrice")).Int64())
	stranger := []transaction.Signer{chaintest.AccountSigner(seedKey(t, "stranger"))}
	_, fault := invokeSigned(t, c, stranger, oracleHash, "setPrice", 1)
	require.Contains(t, fault, "committee")
	for _, bad := range []any{0, -1, new(big.Int).Lsh(big.NewInt(1), 63)} {
		mustFault(t, c, oracleHash, "setPrice", bad)
	}
	c.RunOK(callScript(t, oracleHash, "setPrice", 12345))
	require.EqualValues(t, 12345, itemInt(t, mustInvoke(t, c, oracleHash, "getPrice")).Int64())
	require.EqualValues(t, 12345, c.Natives.Oracle().Price(c.DAO))
	require.NoError(t, c.Natives.InitializeCache(c.DAO, c.BlockHeight()))
	require.EqualValues(t, 12345, c.Natives.Oracle().Price(c.DAO))
}

func TestOracleVerify(t *testing.T) {
	c := chaintest.New(t)
	require.False(t, itemBool(t, mustInvoke(t, c, oracleHash, "verify")))
	// A transaction with an OracleResponse attribute.
	tx := c.NewTx(callScript(t, oracleHash, "verify"))
	tx.Attributes = []transaction.Attribute{{Type: transaction.OracleResponseT, Value: &transaction.OracleResponse{ID: 1}}}
	aer := c.AddBlock(tx)[0]
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	require.True(t, itemBool(t, aer.Stack[0]))
}

// oracleUser is a contract that makes Oracle requests and records the
// callbacks: request(url, filter, callback, userData, gas) calls
// OracleContract.request; handle(url, userData, code, result) sends
// Callback [url, userData, code, result, CheckWitness(witness)].
func oracleUser(t *testing.T, c *chaintest.Chain, witness hash.Uint160) *state.Contract {
	anyT := smartcontract.AnyType
	p := chaintest.Param
	b := chaintest.NewContractBuilder("OracleUser")
	b.Method("request", []manifest.Parameter{p("url", smartcontract.StringType), p("filter", anyT), p("callback", smartcontract.StringType),
		p("userData", anyT), p("gas", smartcontract.IntegerType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		for i := 4; i >= 0; i-- {
			emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(i))
		}
		emit.Int(w, 5)
		emit.Opcodes(w, opcode.PACK)
		emit.Int(w, int64(callflag.All))
		emit.String(w, "request")
		emit.Bytes(w, oracleHash[:])
		emit.Syscall(w, interop.SystemContractCall)
		emit.Opcodes(w, opcode.DROP)
	})
	b.Method("handle", []manifest.Parameter{p("url", smartcontract.StringType), p("userData", anyT), p("code", smartcontract.IntegerType),
		p("result", smartcontract.ByteArrayType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Bytes(w, witness[:])
		emit.Syscall(w, interop.SystemRuntimeCheckWitness)
		for i := 3; i >= 0; i-- {
			emit.Opcodes(w, opcode.LDARG0+opcode.Opcode(i))
		}
		emit.Int(w, 5)
		emit.Opcodes(w, opcode.PACK)
		emit.String(w, "Callback")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	b.Method("finish", nil, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.AppCall(w, oracleHash, "finish", callflag.All)
		emit.Opcodes(w, opcode.DROP)
	})
	b.Event("Callback", p("url", anyT), p("userData", anyT), p("code", anyT), p("result", anyT), p("witness", anyT))
	return c.DeployBuilder(b)
}

// responseTx is an Oracle response to request id: the fixed script, the
// Oracle contract as sender (it holds the request's GAS) and the nodes'
// multisig, fees equal to gasForResponse.
func responseTx(c *chaintest.Chain, nodes []*keys.PublicKey, id uint64, code transaction.OracleResponseCode, result []byte, gas int64) *transaction.Transaction {
	script, _ := smartcontract.CreateDefaultMultiSigRedeemScript(nodes)
	tx := c.NewTx(c.Natives.Oracle().ResponseScript(),
		transaction.Signer{Account: oracleHash, Scopes: transaction.None},
		transaction.Signer{Account: hash.Hash160(script), Scopes: transaction.None})
	tx.SystemFee, tx.NetworkFee = gas, 0
	tx.Attributes = []transaction.Attribute{{Type: transaction.OracleResponseT,
		Value: &transaction.OracleResponse{ID: id, Code: code, Result: result}}}
	return tx
}

func TestOracleRequestAndResponse(t *testing.T) {
	c := chaintest.New(t)
	requireGAS(t, c)
	o := c.Natives.Oracle()
	nodes := sortedKeys(seedPubs(t, "oracle nodes", 3))
	c.RunOK(callScript(t, roleHash, "designateAsRole", int64(noderoles.Oracle), pubsArg(nodes)))
	user := oracleUser(t, c, c.CommitteeAddress())

	const url = "https://example.com/data"
	const gas = 1_0000_0000
	global := transaction.Signer{Account: c.CommitteeAddress(), Scopes: transaction.Global}
	reqTx := c.NewTx(callScript(t, user.Hash, "request", url, "$.a", "handle", []any{1, "x"}, gas), global)
	aer := c.AddBlock(reqTx)[0]
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	// Transfer (GAS minted to Oracle) and OracleRequest [id, contract, url, filter].
	var names []string
	for _, ev := range aer.Events {
		names = append(names, ev.Name)
	}
	require.Equal(t, []string{"Transfer", "OracleRequest"}, names)
	require.Equal(t, stackitem.NewArray([]stackitem.Item{stackitem.NewInt(0), stackitem.NewByteString(user.Hash[:]),
		stackitem.NewByteString([]byte(url)), stackitem.NewByteString([]byte("$.a"))}), aer.Events[1].Item)
	req, err := o.GetRequest(c.DAO, 0)
	require.NoError(t, err)
	require.Equal(t, reqTx.Hash(), req.OriginalTxID)
	require.EqualValues(t, gas, req.GasForResponse)
	require.Equal(t, url, req.URL)
	require.Equal(t, "$.a", *req.Filter)
	require.Equal(t, user.Hash, req.CallbackContract)
	require.Equal(t, "handle", req.CallbackMethod)
	ud, err := stackitem.Serialize(stackitem.NewArray([]stackitem.Item{stackitem.NewInt(1), stackitem.NewByteString([]byte("x"))}))
	require.NoError(t, err)
	require.Equal(t, ud, req.UserData)
	list, err := o.GetIDList(c.DAO, url)
	require.NoError(t, err)
	require.Equal(t, state.IDList{0}, list)

	// A second request with no filter gets id 1.
	c.RunOK(callScript(t, user.Hash, "request", url, nil, "handle", nil, gas), global)
	req1, err := o.GetRequest(c.DAO, 1)
	require.NoError(t, err)
	require.Nil(t, req1.Filter)
	list, _ = o.GetIDList(c.DAO, url)
	require.Equal(t, state.IDList{0, 1}, list)
	reqs, err := o.GetRequests(c.DAO)
	require.NoError(t, err)
	require.Len(t, reqs, 2)

	// The response: OracleResponse, then the callback with the original
	// transaction's signers (Global committee: CheckWitness is true).
	resp := responseTx(c, nodes, 0, transaction.Success, []byte("result"), gas)
	verifyResp := func(tx *transaction.Transaction) error {
		return o.VerifyResponse(c.DAO, tx, tx.Attributes[0].Value.(*transaction.OracleResponse), c.BlockHeight())
	}
	require.NoError(t, verifyResp(resp))
	// C# OracleResponse.Verify: fees equal to gasForResponse, the nodes'
	// multisig among the signers, no scopes, the fixed script.
	bad := responseTx(c, nodes, 0, transaction.Success, nil, gas)
	bad.NetworkFee = 1
	require.Error(t, verifyResp(bad))
	bad = responseTx(c, nodes[:2], 0, transaction.Success, nil, gas)
	require.Error(t, verifyResp(bad))
	bad = responseTx(c, nodes, 0, transaction.Success, nil, gas)
	bad.Signers[0].Scopes = transaction.CalledByEntry
	require.Error(t, verifyResp(bad))
	bad = responseTx(c, nodes, 0, transaction.Success, nil, gas)
	bad.Script = []byte{byte(opcode.PUSH1)}
	require.Error(t, verifyResp(bad))
	bad = responseTx(c, nodes, 7, transaction.Success, nil, gas)
	require.ErrorIs(t, verifyResp(bad), native.ErrOracleRequestNotFound)
	aers := c.AddBlockFull(resp)
	aer = aers[1]
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	require.Len(t, aer.Events, 2)
	require.Equal(t, "OracleResponse", aer.Events[0].Name)
	reqHash := reqTx.Hash()
	require.Equal(t, stackitem.NewArray([]stackitem.Item{stackitem.NewInt(0), stackitem.NewByteString(reqHash[:])}), aer.Events[0].Item)
	require.Equal(t, "Callback", aer.Events[1].Name)
	cb := aer.Events[1].Item.Items()
	require.Equal(t, []byte(url), itemBytes(t, cb[0]))
	require.Equal(t, big.NewInt(0), itemInt(t, cb[2]))
	require.Equal(t, []byte("result"), itemBytes(t, cb[3]))
	require.True(t, itemBool(t, cb[4]))
	// PostPersist removed the request and paid node 0 % 3 the price.
	_, err = o.GetRequest(c.DAO, 0)
	require.ErrorIs(t, err, native.ErrOracleRequestNotFound)
	list, _ = o.GetIDList(c.DAO, url)
	require.Equal(t, state.IDList{1}, list)
	post := aers[len(aers)-1]
	var minted []string
	for _, ev := range post.Events {
		if ev.Name == "Transfer" && ev.ScriptHash == nativenames.GasHash {
			to := itemBytes(t, ev.Item.Get(1))
			minted = append(minted, hash.Uint160(to).StringLE()+" "+itemInt(t, ev.Item.Get(2)).String())
		}
	}
	require.Contains(t, minted, nodes[0].ScriptHash().StringLE()+" 50000000")

	// The last response removes the URL's list; a response for a removed
	// request fails in finish.
	resp = responseTx(c, nodes, 1, transaction.NotFound, nil, gas)
	require.Equal(t, vmstate.Halt, c.AddBlock(resp)[0].VMState)
	list, _ = o.GetIDList(c.DAO, url)
	require.Nil(t, list)
	resp = responseTx(c, nodes, 1, transaction.Success, nil, gas)
	aer = c.AddBlock(resp)[0]
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "request not found")
}

func TestOracleRequestErrors(t *testing.T) {
	c := chaintest.New(t)
	requireGAS(t, c)
	user := oracleUser(t, c, c.CommitteeAddress())
	const gas = 1000_0000
	for _, args := range [][]any{
		{strings.Repeat("u", native.MaxOracleURLLength+1), nil, "handle", nil, gas},
		{"url", strings.Repeat("f", native.MaxOracleFilterLength+1), "handle", nil, gas},
		{"url", nil, strings.Repeat("h", native.MaxOracleCallbackLength+1), nil, gas},
		{"url", nil, "_handle", nil, gas},
		{"url", nil, "handle", nil, gas - 1},
		{"url", nil, "handle", make([]byte, native.MaxOracleUserDataLength), gas}, // serialized > 512
		{"url", nil, "handle", nil, new(big.Int).Lsh(big.NewInt(1), 63)},
		{[]byte{0xff}, nil, "handle", nil, gas},
		{"url", []byte{0xff}, "handle", nil, gas},
	} {
		aer := c.Run(callScript(t, user.Hash, "request", args...))
		require.Equal(t, vmstate.Fault, aer.VMState, "%v", args[:4])
	}
	// The limits themselves are fine.
	c.RunOK(callScript(t, user.Hash, "request", strings.Repeat("u", native.MaxOracleURLLength),
		strings.Repeat("f", native.MaxOracleFilterLength), strings.Repeat("h", native.MaxOracleCallbackLength),
		make([]byte, native.MaxOracleUserDataLength-4), gas)) // 1+3+508 bytes serialized
	// Only contracts may request.
	aer := c.Run(callScript(t, oracleHash, "request", "url", nil, "handle", nil, gas))
	require.Equal(t, vmstate.Fault, aer.VMState)
	// finish: only from the entry script of a response transaction.
	aer = c.Run(callScript(t, oracleHash, "finish"))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "response not found")
	aer = c.Run(callScript(t, user.Hash, "finish"))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "non-entry")
	// At most 256 pending requests per URL.
	c.RunOK(callScript(t, oracleHash, "setPrice", 1))
	script, err := emit.Script(func(w *nio.BinWriter) {
		for range native.MaxOracleRequestsPerURL - 1 {
			emit.AppCall(w, user.Hash, "request", callflag.All, "same", nil, "handle", nil, gas)
			emit.Opcodes(w, opcode.DROP)
		}
	})
	require.NoError(t, err)
	c.RunOK(script)
	c.RunOK(callScript(t, user.Hash, "request", "same", nil, "handle", nil, gas))
	aer = c.Run(callScript(t, user.Hash, "request", "same", nil, "handle", nil, gas))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "too many")
}
