package chainrpc_test

import (
	"time"

	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/state"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/stretchr/testify/require"
)

func TestMethodList(t *testing.T) {
	f := newFixture(t, newFakeLedger(3), rpcserver.Config{}, chainrpc.Options{})
	// neo-go 0.120.0 serves 53 HTTP methods; 3 are built into rpcserver.
	require.Len(t, f.svc.Methods(), 50)
	_, rerr := f.svc.Call("nosuch", nil)
	require.Equal(t, int64(neorpc.MethodNotFoundCode), rerr.Code)
}

func TestBlockQueries(t *testing.T) {
	l := newFakeLedger(5)
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{})
	require.Equal(t, "5", f.ok("getblockcount", `[]`))
	require.Equal(t, "5", f.ok("getblockheadercount", `[]`))
	require.Equal(t, `"0x`+l.blocks[4].Hash().StringLE()+`"`, f.ok("getbestblockhash", `[]`))
	require.Equal(t, `"0x`+l.blocks[2].Hash().StringLE()+`"`, f.ok("getblockhash", `["2"]`))
	heightErr := "param at index 0 should be greater than or equal to 0 and less than or equal to current block height, got: %d"
	f.fails("getblockhash", `[5]`, neorpc.ErrUnknownHeightCode, fmt.Sprintf(heightErr, 5))
	f.fails("getblockhash", `[-3]`, neorpc.ErrUnknownHeightCode, fmt.Sprintf(heightErr, -3))
	f.fails("getblockhash", `["x"]`, neorpc.InvalidParamsCode, "Invalid params")
	f.fails("getblock", `[]`, neorpc.InvalidParamsCode, "Invalid params")
	f.fails("getblock", `["0x`+strings.Repeat("00", 32)+`"]`, neorpc.ErrUnknownBlockCode, "key not found")

	// Raw and verbose forms; verbose metadata.
	require.Equal(t, `"`+base64.StdEncoding.EncodeToString(l.blocks[1].Bytes())+`"`, f.ok("getblock", `[1]`))
	v := f.ok("getblock", `[1, true]`)
	require.Contains(t, v, `{"size":`+fmt.Sprint(l.blocks[1].Size())+`,"nextblockhash":"0x`+l.blocks[2].Hash().StringLE()+`","confirmations":4,"hash":`)
	require.NotContains(t, f.ok("getblock", `[4, 1]`), "nextblockhash")
	require.Contains(t, f.ok("getblockheader", `[4, true]`), `"confirmations":1,"hash":`)

	// System fees: 100 + 200 in block 2.
	require.Equal(t, "300", f.ok("getblocksysfee", `[2]`))
	require.Equal(t, "0", f.ok("getblocksysfee", `[0]`))
	f.fails("getblocksysfee", `[9]`, neorpc.ErrUnknownHeightCode, "invalid block height: "+fmt.Sprintf(heightErr, 9))
	f.fails("getblocksysfee", `["x"]`, neorpc.InvalidParamsCode, "invalid block height: Invalid params")
}

func TestTransactionQueries(t *testing.T) {
	l := newFakeLedger(5)
	pooled := transaction.New([]byte{0x12}, 77, 1, 1, 1000)
	pooled.Signers = []transaction.Signer{{Account: hash.Uint160{9}}}
	pooled.Witnesses = []transaction.Witness{{}}
	l.pool = []*transaction.Transaction{pooled}
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{})
	ph := "0x" + pooled.Hash().StringLE()
	require.Equal(t, `["`+ph+`"]`, f.ok("getrawmempool", `[]`))
	require.Equal(t, `{"height":4,"verified":["`+ph+`"],"unverified":[]}`, f.ok("getrawmempool", `[true]`))
	// A pooled transaction has no metadata and no height.
	v := f.ok("getrawtransaction", `["`+ph+`", true]`)
	require.True(t, strings.HasPrefix(v, `{"hash":"`+ph+`"`), v)
	f.fails("gettransactionheight", `["`+ph+`"]`, neorpc.ErrUnknownTransactionCode, "")
	f.fails("getrawtransaction", `["`+ph[:10]+`"]`, neorpc.InvalidParamsCode, "Invalid params")
	h := "0x" + l.blocks[2].Transactions[1].Hash().StringLE()
	require.Equal(t, "2", f.ok("gettransactionheight", `["`+h+`"]`))
	// The fake has no application logs: the verbose form reports it.
	f.fails("getrawtransaction", `["`+h+`", true]`, neorpc.InternalServerErrorCode, "Failed to get application log for the transaction: key not found")
	f.fails("getapplicationlog", `["`+h+`"]`, neorpc.ErrUnknownScriptContainerCode, "failed to locate application log: key not found")
	f.fails("getapplicationlog", `["`+h+`", "system"]`, neorpc.InvalidParamsCode, "Invalid params")
}

