package rpcledger_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

// query is one request of the extra differential set.
type query struct {
	Method string
	Params []any
}

// raw is a parameter sent as the given JSON text.
type raw string

func (r raw) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func q(method string, params ...any) query {
	if params == nil {
		params = []any{}
	}
	return query{method, params}
}

// scenarioKeys reads the accounts' private keys (accounts.json).
func scenarioKeys(t testing.TB, f *refchain.Fixtures) map[string]*keys.PrivateKey {
	data, err := os.ReadFile(filepath.Join(f.Dir, "accounts.json"))
	require.NoError(t, err)
	var accs []refchain.Account
	require.NoError(t, json.Unmarshal(data, &accs))
	res := make(map[string]*keys.PrivateKey)
	for _, a := range accs {
		if a.WIF == "" {
			continue
		}
		k, err := keys.NewPrivateKeyFromWIF(a.WIF)
		require.NoError(t, err)
		res[a.Name] = k
	}
	return res
}

// signedTx makes a transaction of script signed by k (CalledByEntry).
func signedTx(magic uint32, k *keys.PrivateKey, script []byte, nonce uint32, sysFee, netFee int64, vub uint32, attrs ...transaction.Attribute) *transaction.Transaction {
	tx := transaction.New(script, nonce, sysFee, netFee, vub)
	tx.Signers = []transaction.Signer{{Account: k.ScriptHash(), Scopes: transaction.CalledByEntry}}
	tx.Attributes = attrs
	sd := tx.SignData(magic)
	sig := k.Sign(sd[:])
	tx.Witnesses = []transaction.Witness{{
		InvocationScript:   append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: k.PublicKey().VerificationScript(),
	}}
	return tx
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func script(t testing.TB, f func(w *nio.BinWriter)) []byte {
	b, err := emit.Script(f)
	require.NoError(t, err)
	return b
}

// extraQueries is the extra differential set: every chain method with
// valid and invalid parameters, on the reference chain.
func extraQueries(t testing.TB, f *refchain.Fixtures, roots []refchain.StateRoot) []query {
	var (
		refChain = "0xa6bea8681690baac1d0959b99dca30823d6bee8b"
		testMain = "0x1999f51d5c65e97458ed02b0def9c8604d5583cd"
		doomed   = "0x76ad3abddc88c1fc25cf132a07ca00862e1669e2"
		neo      = "0x" + nativenames.NeoHash.StringLE()
		gas      = "0x" + nativenames.GasHash.StringLE()
		treasury = "0x" + nativenames.TreasuryHash.StringLE()
		accA     = "0xa8ef80bdb2abba80a51a2d6cfa0096e4be3765ba"
		accB     = "0x00fc6780d9a456246e3d24e1c8c9151fa0cfe63f"
		addrA    = "NcuY8AnCYH2whtGtd7LC6BUEhbCkbeuoSJ"
		addrM    = "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"
		keyA     = "02d7de51df894620af30ef30da806a580e52e7eb8658596522454f723718a50455"
		root36   = roots[36].RootHash
		root20   = roots[20].RootHash
		root10   = roots[10].RootHash
		zero256  = "0x0000000000000000000000000000000000000000000000000000000000000000"
		magic    = f.Scenario.Network
		ks       = scenarioKeys(t, f)
	)
	blockHash := func(h int) string { return blockHashes(t, f)[h] }
	var qs []query
	add := func(x ...query) { qs = append(qs, x...) }

	// Blocks, headers, system fees, notifications.
	for _, h := range []int{0, 4, 7, 17, 21, 36} {
		add(q("getblocksysfee", h), q("getblocknotifications", h), q("getblocknotifications", blockHash(h)))
	}
	add(
		q("getblocksysfee", -1), q("getblocksysfee", 37), q("getblocksysfee", "x"), q("getblocksysfee"),
		q("getblock", "5", true), q("getblock", true, true), q("getblock", 5, "1"), q("getblock", 5, 0),
		q("getblock", strings.TrimPrefix(blockHash(3), "0x"), 1), q("getblock", nil), q("getblock", raw(`{}`)),
		q("getblock", raw(`[1]`)), q("getblock", 1.5), q("getblock", "4294967296"),
		q("getblockheader", blockHash(7)), q("getblockheader", blockHash(7), true), q("getblockheader", zero256, true),
		q("getblockheader", "x"), q("getblockhash", "3"), q("getblockhash", -1), q("getblockhash"),
		q("getblockheadercount", 1), q("getblockcount", "x"),
		q("getblocknotifications", 17, raw(`{"contract":"`+gas+`"}`)),
		q("getblocknotifications", 17, raw(`{"contract":"`+gas+`","name":"Transfer"}`)),
		q("getblocknotifications", 17, raw(`{"name":"Put"}`)),
		q("getblocknotifications", 17, raw(`{"name":"Transfer","parameters":[{"type":"Any","value":null},{"type":"Hash160","value":"`+accA[2:]+`"}]}`)),
		q("getblocknotifications", 17, raw(`{"contract":"nothash"}`)),
		q("getblocknotifications", 17, raw(`{"unknown":1}`)),
		q("getblocknotifications", 17, raw(`{"name":"`+strings.Repeat("x", 40)+`"}`)),
		q("getblocknotifications", 17, raw(`null`)),
		q("getblocknotifications", 99), q("getblocknotifications", zero256), q("getblocknotifications"),
	)
	// Transactions, application logs, mempool.
	tx0 := f.Scenario.Transactions[0].Hash
	txFault := "0xfe79a6926cb10c004a3b5f57e7e54ff79ff8f1a6020b38e50a406bad80d8b0bf"
	add(
		q("getrawtransaction", tx0, "true"), q("getrawtransaction", strings.TrimPrefix(tx0, "0x"), true),
		q("getrawtransaction", txFault, true), q("getrawtransaction", tx0, raw(`{}`)), q("getrawtransaction"),
		q("gettransactionheight", txFault), q("gettransactionheight", "bad"), q("gettransactionheight"),
		q("getapplicationlog", tx0, "Application"), q("getapplicationlog", tx0, "OnPersist"),
		q("getapplicationlog", blockHash(4), "OnPersist"), q("getapplicationlog", blockHash(4), "PostPersist"),
		q("getapplicationlog", blockHash(4), "All"), q("getapplicationlog", blockHash(4), "Verification"),
		q("getapplicationlog", blockHash(4), "bad"), q("getapplicationlog", blockHash(4), 5),
		q("getapplicationlog", txFault), q("getapplicationlog"), q("getapplicationlog", 5),
		q("getrawmempool", true), q("getrawmempool", "x"), q("getrawmempool", 1),
	)
	// Contracts and storage.
	add(
		q("getcontractstate", "neotoken"), q("getcontractstate", "NeoToken"), q("getcontractstate", "GASTOKEN"),
		q("getcontractstate", "1"), q("getcontractstate", 3), q("getcontractstate", "-5"), q("getcontractstate", -100),
		q("getcontractstate", "2"), q("getcontractstate", doomed), q("getcontractstate", "unknownname"),
		q("getcontractstate", "NSTqHD6LnVxcWL9DwQW8TtTxWi8NPxisvj"), q("getcontractstate", strings.TrimPrefix(refChain, "0x")),
		q("getcontractstate", "99999999999"), q("getcontractstate"), q("getcontractstate", true), q("getcontractstate", raw(`[]`)),
		q("getstorage", 1, "YWxwaGE="), q("getstorage", "1", "Z2FtbWE="), q("getstorage", "NeoToken", "AQ=="),
		q("getstorage", "neotoken", "Cw=="), q("getstorage", -5, "DQ=="), q("getstorage", "nosuch", "AQ=="),
		q("getstorage", refChain, "!!"), q("getstorage", refChain), q("getstorage"), q("getstorage", 2, "eA=="),
		q("findstorage", neo, "", 3), q("findstorage", neo, "", 4), q("findstorage", neo, "FA==", 0),
		q("findstorage", "NeoToken", "FA==", 2), q("findstorage", -5, "", "8"), q("findstorage", refChain, "", -1),
		q("findstorage", refChain, "", 100), q("findstorage", doomed, ""), q("findstorage", "x", ""),
		q("findstorage", refChain, "!!"), q("findstorage", refChain, "", "x"), q("findstorage", refChain),
		q("findstorage", 12345, ""), q("findstorage", testMain, ""),
	)
	// State roots, proofs, historic storage.
	add(
		q("getstateroot", blockHash(10)), q("getstateroot", "10"), q("getstateroot", -1), q("getstateroot", zero256),
		q("getstateroot", 4294967296), q("getstateroot", "x"), q("getstateroot"), q("getstateheight", 1),
		q("getstoragehistoric", root20, refChain, "YWxwaGE="), q("getstoragehistoric", root20, refChain, "YmV0YQ=="),
		q("getstoragehistoric", root36, refChain, "YmV0YQ=="), q("getstoragehistoric", root20, 1, "YmV0YQ=="),
		q("getstoragehistoric", root20, "NeoToken", "AQ=="), q("getstoragehistoric", root20, doomed, "eA=="),
		q("getstoragehistoric", root10, refChain, "YWxwaGE="), q("getstoragehistoric", zero256, refChain, "YWxwaGE="),
		q("getstoragehistoric", "x", refChain, "YWxwaGE="), q("getstoragehistoric", root20), q("getstoragehistoric", root20, refChain),
		q("getstoragehistoric", root20, refChain, "!!"),
		q("findstoragehistoric", root20, refChain, ""), q("findstoragehistoric", root36, refChain, "", 1),
		q("findstoragehistoric", root20, neo, "FA==", 2), q("findstoragehistoric", root20, doomed, ""),
		q("findstoragehistoric", root36, doomed, ""), q("findstoragehistoric", root20, "nosuch", ""),
		q("findstoragehistoric", zero256, refChain, ""), q("findstoragehistoric", root20),
		q("findstoragehistoric", root20, refChain, "!!"), q("findstoragehistoric", root20, refChain, "", "x"),
		q("getstate", root20, refChain, "YmV0YQ=="), q("getstate", root36, neo, "AQ=="), q("getstate", root20, "x", "AQ=="),
		q("getstate", root20, refChain, "!!"), q("getstate", "x", refChain, "AQ=="), q("getstate", root20, doomed, "eA=="),
		q("getstate", root36, doomed, "eA=="), q("getstate"),
		q("findstates", root36, neo, "FA==", "", 2), q("findstates", root36, neo, "FA==", "FA==", 1),
		q("findstates", root36, refChain, "", "Y291bnRlcg=="), q("findstates", root36, refChain, "", "Y291bnRlcg==", 1),
		q("findstates", root36, refChain, "YQ==", "Z2FtbWE="), q("findstates", root36, refChain, "", "", 0),
		q("findstates", root36, refChain, "", "", 100), q("findstates", root36, refChain, "eA=="),
		q("findstates", root20, doomed, ""), q("findstates", root36, doomed, ""), q("findstates", root36, "x", ""),
		q("findstates", root36, refChain, "!!"), q("findstates", root36, refChain, "", "!!"),
		q("findstates", root36, refChain, "", "", "x"), q("findstates", zero256, refChain, ""),
		q("getproof", root20, refChain, "YmV0YQ=="), q("getproof", root36, neo, "AQ=="), q("getproof", root36, "NeoToken", "AQ=="),
		q("getproof", root36, refChain, "!!"), q("getproof", "x", refChain, "AQ=="), q("getproof"),
		q("verifyproof", root36, "!!"), q("verifyproof", root36), q("verifyproof", "x", "AA=="),
		q("verifyproof", zero256, "BQEAAABhAA=="),
	)
	// Tokens.
	add(
		q("getnep17balances", accA), q("getnep17balances", strings.TrimPrefix(accB, "0x")), q("getnep17balances", refChain),
		q("getnep17balances", "NX3XXXbQkghiJh19SVHJmS7QzpbJY526bd"), q("getnep17balances", accB, "extra"), q("getnep17balances"),
		q("getnep17balances", 5),
		q("getnep17transfers", addrA, 0, 32503680000000, 2), q("getnep17transfers", addrA, 0, 32503680000000, 2, 1),
		q("getnep17transfers", addrA, 0, 32503680000000, 2, 100), q("getnep17transfers", addrM, "0", "32503680000000", "3", "1"),
		q("getnep17transfers", addrA, 0, 32503680000000, 0), q("getnep17transfers", addrA, 0, 32503680000000, 1001),
		q("getnep17transfers", addrA, 0, 32503680000000, 10, -1), q("getnep17transfers", addrA, "x"),
		q("getnep17transfers", addrA, 0, 1), q("getnep17transfers", addrA, 32503680000000, 0),
		q("getnep17transfers", refChain, 0, 32503680000000), q("getnep17transfers", "bad"),
		q("getnep11balances", accA), q("getnep11balances", "bad"), q("getnep11balances"),
		q("getnep11transfers", addrA, 0, 32503680000000), q("getnep11transfers", addrA, 0, 32503680000000, 0),
		q("getnep11transfers", "bad"),
		q("getnep11properties", refChain, "01"), q("getnep11properties", gas, "01"), q("getnep11properties", refChain, "zz"),
		q("getnep11properties", "bad", "01"), q("getnep11properties"),
		q("getunclaimedgas", accA), q("getunclaimedgas", strings.TrimPrefix(accB, "0x")), q("getunclaimedgas", refChain),
		q("getunclaimedgas"),
	)
	// Invocations.
	allTypes := raw(`[{"type":"String","value":"abc"},{"type":"Integer","value":"123456789012345678901234567890"},` +
		`{"type":"Integer","value":-5},{"type":"Boolean","value":true},{"type":"Boolean","value":"false"},` +
		`{"type":"Hash160","value":"` + accA + `"},{"type":"Hash256","value":"` + tx0 + `"},` +
		`{"type":"ByteArray","value":"AQID"},{"type":"Signature","value":"` + b64(make([]byte, 64)) + `"},` +
		`{"type":"PublicKey","value":"` + keyA + `"},{"type":"Any"},{"type":"Any","value":null},` +
		`{"type":"Array","value":[{"type":"Integer","value":1},{"type":"Array","value":[]}]},` +
		`{"type":"Map","value":[{"key":{"type":"String","value":"k"},"value":{"type":"Integer","value":2}}]},{"type":"Map","value":[]}]`)
	signersA := raw(`[{"account":"` + accA + `","scopes":"CalledByEntry"}]`)
	add(
		q("invokefunction", refChain, "get", raw(`[{"type":"ByteArray","value":"YWxwaGE="}]`)),
		q("invokefunction", refChain, "get", raw(`[{"type":"ByteArray","value":"YWxwaGE="}]`), nil, true),
		q("invokefunction", refChain, "put", raw(`[{"type":"ByteArray","value":"YQ=="},{"type":"ByteArray","value":"Yg=="}]`), signersA, true),
		q("invokefunction", refChain, "inc", raw(`[]`), signersA, true),
		q("invokefunction", refChain, "delete", raw(`[{"type":"ByteArray","value":"YWxwaGE="}]`), signersA, true),
		q("invokefunction", neo, "transfer", raw(`[{"type":"Hash160","value":"`+accA+`"},{"type":"Hash160","value":"`+accB+`"},{"type":"Integer","value":1},{"type":"Any"}]`), signersA, true),
		q("invokefunction", testMain, "add", raw(`[{"type":"Integer","value":1},{"type":"Integer","value":2}]`)),
		q("invokefunction", testMain, "add3", raw(`[{"type":"Integer","value":"5"}]`)),
		q("invokefunction", testMain, "ret7"), q("invokefunction", testMain, "invalidReturn"),
		q("invokefunction", testMain, "invalidStack1"), q("invokefunction", testMain, "invalidStack2"),
		q("invokefunction", testMain, "getValue", raw(`[]`), nil, true), q("invokefunction", testMain, "drop", raw(`[]`), nil, true),
		q("invokefunction", testMain, "burnGas", raw(`[{"type":"Integer","value":100000000}]`)),
		q("invokefunction", testMain, "burnGas", raw(`[{"type":"Integer","value":300000000000}]`)),
		q("invokefunction", testMain, "callT0", raw(`[{"type":"Hash160","value":"`+accA+`"}]`)),
		q("invokefunction", testMain, "invocCounter", raw(`[]`), nil, true),
		q("invokefunction", testMain, "nosuchmethod"),
		q("invokefunction", refChain, "get", allTypes),
		q("invokefunction", "NeoToken", "getCandidates"), q("invokefunction", "neotoken", "getAllCandidates"),
		q("invokefunction", -5, "symbol"), q("invokefunction", "-6", "decimals"), q("invokefunction", 1, "version"),
		q("invokefunction", "PolicyContract", "getBlockedAccounts"),
		q("invokefunction", refChain, "get", raw(`[{"type":"Hash160","value":"bad"}]`)),
		q("invokefunction", refChain, "get", raw(`[{"type":"Integer","value":"x"}]`)),
		q("invokefunction", refChain, "get", raw(`[{"type":"Boolean","value":"maybe"}]`)),
		q("invokefunction", refChain, "get", raw(`[{"type":"PublicKey","value":"00"}]`)),
		q("invokefunction", refChain, "get", raw(`[{"type":"Void"}]`)),
		q("invokefunction", refChain, "get", raw(`[{"type":"Unknown","value":1}]`)),
		q("invokefunction", refChain, "get", raw(`[{"value":1}]`)),
		q("invokefunction", refChain, "get", raw(`[5]`)), q("invokefunction", refChain, "get", raw(`{}`)),
		q("invokefunction", refChain, "get", "notarray"),
		q("invokefunction", refChain, "get", raw(`[]`), raw(`[{"account":"bad"}]`)),
		q("invokefunction", refChain, "get", raw(`[]`), raw(`["`+accA+`"]`)),
		q("invokefunction", refChain, "get", raw(`[]`), raw(`[{"account":"`+accA+`","scopes":"Global"},{"account":"`+accB+`","scopes":"CustomContracts","allowedcontracts":["`+gas+`"]}]`)),
		q("invokefunction", refChain, "get", raw(`[]`), raw(`[{"account":"`+accA+`","scopes":"WitnessRules","rules":[{"action":"Allow","condition":{"type":"CalledByEntry"}}]}]`)),
		q("invokefunction", refChain, "get", raw(`[]`), nil, "notbool"),
		q("invokefunction", refChain), q("invokefunction", refChain, 5), q("invokefunction"),
		q("invokefunction", "0x0000000000000000000000000000000000000001", "x"),
		q("invokescript", b64(script(t, func(w *nio.BinWriter) {
			emit.AppCall(w, nativenames.NeoHash, "getAllCandidates", callflag.All)
			emit.AppCall(w, nativenames.PolicyHash, "getBlockedAccounts", callflag.All)
		}))),
		q("invokescript", b64(script(t, func(w *nio.BinWriter) {
			emit.AppCall(w, nativenames.NeoHash, "getAllCandidates", callflag.All)
		})), nil, true),
		q("invokescript", b64([]byte{byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.ADD)}), signersA, true),
		q("invokescript", b64([]byte{byte(opcode.PUSHDATA1), 3, 1, 2, 3, byte(opcode.CONVERT), 0x30}), nil, true),
		q("invokescript", b64([]byte{0xff})), q("invokescript", ""), q("invokescript", b64([]byte{byte(opcode.NEWMAP), byte(opcode.DUP), byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.SETITEM)})),
		q("invokescript", b64([]byte{byte(opcode.PUSHINT8), 5, byte(opcode.PUSHNULL), byte(opcode.NEWARRAY0), byte(opcode.NEWSTRUCT0)})),
		q("invokescript", b64([]byte{byte(opcode.PUSHA), 2, 0, 0, 0})),
		q("invokescript", b64([]byte{byte(opcode.PUSH1), byte(opcode.THROW)})),
		q("invokescript", b64([]byte{byte(opcode.PUSH1), byte(opcode.PUSH0), byte(opcode.MOD)})),
		q("invokescript", b64(script(t, func(w *nio.BinWriter) {
			emit.AppCall(w, nativenames.GasHash, "transfer", callflag.All, hash.Uint160{}, hash.Uint160{}, 1, nil)
		})), raw(`[{"account":"0x0000000000000000000000000000000000000000","scopes":"CalledByEntry"}]`), true),
		q("invokescript", "!!"), q("invokescript"), q("invokescript", b64([]byte{1}), "x"),
		q("invokecontractverify", testMain), q("invokecontractverify", testMain, raw(`[]`), signersA),
		q("invokecontractverify", treasury), q("invokecontractverify", refChain), q("invokecontractverify", doomed),
		q("invokecontractverify", testMain, raw(`[{"type":"Integer","value":1}]`)),
		q("invokecontractverify", testMain, "x"), q("invokecontractverify", testMain, raw(`[{"type":"Bad"}]`)),
		q("invokecontractverify", "nothash"), q("invokecontractverify"),
	)
	// Historic invocations.
	for _, at := range []any{10, 20, "21", blockHash(19), root10, root36} {
		add(
			q("invokefunctionhistoric", at, refChain, "get", raw(`[{"type":"ByteArray","value":"YmV0YQ=="}]`)),
			q("invokescripthistoric", at, b64(script(t, func(w *nio.BinWriter) {
				emit.AppCall(w, nativenames.NeoHash, "balanceOf", callflag.All, ks["A"].ScriptHash())
			}))),
			q("invokecontractverifyhistoric", at, testMain),
		)
	}
	add(
		q("invokefunctionhistoric", 5, doomed, "get", raw(`[]`)), q("invokefunctionhistoric", 12, doomed, "get", raw(`[{"type":"ByteArray","value":"eA=="}]`)),
		q("invokefunctionhistoric", 37, refChain, "get"), q("invokefunctionhistoric", -1, refChain, "get"),
		q("invokefunctionhistoric", zero256, refChain, "get"), q("invokefunctionhistoric", "x", refChain, "get"),
		q("invokefunctionhistoric", 10), q("invokefunctionhistoric"), q("invokescripthistoric", 10, "!!"),
		q("invokescripthistoric", 10), q("invokecontractverifyhistoric", 10), q("invokecontractverifyhistoric", 5, testMain),
		q("invokefunctionhistoric", 20, refChain, "inc", raw(`[]`), signersA, true),
	)
	// Contained scripts.
	fakeTx := signedTx(magic, ks["A"], script(t, func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.LedgerHash, "currentIndex", callflag.All)
		emit.Syscall(w, "System.Runtime.GetScriptContainer")
		emit.Syscall(w, "System.Runtime.GetTime")
	}), 7, 100000000, 1000000, 100)
	txJSON, err := json.Marshal(fakeTx)
	require.NoError(t, err)
	hdr, err := json.Marshal(fakeBlockHeader(t, f, 5))
	require.NoError(t, err)
	add(
		q("invokecontainedscript", raw(txJSON)), q("invokecontainedscript", raw(txJSON), raw(hdr)),
		q("invokecontainedscript", raw(txJSON), nil, "Verification"), q("invokecontainedscript", raw(txJSON), nil, "Application", true),
		q("invokecontainedscript", raw(txJSON), nil, "OnPersist"), q("invokecontainedscript", raw(txJSON), nil, "bad"),
		q("invokecontainedscript", raw(txJSON), nil, 5), q("invokecontainedscript", raw(txJSON), nil, "Application", "x"),
		q("invokecontainedscript", raw(txJSON), raw(`{"hash":"bad"}`)), q("invokecontainedscript", raw(`{"script":""}`)),
		q("invokecontainedscript", raw(`{"hash":"`+zero256+`","script":"EQ==","signers":[]}`)),
		q("invokecontainedscript", nil), q("invokecontainedscript", "x"), q("invokecontainedscript"),
	)
	// Network fees.
	txM := signedTx(magic, ks["A"], []byte{byte(opcode.PUSH1)}, 9, 0, 0, 100)
	txM.Witnesses[0].InvocationScript = nil
	txContract := transaction.New([]byte{byte(opcode.PUSH1)}, 10, 0, 0, 100)
	txContract.Signers = []transaction.Signer{{Account: mustHash(t, testMain)}}
	txContract.Witnesses = []transaction.Witness{{}}
	txNoContract := transaction.New([]byte{byte(opcode.PUSH1)}, 11, 0, 0, 100)
	txNoContract.Signers = []transaction.Signer{{Account: mustHash(t, accA)}}
	txNoContract.Witnesses = []transaction.Witness{{}}
	txNoVerify := transaction.New([]byte{byte(opcode.PUSH1)}, 12, 0, 0, 100)
	txNoVerify.Signers = []transaction.Signer{{Account: mustHash(t, refChain)}}
	txNoVerify.Witnesses = []transaction.Witness{{}}
	txAttrs := signedTx(magic, ks["B"], []byte{byte(opcode.PUSH1)}, 13, 0, 0, 100,
		transaction.Attribute{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: mustHash256(t, tx0)}})
	add(
		q("calculatenetworkfee", b64(txM.Bytes())), q("calculatenetworkfee", b64(txContract.Bytes())),
		q("calculatenetworkfee", b64(txNoContract.Bytes())), q("calculatenetworkfee", b64(txNoVerify.Bytes())),
		q("calculatenetworkfee", b64(txAttrs.Bytes())), q("calculatenetworkfee", b64([]byte{0})),
		q("calculatenetworkfee"), q("calculatenetworkfee", 5),
	)
	// Node, sessions, oracle, notary.
	add(
		q("getpeers"), q("getconnectioncount"), q("getcommittee", 1), q("getnextblockvalidators", "x"),
		q("traverseiterator", "x", "y", 1), q("terminatesession", "x"),
		q("submitoracleresponse", b64(ks["A"].PublicKey().Bytes()), 1, b64(make([]byte, 64)), b64(make([]byte, 64))),
		q("submitoracleresponse"), q("getrawnotarypool"), q("getrawnotarytransaction", tx0), q("submitnotaryrequest", "AA=="),
	)
	// Relay: blocks, then transactions (the valid ones stay in the pool).
	add(
		q("submitblock", b64(f.Blocks[5])), q("submitblock", "!!"), q("submitblock", b64([]byte{0, 1, 2})),
		q("submitblock", 5),
		q("sendrawtransaction", 5), q("sendrawtransaction", "!!"),
		q("sendrawtransaction"),
	)
	// Truncated inputs (neo-go's EOF texts).
	b4, err := block.NewBlockFromBytes(f.Blocks[4])
	require.NoError(t, err)
	rawTx := b4.Transactions[0].Bytes()
	for _, n := range []int{1, 3, 5, 25, 26, 45, 46, 47, 60, 200, len(rawTx) - 1} {
		add(q("sendrawtransaction", b64(rawTx[:n])), q("calculatenetworkfee", b64(rawTx[:n])))
	}
	for _, n := range []int{2, 4, 36, 100, 113, 114, 115, 120, 300} {
		add(q("submitblock", b64(f.Blocks[4][:n])))
	}
	gasTransfer := func(from *keys.PrivateKey, to hash.Uint160, amount int64) []byte {
		return script(t, func(w *nio.BinWriter) {
			emit.AppCall(w, nativenames.GasHash, "transfer", callflag.All, from.ScriptHash(), to, amount, nil)
		})
	}
	good := goodTransaction(t, f)
	expired := signedTx(magic, ks["C"], gasTransfer(ks["C"], ks["D"].ScriptHash(), 1), 21, 10000000, 5000000, 30)
	tooFar := signedTx(magic, ks["C"], gasTransfer(ks["C"], ks["D"].ScriptHash(), 1), 22, 10000000, 5000000, 1000000)
	lowFee := signedTx(magic, ks["C"], gasTransfer(ks["C"], ks["D"].ScriptHash(), 1), 23, 10000000, 1000, 100)
	badSig := signedTx(magic, ks["C"], gasTransfer(ks["C"], ks["D"].ScriptHash(), 1), 24, 10000000, 5000000, 100)
	badSig.Witnesses[0].InvocationScript[10] ^= 0xff
	poor := signedTx(magic, ks["E"], gasTransfer(ks["E"], ks["D"].ScriptHash(), 1), 25, 10000000, 5000000, 100)
	bigFee := signedTx(magic, ks["C"], gasTransfer(ks["C"], ks["D"].ScriptHash(), 1), 26, 200000000000, 5000000, 100)
	badScript := signedTx(magic, ks["C"], []byte{0xff}, 27, 10000000, 5000000, 100)
	second := signedTx(magic, ks["D"], gasTransfer(ks["D"], ks["C"].ScriptHash(), 1), 28, 10000000, 5000000, 100)
	// An account without GAS (a fixed key of its own) cannot pay the fees.
	nobodyKey := sha256.Sum256([]byte("n3node rpc test account without GAS"))
	nobody, err := keys.NewPrivateKeyFromBytes(nobodyKey[:])
	require.NoError(t, err)
	broke := signedTx(magic, nobody, gasTransfer(nobody, ks["D"].ScriptHash(), 1), 29, 10000000, 5000000, 100)
	add(
		q("sendrawtransaction", b64(good.Bytes())), q("sendrawtransaction", b64(good.Bytes())),
		q("sendrawtransaction", b64(expired.Bytes())), q("sendrawtransaction", b64(tooFar.Bytes())),
		q("sendrawtransaction", b64(lowFee.Bytes())), q("sendrawtransaction", b64(badSig.Bytes())),
		q("sendrawtransaction", b64(poor.Bytes())), q("sendrawtransaction", b64(bigFee.Bytes())),
		q("sendrawtransaction", b64(badScript.Bytes())), q("sendrawtransaction", b64(broke.Bytes())),
		q("sendrawtransaction", b64(second.Bytes())),
		q("getrawmempool"), q("getrawmempool", true),
		q("getrawtransaction", "0x"+good.Hash().StringLE(), true), q("getrawtransaction", "0x"+good.Hash().StringLE()),
		q("gettransactionheight", "0x"+good.Hash().StringLE()),
		q("getapplicationlog", "0x"+good.Hash().StringLE()),
	)
	return qs
}

func mustHash(t testing.TB, s string) hash.Uint160 {
	h, err := hash.Uint160DecodeStringLE(strings.TrimPrefix(s, "0x"))
	require.NoError(t, err)
	return h
}

func mustHash256(t testing.TB, s string) hash.Uint256 {
	h, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(s, "0x"))
	require.NoError(t, err)
	return h
}

// goodTransaction is a valid transaction on the reference chain: C sends
// 1 GAS to D.
func goodTransaction(t testing.TB, f *refchain.Fixtures) *transaction.Transaction {
	ks := scenarioKeys(t, f)
	sc := script(t, func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.GasHash, "transfer", callflag.All, ks["C"].ScriptHash(), ks["D"].ScriptHash(), 1, nil)
	})
	return signedTx(f.Scenario.Network, ks["C"], sc, 20, 10000000, 5000000, 100)
}
