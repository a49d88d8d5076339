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
	chain   Ledger
	net     Network
	oracle  OracleHandler
	notary  Notary
	now     func() time.Time
	srv     *rpcserver.Server
	cfg     rpcserver.Config
	methods map[string]method
}

// method is a handler that does not need the request context.
type method func(neorpc.Params) (any, *neorpc.Error)

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
	s.methods = map[string]method{
		"calculatenetworkfee":          s.calculateNetworkFee,
		"findstates":                   s.findStates,
		"findstorage":                  s.findStorage,
		"findstoragehistoric":          s.findStorageHistoric,
		"getapplicationlog":            s.getApplicationLog,
		"getbestblockhash":             s.getBestBlockHash,
		"getblock":                     s.getBlock,
		"getblockcount":                s.getBlockCount,
		"getblockhash":                 s.getBlockHash,
		"getblockheader":               s.getBlockHeader,
		"getblockheadercount":          s.getBlockHeaderCount,
		"getblocknotifications":        s.getBlockNotifications,
		"getblocksysfee":               s.getBlockSysFee,
		"getcandidates":                s.getCandidates,
		"getcommittee":                 s.getCommittee,
		"getconnectioncount":           s.getConnectionCount,
		"getcontractstate":             s.getContractState,
		"getnativecontracts":           s.getNativeContracts,
		"getnep11balances":             s.getNEP11Balances,
		"getnep11properties":           s.getNEP11Properties,
		"getnep11transfers":            s.getNEP11Transfers,
		"getnep17balances":             s.getNEP17Balances,
		"getnep17transfers":            s.getNEP17Transfers,
		"getnextblockvalidators":       s.getNextBlockValidators,
		"getpeers":                     s.getPeers,
		"getproof":                     s.getProof,
		"getrawmempool":                s.getRawMempool,
		"getrawnotarypool":             s.getRawNotaryPool,
		"getrawnotarytransaction":      s.getRawNotaryTransaction,
		"getrawtransaction":            s.getRawTransaction,
		"getstate":                     s.getState,
		"getstateheight":               s.getStateHeight,
		"getstateroot":                 s.getStateRoot,
		"getstorage":                   s.getStorage,
		"getstoragehistoric":           s.getStorageHistoric,
		"gettransactionheight":         s.getTransactionHeight,
		"getunclaimedgas":              s.getUnclaimedGas,
		"getversion":                   s.getVersion,
		"invokecontainedscript":        s.invokeContainedScript,
		"invokecontractverify":         s.invokeContractVerify,
		"invokecontractverifyhistoric": s.invokeContractVerifyHistoric,
		"invokefunction":               s.invokeFunction,
		"invokefunctionhistoric":       s.invokeFunctionHistoric,
		"invokescript":                 s.invokeScript,
		"invokescripthistoric":         s.invokeScriptHistoric,
		"sendrawtransaction":           s.sendRawTransaction,
		"submitblock":                  s.submitBlock,
		"submitnotaryrequest":          s.submitNotaryRequest,
		"submitoracleresponse":         s.submitOracleResponse,
		"verifyproof":                  s.verifyProof,
	}
	return s
}

// Methods returns the names of the methods the service adds.
func (s *Service) Methods() []string {
	res := make([]string, 0, len(s.methods))
	for name := range s.methods {
		res = append(res, name)
	}
	return res
}

// Register adds every method to the server (which must not be started).
func (s *Service) Register() error {
	for name, m := range s.methods {
		if err := s.srv.Register(name, func(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
			return m(p)
		}); err != nil {
			return err
		}
	}
	return nil
}

// Call runs a method directly (tests, in-process clients).
func (s *Service) Call(name string, p neorpc.Params) (any, *neorpc.Error) {
	m, ok := s.methods[name]
	if !ok {
		return nil, neorpc.NewMethodNotFoundError("method \"" + name + "\" not supported")
	}
	return m(p)
}