func TestRelay(t *testing.T) {
	l := newFakeLedger(3)
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{})
	tx := transaction.New([]byte{0x11}, 5, 0, 0, 100)
	tx.Signers = []transaction.Signer{{Account: hash.Uint160{1}}}
	tx.Witnesses = []transaction.Witness{{}}
	b64 := base64.StdEncoding.EncodeToString(tx.Bytes())
	require.Equal(t, `{"hash":"0x`+tx.Hash().StringLE()+`"}`, f.ok("sendrawtransaction", `["`+b64+`"]`))
	require.Len(t, l.pool, 1, "without a network the transaction is pooled")

	for _, c := range []struct {
		err  error
		code int64
	}{
		{&chainrpc.RelayError{Code: neorpc.ErrMempoolCapReached, Err: errors.New("no space left in the memory pool")}, neorpc.ErrMempoolCapReachedCode},
		{&chainrpc.RelayError{Code: neorpc.ErrAlreadyExists, Err: errors.New("already exists in blockchain")}, neorpc.ErrAlreadyExistsCode},
		{fmt.Errorf("wrapped: %w", &chainrpc.RelayError{Code: neorpc.ErrExpiredTransaction, Err: errors.New("expired")}), neorpc.ErrExpiredTransactionCode},
		{errors.New("something else"), neorpc.ErrVerificationFailedCode},
	} {
		l.poolErr = c.err
		f.fails("sendrawtransaction", `["`+b64+`"]`, c.code, c.err.Error())
	}
	f.fails("sendrawtransaction", `[]`, neorpc.InvalidParamsCode, "not enough parameters")
	f.fails("sendrawtransaction", `["!!"]`, neorpc.InvalidParamsCode, "not a base64: illegal base64 data at input byte 0")
	f.fails("sendrawtransaction", `["AAAA"]`, neorpc.InvalidParamsCode, "can't decode transaction: unexpected EOF")
	f.fails("sendrawtransaction", `["AA=="]`, neorpc.InvalidParamsCode, "can't decode transaction: EOF")
	f.fails("sendrawtransaction", `["`+base64.StdEncoding.EncodeToString(append(tx.Bytes(), 0))+`"]`, neorpc.InvalidParamsCode, "can't decode transaction: additional data after the transaction")
	big := strings.Repeat("A", base64.StdEncoding.EncodedLen(transaction.MaxTransactionSize)+4)
	f.fails("sendrawtransaction", `["`+big+`"]`, neorpc.ErrInvalidSizeCode,
		fmt.Sprintf("base64-encoded transaction size exceeds maximum allowed: %d vs %d", len(big), base64.StdEncoding.EncodedLen(transaction.MaxTransactionSize)))

	// Blocks: MaxBlockSize 1000 in the fake's config.
	blk := base64.StdEncoding.EncodeToString(l.blocks[1].Bytes())
	require.Equal(t, `{"hash":"0x`+l.blocks[1].Hash().StringLE()+`"}`, f.ok("submitblock", `["`+blk+`"]`))
	require.Len(t, l.added, 1)
	f.fails("submitblock", `["`+strings.Repeat("A", 1340)+`"]`, neorpc.ErrInvalidSizeCode, "base64-encoded block size exceeds maximum allowed: 1340 vs 1336")
	f.fails("submitblock", `[5]`, neorpc.InvalidParamsCode, "not a base64: illegal base64 data at input byte 0")
}

