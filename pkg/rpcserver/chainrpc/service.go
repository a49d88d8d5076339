package chainrpc

import (
	"context"
	"time"

	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcserver"
)

// Options are the optional parts of a Service.
type Options struct {
	// Network is the P2P server (nil: none, see Network).
	Network Network
	// Oracle takes oracle responses (nil: submitoracleresponse answers
	// "Oracle service is not running").
	Oracle OracleHandler
	// Notary is the notary request pool (used with P2PSigExtensions).
	Notary Notary
	// Now tells the time (getnep1xtransfers default range); nil is the
	// wall clock.
	Now func() time.Time
}

// Service implements the chain methods over a Ledger. Make one with New,
// then Register it on a server before the server starts.
type Service struct {
	chain  Ledger
	net    Network
	oracle OracleHandler
	notary Notary
	now    func() time.Time
	srv    *rpcserver.Server
	cfg    rpcserver.Config
}

// method is one entry of the table: its declared parameters and its
// handler, which gets them decoded.
type method struct {
	params []step
	run    func(s *Service, a *args) (any, *neorpc.Error)
}

// New makes the service of chain; srv provides the settings (MaxGasInvoke,
// sessions, limits) and the session store.
func New(chain Ledger, srv *rpcserver.Server, o Options) *Service {
	s := &Service{
		chain:  chain,
		net:    o.Network,
		oracle: o.Oracle,
		notary: o.Notary,
		now:    o.Now,
		srv:    srv,
		cfg:    srv.Config(),
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// none declares a method without parameters.
var none []step

// methods is the one index of the service: every method, what it reads
// and which handler answers it. The step lists are in the order neo-go
// checks them (see params.go).
var methods = map[string]method{
	// Blocks and transactions (blocks.go).
	"getbestblockhash":      {none, (*Service).getBestBlockHash},
	"getblockcount":         {none, (*Service).getBlockCount},
	"getblockheadercount":   {none, (*Service).getBlockHeaderCount},
	"getblock":              {[]step{blockRef(), verbose()}, (*Service).getBlock},
	"getblockhash":          {[]step{height()}, (*Service).getBlockHash},
	"getblockheader":        {[]step{blockRef(), verbose()}, (*Service).getBlockHeader},
	"getblocksysfee":        {[]step{withData(height(), "invalid block height: %s")}, (*Service).getBlockSysFee},
	"getrawtransaction":     {[]step{hash256(""), verbose()}, (*Service).getRawTransaction},
	"gettransactionheight":  {[]step{hash256("")}, (*Service).getTransactionHeight},
	"getrawmempool":         {[]step{verbose()}, (*Service).getRawMempool},
	"getapplicationlog":     {[]step{hash256(""), optional(triggerName())}, (*Service).getApplicationLog},
	"getblocknotifications": {[]step{blockRef(), optional(notificationFilter())}, (*Service).getBlockNotifications},

	// Contracts, storage and governance (contracts.go).
	"getcontractstate":       {[]step{contract()}, (*Service).getContractState},
	"getnativecontracts":     {none, (*Service).getNativeContracts},
	"getstorage":             {[]step{contractID(), base64Bytes("")}, (*Service).getStorage},
	"findstorage":            {findStorageParams, (*Service).findStorage},
	"getcommittee":           {none, (*Service).getCommittee},
	"getcandidates":          {none, (*Service).getCandidates},
	"getnextblockvalidators": {none, (*Service).getNextBlockValidators},
	"getunclaimedgas":        {[]step{account("")}, (*Service).getUnclaimedGas},

	// State roots, historic state and proofs (state.go).
	"getstateheight":      {none, (*Service).getStateHeight},
	"getstateroot":        {[]step{stateRootRef()}, (*Service).getStateRoot},
	"getproof":            {[]step{wholeStateOnly("'getproof' is not supported"), hash256(""), hash160(""), base64Bytes("")}, (*Service).getProof},
	"verifyproof":         {[]step{wholeStateOnly("'verifyproof' is not supported"), hash256(""), text("")}, (*Service).verifyProof},
	"getstate":            {[]step{stateRoot(), hash160("invalid contract hash"), base64Bytes("invalid key")}, (*Service).getState},
	"findstates":          {[]step{stateRoot(), hash160("invalid contract hash: %s"), base64Bytes("invalid prefix: %s"), keyInPrefix(), optional(integer("invalid count: %s"))}, (*Service).findStates},
	"getstoragehistoric":  {[]step{stateRoot(), atLeast(1, neorpc.ErrInvalidParams), contractID(), base64Bytes("")}, (*Service).getStorage},
	"findstoragehistoric": {append([]step{stateRoot(), atLeast(1, neorpc.ErrInvalidParams)}, findStorageParams...), (*Service).findStorage},

	// Test invocations (invoke.go).
	"invokefunction":               {invokeFunctionParams, (*Service).invokeFunction},
	"invokefunctionhistoric":       {historic(invokeFunctionParams...), (*Service).invokeFunction},
	"invokescript":                 {invokeScriptParams, (*Service).invokeScript},
	"invokescripthistoric":         {historic(invokeScriptParams...), (*Service).invokeScript},
	"invokecontractverify":         {contractVerifyParams, (*Service).invokeContractVerify},
	"invokecontractverifyhistoric": {historic(contractVerifyParams...), (*Service).invokeContractVerify},
	"invokecontainedscript":        {containedScriptParams, (*Service).invokeContainedScript},
	"calculatenetworkfee":          {[]step{atLeast(1, neorpc.ErrInvalidParams), transactionBytes("%s")}, (*Service).calculateNetworkFee},

	// Token balances and transfers (tokens.go).
	"getnep17balances":   {[]step{account("")}, (*Service).getNEP17Balances},
	"getnep11balances":   {[]step{account("")}, (*Service).getNEP11Balances},
	"getnep11properties": {[]step{account(""), hexBytes("")}, (*Service).getNEP11Properties},
	"getnep17transfers":  {[]step{account(""), transferWindow()}, (*Service).getNEP17Transfers},
	"getnep11transfers":  {[]step{account(""), transferWindow()}, (*Service).getNEP11Transfers},

	// Relaying and the services behind it (relay.go).
	"sendrawtransaction":      {[]step{atLeast(1, neorpc.NewInvalidParamsError("not enough parameters")), rawTransaction()}, (*Service).sendRawTransaction},
	"submitblock":             {[]step{rawBlock()}, (*Service).submitBlock},
	"submitoracleresponse":    {oracleResponseParams, (*Service).submitOracleResponse},
	"submitnotaryrequest":     {[]step{notaryOn, base64Bytes("not a base64: %s")}, (*Service).submitNotaryRequest},
	"getrawnotarypool":        {[]step{notaryOn}, (*Service).getRawNotaryPool},
	"getrawnotarytransaction": {[]step{notaryOn, hash256(""), verbose()}, (*Service).getRawNotaryTransaction},

	// The node (node.go).
	"getversion":         {none, (*Service).getVersion},
	"getconnectioncount": {none, (*Service).getConnectionCount},
	"getpeers":           {none, (*Service).getPeers},
}

// Methods returns the names of the methods the service adds.
func (s *Service) Methods() []string {
	res := make([]string, 0, len(methods))
	for name := range methods {
		res = append(res, name)
	}
	return res
}

// Register adds every method to the server (which must not be started).
func (s *Service) Register() error {
	for name := range methods {
		if err := s.srv.Register(name, func(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
			return s.Call(name, p)
		}); err != nil {
			return err
		}
	}
	return nil
}

// Call runs a method directly (tests, in-process clients).
func (s *Service) Call(name string, p neorpc.Params) (any, *neorpc.Error) {
	m, ok := methods[name]
	if !ok {
		return nil, neorpc.NewMethodNotFoundError("method \"" + name + "\" not supported")
	}
	a, rerr := s.decode(m.params, p)
	if rerr != nil {
		return nil, rerr
	}
	return m.run(s, a)
}

// Parameter lists shared by several methods of the table.

// Parameters of the invoke methods (after the state point of the
// *historic ones).
var (
	invokeFunctionParams = []step{
		atLeast(2, neorpc.ErrInvalidParams),
		contract(),
		text(""),
		optional(callArgs()),
		signers(),
		optional(flag("")),
	}
	invokeScriptParams   = []step{base64Bytes(""), signers(), optional(flag(""))}
	contractVerifyParams = []step{contract(), optional(verifyArgs()), signers()}
	// invokecontainedscript: a fake transaction and block header, a
	// trigger and verbose.
	containedScriptParams = []step{
		atLeast(1, neorpc.ErrInvalidParams),
		fakeTransaction(),
		fakeBlock(),
		optional(containedTrigger()),
		optional(flag("invalid verbose parameter: %s")),
	}
)

// findStorageParams are the parameters of findstorage (after the state
// root for findstoragehistoric).
var findStorageParams = []step{
	atLeast(2, neorpc.ErrInvalidParams),
	contractID(),
	base64Bytes("invalid prefix: %s"),
	optional(integer("invalid start: %s")),
}

// oracleResponseParams: the node's key, the request id, the transaction
// signature and the signature of the message.
var oracleResponseParams = []step{
	needs(func(s *Service) bool { return s.oracle != nil }, func() *neorpc.Error { return neorpc.ErrOracleDisabled }),
	oracleNodeKey(),
	integer("request ID is missing: %s"),
	base64Bytes("tx signature is missing: %s"),
	base64Bytes("msg signature is missing: %s"),
}

// notaryOn requires P2PSigExtensions and a notary request pool.
var notaryOn = needs(func(s *Service) bool { return s.chain.Config().P2PSigExtensions && s.notary != nil }, errP2PSigExtensions)