// fakeNet records relays.
type fakeNet struct {
	relayed, direct int
	peers           []result.PeerInfo
}

func (n *fakeNet) Port() (uint16, error)             { return 20333, nil }
func (n *fakeNet) ID() uint32                        { return 7 }
func (n *fakeNet) UserAgent() string                 { return "/n3node:1/" }
func (n *fakeNet) PeerCount() int                    { return len(n.peers) }
func (n *fakeNet) ConnectedPeers() []result.PeerInfo { return n.peers }
func (n *fakeNet) UnconnectedPeers() []string        { return []string{"1.2.3.4:20333", "bad", "[::1]:x"} }
func (n *fakeNet) BadPeers() []string                { return []string{"5.6.7.8:1"} }
func (n *fakeNet) RelayTx(*transaction.Transaction) error {
	n.relayed++
	return nil
}
func (n *fakeNet) RelayTxDirectly(*transaction.Transaction) error {
	n.direct++
	return nil
}

func TestNetwork(t *testing.T) {
	n := &fakeNet{peers: []result.PeerInfo{{Address: "9.9.9.9:30333", UserAgent: "/x/", Height: 5}, {Address: "nope"}}}
	l := newFakeLedger(3)
	f := newFixture(t, l, rpcserver.Config{DirectRelay: true}, chainrpc.Options{Network: n})
	require.Equal(t, "2", f.ok("getconnectioncount", `[]`))
	require.Equal(t, `{"unconnected":[{"address":"1.2.3.4","port":20333},{"address":"::1","port":0}],`+
		`"connected":[{"address":"9.9.9.9","port":30333,"useragent":"/x/","lastknownheight":5}],`+
		`"bad":[{"address":"5.6.7.8","port":1}]}`, f.ok("getpeers", `[]`))
	tx := transaction.New([]byte{0x11}, 5, 0, 0, 100)
	tx.Signers = []transaction.Signer{{Account: hash.Uint160{1}}}
	tx.Witnesses = []transaction.Witness{{}}
	f.ok("sendrawtransaction", `["`+base64.StdEncoding.EncodeToString(tx.Bytes())+`"]`)
	require.Equal(t, 1, n.direct, "DirectRelay sends directly")
	require.Empty(t, l.pool)

	// No network: empty peers, no connections.
	f = newFixture(t, l, rpcserver.Config{}, chainrpc.Options{})
	require.Equal(t, `{"unconnected":[],"connected":[],"bad":[]}`, f.ok("getpeers", `[]`))
	require.Equal(t, "0", f.ok("getconnectioncount", `[]`))
}

func TestVersion(t *testing.T) {
	l := newFakeLedger(2)
	l.cfg.Hardforks = map[string]uint32{"Echidna": 5, "Aspidochelone": 0, "Basilisk": 3}
	f := newFixture(t, l, rpcserver.Config{SessionEnabled: true, MaxIteratorResultItems: 7}, chainrpc.Options{Network: &fakeNet{}})
	require.Equal(t, `{"tcpport":20333,"nonce":7,"useragent":"/n3node:1/","protocol":{"addressversion":53,"network":42,`+
		`"msperblock":1000,"maxtraceableblocks":2102400,"maxvaliduntilblockincrement":5760,"maxtransactionsperblock":0,`+
		`"memorypoolmaxtransactions":0,"validatorscount":1,"initialgasdistribution":0,"hardforks":[{"name":"Aspidochelone","blockheight":0},`+
		`{"name":"Basilisk","blockheight":3},{"name":"Echidna","blockheight":5}],`+
		`"standbycommittee":["02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2"],"seedlist":null},`+
		`"rpc":{"maxiteratorresultitems":7,"sessionenabled":true}}`, f.ok("getversion", `[]`))
	l.cfg.KeepOnlyLatestState = true
	l.cfg.P2PSigExtensions = true
	v := f.ok("getversion", `[]`)
	require.Contains(t, v, `"p2psigextensions":true},"application":{"keeponlylateststate":true},"rpc":`)
	require.NotContains(t, v, "writespaused")
	l.paused = errors.New("no space left on device: 1 bytes free")
	require.Contains(t, f.ok("getversion", `[]`), `"rpc":{"maxiteratorresultitems":7,"sessionenabled":true},"writespaused":"no space left on device: 1 bytes free"}`)
	l.paused = nil
	l.cfg.StandbyCommittee = []string{"nope"}
	f.fails("getversion", `[]`, neorpc.InternalServerErrorCode, "")
}

func TestKeepOnlyLatestState(t *testing.T) {
	l := newFakeLedger(3)
	l.cfg.KeepOnlyLatestState = true
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{})
	const suffix = ": 'KeepOnlyLatestState' setting is enabled"
	root := "0x" + l.roots[1].RootHash.StringLE()
	f.fails("getproof", `["`+root+`","0x`+strings.Repeat("00", 20)+`","AA=="]`, neorpc.ErrUnsupportedStateCode, "'getproof' is not supported"+suffix)
	f.fails("verifyproof", `["`+root+`","AA=="]`, neorpc.ErrUnsupportedStateCode, "'verifyproof' is not supported"+suffix)
	f.fails("invokefunctionhistoric", `[1,"0x`+strings.Repeat("00", 20)+`","x"]`, neorpc.ErrUnsupportedStateCode, "only latest state is supported"+suffix)
	f.fails("getstate", `["`+root+`","0x`+strings.Repeat("00", 20)+`","AA=="]`, neorpc.ErrUnsupportedStateCode, "state-based methods are not supported for old states"+suffix)
	// The current root passes the check (and the fake's trie has nothing).
	cur := "0x" + l.roots[2].RootHash.StringLE()
	f.fails("getstate", `["`+cur+`","0x`+strings.Repeat("00", 20)+`","AA=="]`, neorpc.ErrUnknownContractCode, "Failed to get historical contract state: item not found")
}

func TestStateRoots(t *testing.T) {
	l := newFakeLedger(3)
	l.validated = 1
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{})
	require.Equal(t, `{"localrootindex":2,"validatedrootindex":1}`, f.ok("getstateheight", `[]`))
	l.cfg.StateRootInHeader = true
	require.Equal(t, `{"localrootindex":2,"validatedrootindex":1}`, f.ok("getstateheight", `[]`))
	require.Equal(t, `{"version":0,"index":1,"roothash":"0x`+l.roots[1].RootHash.StringLE()+`","witnesses":[]}`, f.ok("getstateroot", `[1]`))
	require.Equal(t, f.ok("getstateroot", `[1]`), f.ok("getstateroot", `["0x`+l.blocks[1].Hash().StringLE()+`"]`))
	f.fails("getstateroot", `["1"]`, neorpc.ErrUnknownStateRootCode, "")
	f.fails("getstateroot", `[-1]`, neorpc.InvalidParamsCode, "value should fit uint32")
	f.fails("getstateroot", `[]`, neorpc.InvalidParamsCode, "missing stateroot identifier")
	// Historic parameters: a block index, a block hash or a state root.
	f.fails("invokescripthistoric", `[1]`, neorpc.InvalidParamsCode, "Invalid params")
	f.fails("invokescripthistoric", `["0x`+strings.Repeat("ab", 32)+`","EQ=="]`, neorpc.InvalidParamsCode, "unknown block or stateroot: key not found")
	f.fails("invokescripthistoric", `["0x`+l.roots[1].RootHash.StringLE()+`","EQ=="]`, neorpc.InternalServerErrorCode, "failed to create historic VM: no VM in the fake")
	f.fails("invokescripthistoric", `["x","EQ=="]`, neorpc.InvalidParamsCode, "invalid block hash or index or stateroot hash: expected string size of 64 got 1")
}

func TestFindStoragePaging(t *testing.T) {
	l := newFakeLedger(2)
	cs := &state.Contract{}
	cs.ID, cs.Hash = 5, hash.Uint160{5}
	l.contracts[cs.Hash] = cs
	for i := range 7 {
		l.storage[5] = append(l.storage[5], result.KeyValue{Key: []byte{'a', byte('0' + i)}, Value: []byte{byte(i)}})
	}
	l.storage[5] = append(l.storage[5], result.KeyValue{Key: []byte("b"), Value: []byte("v")})
	f := newFixture(t, l, rpcserver.Config{MaxFindStorageResultItems: 3}, chainrpc.Options{})
	kv := func(k string, v byte) string {
		return `{"key":"` + base64.StdEncoding.EncodeToString([]byte(k)) + `","value":"` + base64.StdEncoding.EncodeToString([]byte{v}) + `"}`
	}
	require.Equal(t, `{"results":[`+kv("a0", 0)+`,`+kv("a1", 1)+`,`+kv("a2", 2)+`],"next":3,"truncated":true}`, f.ok("findstorage", `[5,"YQ=="]`))
	require.Equal(t, `{"results":[`+kv("a6", 6)+`],"next":7,"truncated":false}`, f.ok("findstorage", `["0x`+cs.Hash.StringLE()+`","YQ==",6]`))
	require.Equal(t, `{"results":[],"next":0,"truncated":false}`, f.ok("findstorage", `[99,""]`))
	f.fails("findstorage", `[5]`, neorpc.InvalidParamsCode, "Invalid params")
	f.fails("findstorage", `[5,"!"]`, neorpc.InvalidParamsCode, "invalid prefix: illegal base64 data at input byte 0")
	f.fails("findstorage", `[5,"","x"]`, neorpc.InvalidParamsCode, "invalid start: strconv.Atoi: parsing \"x\": invalid syntax")
	require.Equal(t, `"Ag=="`, f.ok("getstorage", `[5,"YTI="]`))
	f.fails("getstorage", `[5,"eA=="]`, neorpc.ErrUnknownStorageItemCode, "")
	f.fails("getstorage", `["0x`+strings.Repeat("11", 20)+`","eA=="]`, neorpc.ErrUnknownContractCode, "")
}

func TestTransfers(t *testing.T) {
	l := newFakeLedger(2)
	gas := &state.Contract{}
	gas.ID, gas.Hash = -6, hash.Uint160{6}
	l.contracts[gas.Hash] = gas
	nft := &state.Contract{}
	nft.ID, nft.Hash = 9, hash.Uint160{9}
	l.contracts[nft.Hash] = nft
	day := uint64(24 * 3600 * 1000)
	now := uint64(10_000_000) + 30*day
	for i := range 6 {
		amount := big.NewInt(int64(10 + i))
		if i%2 == 1 {
			amount.Neg(amount)
		}
		l.transfers = append(l.transfers, chainrpc.Transfer{Asset: -6, Counterparty: hash.Uint160{byte(i)}, Amount: amount,
			Block: uint32(100 - i), Timestamp: now - uint64(i)*2*day, Tx: hash.Uint256{byte(i)}})
	}
	l.transfers = append(l.transfers, chainrpc.Transfer{Asset: 9, Amount: big.NewInt(1), Timestamp: now - day, ID: []byte{1, 2}})
	l.transfers = append(l.transfers, chainrpc.Transfer{Asset: 77, Amount: big.NewInt(1), Timestamp: now - 20*day})
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{Now: func() time.Time { return time.UnixMilli(int64(now)) }})
	acc := `"0x` + strings.Repeat("01", 20) + `"`
	// The default window is the last 7 days: transfers 0..3.
	res := f.ok("getnep17transfers", `[`+acc+`]`)
	require.Equal(t, 2, strings.Count(res, `"blockindex":`)-strings.Count(res[strings.Index(res, `"received"`):], `"blockindex":`))
	require.Equal(t, 4, strings.Count(res, `"blockindex":`))
	require.Contains(t, res, `"sent":[{"timestamp":`+fmt.Sprint(now-2*day)+`,"assethash":"0x`+gas.Hash.StringLE()+`","transferaddress":"`)
	require.Contains(t, res, `"received":[{"timestamp":`+fmt.Sprint(now)+`,"assethash":"0x`+gas.Hash.StringLE()+`","amount":"10","blockindex":100,"transfernotifyindex":0,`)
	// Limit 2, page 1: transfers 2 and 3.
	res = f.ok("getnep17transfers", `[`+acc+`, 0, `+fmt.Sprint(now)+`, 2, 1]`)
	require.Contains(t, res, `"amount":"12","blockindex":98`)
	require.Contains(t, res, `"amount":"13","blockindex":97`)
	require.Equal(t, 2, strings.Count(res, `"blockindex":`))
	require.Contains(t, f.ok("getnep11transfers", `[`+acc+`, 0, `+fmt.Sprint(now)+`]`), `"tokenid":"0102","amount":"1"`)
	f.fails("getnep17transfers", `[`+acc+`, 0, `+fmt.Sprint(now)+`, 0]`, neorpc.InvalidParamsCode, "malformed timestamps/limit: can't use negative or zero limit")
	f.fails("getnep17transfers", `[`+acc+`, 0, `+fmt.Sprint(now)+`, 1001]`, neorpc.InvalidParamsCode, "malformed timestamps/limit: too big limit requested")
	f.fails("getnep17transfers", `[`+acc+`, 0, `+fmt.Sprint(now)+`, 10, -1]`, neorpc.InvalidParamsCode, "malformed timestamps/limit: can't use negative page")
	f.fails("getnep17transfers", `["bad"]`, neorpc.InvalidParamsCode, "Invalid params")
	// A transfer of an unknown contract breaks the log.
	f.fails("getnep17transfers", `[`+acc+`, 0, `+fmt.Sprint(now)+`]`, neorpc.InternalServerErrorCode, "invalid transfer log: contract 77 not found")
}

func TestNEP11Divisible(t *testing.T) {
	m := func(name string, ret smartcontract.ParamType, safe bool, params ...smartcontract.ParamType) manifest.Method {
		md := manifest.Method{Name: name, ReturnType: ret, Safe: safe, Parameters: []manifest.Parameter{}}
		for i, p := range params {
			md.Parameters = append(md.Parameters, manifest.Parameter{Name: fmt.Sprint("p", i), Type: p})
		}
		return md
	}
	h160, ba, in, it := smartcontract.Hash160Type, smartcontract.ByteArrayType, smartcontract.IntegerType, smartcontract.InteropInterfaceType
	var mf manifest.Manifest
	mf.ABI.Methods = []manifest.Method{
		m("decimals", in, true), m("symbol", smartcontract.StringType, true), m("totalSupply", in, true),
		m("balanceOf", in, true, h160), m("tokensOf", it, true, h160), m("transfer", smartcontract.BoolType, false, h160, ba, smartcontract.AnyType),
		m("balanceOf", in, true, h160, ba), m("ownerOf", it, true, ba),
		m("transfer", smartcontract.BoolType, false, h160, h160, in, ba, smartcontract.AnyType),
	}
	mf.ABI.Events = []manifest.Event{{Name: "Transfer", Parameters: []manifest.Parameter{{Type: h160}, {Type: h160}, {Type: in}, {Type: ba}}}}
	require.True(t, chainrpc.IsNEP11Divisible(&mf))
	mf.ABI.Methods = append(mf.ABI.Methods, m("tokens", in, true)) // optional method, wrong return type
	require.False(t, chainrpc.IsNEP11Divisible(&mf))
	mf.ABI.Methods = mf.ABI.Methods[:len(mf.ABI.Methods)-1]
	mf.ABI.Methods[7].ReturnType = h160 // ownerOf of a non-divisible token
	require.False(t, chainrpc.IsNEP11Divisible(&mf))
}

// fakeOracle records responses.
type fakeOracle struct{ got []uint64 }

func (o *fakeOracle) AddResponse(_ *keys.PublicKey, id uint64, _ []byte) { o.got = append(o.got, id) }

func TestSubmitOracleResponse(t *testing.T) {
	l := newFakeLedger(2)
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{})
	f.fails("submitoracleresponse", `[]`, neorpc.ErrOracleDisabledCode, "")
	o := &fakeOracle{}
	f = newFixture(t, l, rpcserver.Config{}, chainrpc.Options{Oracle: o})
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	pub := k.PublicKey().Bytes()
	txSig := []byte{1, 2, 3}
	msg := append(append(append([]byte{}, pub...), 5, 0, 0, 0, 0, 0, 0, 0), txSig...)
	sig := k.Sign(msg)
	b := base64.StdEncoding.EncodeToString
	params := func(s []byte) string { return fmt.Sprintf(`["%s", 5, "%s", "%s"]`, b(pub), b(txSig), b(s)) }
	require.Equal(t, `{}`, f.ok("submitoracleresponse", params(sig)))
	require.Equal(t, []uint64{5}, o.got)
	sig[0] ^= 1
	f.fails("submitoracleresponse", params(sig), neorpc.ErrInvalidSignatureCode, "")
	f.fails("submitoracleresponse", `["AA==", 5, "", ""]`, neorpc.InvalidParamsCode, "")
	f.fails("submitoracleresponse", fmt.Sprintf(`["%s", "x", "", ""]`, b(pub)), neorpc.InvalidParamsCode, `request ID is missing: strconv.Atoi: parsing "x": invalid syntax`)
	f.fails("submitoracleresponse", fmt.Sprintf(`["%s", 1]`, b(pub)), neorpc.InvalidParamsCode, "tx signature is missing: parameter is missing")
}

// fakeNotary is a notary pool.
type fakeNotary struct {
	reqs     []chainrpc.NotaryRequest
	relayErr error
}

func (n *fakeNotary) NotaryRequests() []chainrpc.NotaryRequest { return n.reqs }
func (n *fakeNotary) DecodeNotaryRequest(b []byte) (chainrpc.NotaryRequest, error) {
	if len(b) < 2 {
		return chainrpc.NotaryRequest{}, errors.New("too short")
	}
	return n.reqs[0], nil
}
func (n *fakeNotary) RelayNotaryRequest(chainrpc.NotaryRequest) error { return n.relayErr }

func TestNotary(t *testing.T) {
	l := newFakeLedger(3)
	mk := func(nonce uint32) *transaction.Transaction {
		tx := transaction.New([]byte{0x11}, nonce, 0, 0, 100)
		tx.Signers = []transaction.Signer{{Account: hash.Uint160{1}}}
		tx.Witnesses = []transaction.Witness{{}}
		return tx
	}
	main, fb1, fb2 := mk(1), mk(2), mk(3)
	n := &fakeNotary{reqs: []chainrpc.NotaryRequest{{Main: main, Fallback: fb1}, {Main: main, Fallback: fb2}}}
	f := newFixture(t, l, rpcserver.Config{}, chainrpc.Options{Notary: n})
	const off = "P2PSignatureExtensions are disabled"
	f.fails("getrawnotarypool", `[]`, neorpc.InternalServerErrorCode, off)
	f.fails("getrawnotarytransaction", `[]`, neorpc.InternalServerErrorCode, off)
	f.fails("submitnotaryrequest", `[]`, neorpc.InternalServerErrorCode, off)
	l.cfg.P2PSigExtensions = true
	h := func(tx *transaction.Transaction) string { return "0x" + tx.Hash().StringLE() }
	require.Equal(t, `{"hashes":{"`+h(main)+`":["`+h(fb1)+`","`+h(fb2)+`"]}}`, f.ok("getrawnotarypool", `[]`))
	require.Equal(t, `"`+base64.StdEncoding.EncodeToString(fb2.Bytes())+`"`, f.ok("getrawnotarytransaction", `["`+h(fb2)+`"]`))
	require.True(t, strings.HasPrefix(f.ok("getrawnotarytransaction", `["`+h(main)+`", true]`), `{"hash":"`+h(main)+`"`))
	f.fails("getrawnotarytransaction", `["0x`+strings.Repeat("00", 32)+`"]`, neorpc.ErrUnknownTransactionCode, "")
	require.Equal(t, `{"hash":"`+h(fb1)+`"}`, f.ok("submitnotaryrequest", `["AAAA"]`))
	f.fails("submitnotaryrequest", `["AA=="]`, neorpc.InvalidParamsCode, "can't decode notary payload: too short")
	n.relayErr = &chainrpc.RelayError{Code: neorpc.ErrAlreadyInPool, Err: errors.New("already exists in mempool")}
	f.fails("submitnotaryrequest", `["AAAA"]`, neorpc.ErrAlreadyInPoolCode, "already exists in mempool")
}

func TestCalculateNetworkFee(t *testing.T) {
	l := newFakeLedger(2)
	l.gas = 1000
	f := newFixture(t, l, rpcserver.Config{MaxGasInvoke: 100_0000_0000}, chainrpc.Options{})
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	tx := transaction.New([]byte{0x11}, 1, 0, 0, 100)
	tx.Signers = []transaction.Signer{{Account: k.ScriptHash()}}
	tx.Witnesses = []transaction.Witness{{VerificationScript: k.PublicKey().VerificationScript()}}
	// size with a dummy 66-byte invocation script, times FeePerByte 1000,
	// plus the 1000 of the witness.
	full := *tx
	full.Witnesses = []transaction.Witness{{InvocationScript: make([]byte, 66), VerificationScript: k.PublicKey().VerificationScript()}}
	want := int64(full.Size())*1000 + 1000
	require.Equal(t, fmt.Sprintf(`{"networkfee":"%d"}`, want), f.ok("calculatenetworkfee", `["`+base64.StdEncoding.EncodeToString(tx.Bytes())+`"]`))
	l.vwErr = errors.New("boom")
	f.fails("calculatenetworkfee", `["`+base64.StdEncoding.EncodeToString(tx.Bytes())+`"]`, neorpc.ErrInvalidSignatureCode, "witness 0: boom")
	// Contract signer without a deployed contract.
	tx.Witnesses[0].VerificationScript = nil
	f.fails("calculatenetworkfee", `["`+base64.StdEncoding.EncodeToString(tx.Bytes())+`"]`, neorpc.ErrInvalidVerificationFunctionCode,
		"signer 0 ("+neorpc.Uint160ToAddress(k.ScriptHash())+") has no verification script and no deployed contract")
	f.fails("calculatenetworkfee", `[]`, neorpc.InvalidParamsCode, "Invalid params")
	f.fails("calculatenetworkfee", `["AA=="]`, neorpc.InvalidParamsCode, "EOF")
}

func TestPublicKeyParams(t *testing.T) {
	// neo-go's key decoding texts (see pubkey.go), through the script
	// builder.
	for in, want := range map[string]string{
		"":     "param 0: EOF",
		"05":   "param 0: invalid prefix 5",
		"02":   "param 0: EOF",
		"0200": "param 0: unexpected EOF",
		"zz":   "param 0: encoding/hex: invalid byte: U+007A 'z'",
		"0000": "param 0: extra data",
	} {
		_, err := chainrpc.FunctionInvocationScript(hash.Uint160{}, "m", &neorpc.Param{RawMessage: []byte(`[{"type":"PublicKey","value":"` + in + `"}]`)})
		require.EqualError(t, err, want, in)
	}
	s, err := chainrpc.FunctionInvocationScript(hash.Uint160{}, "m", &neorpc.Param{RawMessage: []byte(`[{"type":"PublicKey","value":"00"}]`)})
	require.NoError(t, err)
	require.Equal(t, "0c0100", hex.EncodeToString(s[:3]))
}
