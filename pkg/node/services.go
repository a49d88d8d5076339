package node

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/statesync"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/services/notary"
	"github.com/n3node/n3node/pkg/services/oracle"
	"github.com/n3node/n3node/pkg/services/stateroot"
	"github.com/n3node/n3node/pkg/wallet"
)

// ServiceOptions are the settings of the node services that do not come
// from the configuration (Options embeds them).
type ServiceOptions struct {
	// StateSyncRoot is the state root the node trusts for its state sync
	// point (see TrustedRoot). It is required for a state sync to get past
	// the headers: without it (or with another height) the node waits
	// and logs the height whose root it needs. Only valid with
	// P2PStateExchangeExtensions and RemoveUntraceableBlocks.
	StateSyncRoot *TrustedRoot
	// OracleHTTPClient replaces the Oracle service's HTTP client (nil:
	// oracle.NewHTTPClient of ApplicationConfiguration.Oracle).
	OracleHTTPClient oracle.HTTPClient
}

// TrustedRoot is a state root given by the operator: the root hash of the
// contract storage after block Index (getstateroot Index on a node one
// trusts, or a StateService-validated root).
type TrustedRoot struct {
	Index uint32
	Root  hash.Uint256
}

// ParseTrustedRoot reads "INDEX:ROOTHASH" (the hash in the RPC form,
// with or without 0x).
func ParseTrustedRoot(s string) (TrustedRoot, error) {
	i, h, ok := strings.Cut(s, ":")
	if !ok {
		return TrustedRoot{}, fmt.Errorf("trusted state root %q: want INDEX:ROOTHASH", s)
	}
	idx, err := strconv.ParseUint(i, 10, 32)
	if err != nil {
		return TrustedRoot{}, fmt.Errorf("trusted state root %q: index: %w", s, err)
	}
	root, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(h, "0x"))
	if err != nil {
		return TrustedRoot{}, fmt.Errorf("trusted state root %q: hash: %w", s, err)
	}
	return TrustedRoot{Index: uint32(idx), Root: root}, nil
}

// Errors of the service settings.
var (
	// ErrStateSyncRoot: a trusted state root was given to a node that
	// does not sync state.
	ErrStateSyncRoot = errors.New("a trusted state sync root needs P2PStateExchangeExtensions and RemoveUntraceableBlocks")
	// ErrNotaryWithoutExtensions: P2PNotary is enabled on a network
	// without P2PSigExtensions (neo-go refuses it too).
	ErrNotaryWithoutExtensions = errors.New("P2PSigExtensions are disabled, but the P2PNotary service is enabled")
	// ErrStateRootInHeader: the StateService signs roots, which
	// StateRootInHeader networks carry in headers (neo-go refuses it).
	ErrStateRootInHeader = errors.New("StateRootInHeader should be disabled when the StateRoot service is enabled")
)

// services are the node's optional services (see buildServices).
type services struct {
	stateRoot  *stateroot.Service
	stateSync  *statesync.Module
	notaryPool *notary.RequestPool
	notary     *notary.Service
	oracle     *oracle.Service
	notaryFeed *notaryFeed

	opts ServiceOptions
	// wallets caches unlocked wallets (NEP-2 decryption is slow on
	// purpose; services often share the consensus wallet).
	wallets map[config.Wallet][]*keys.PrivateKey
	// warnedRoot is the last sync point whose missing root was logged.
	warnedRoot atomic.Uint32
}

// buildServices makes the services around the chain and the P2P server
// (after both exist, before RPC):
//
//   - the StateService on every node: it verifies and stores the state
//     roots the state validators sign (getstateheight's
//     validatedrootindex); with StateRoot.Enabled it signs with the
//     wallet's designated StateValidator key;
//   - with P2PStateExchangeExtensions, the state sync module: MPT nodes
//     served to peers, and with RemoveUntraceableBlocks a node far behind
//     fetches the state of a sync point (neo-go's condition);
//   - with P2PSigExtensions, the notary request pool (P2P, RPC and
//     WebSocket), and the notary service when P2PNotary is enabled;
//   - the Oracle service when Oracle is enabled.
func (n *Node) buildServices(opts ServiceOptions) error {
	s := &n.svc
	s.opts = opts
	s.wallets = make(map[config.Wallet][]*keys.PrivateKey)
	if n.keys != nil {
		s.wallets[n.cfg.ApplicationConfiguration.Consensus.UnlockWallet] = n.keys
	}
	app := &n.cfg.ApplicationConfiguration
	proto := n.chain.Config()

	// StateService.
	sr, err := n.buildStateRoot(app.StateRoot)
	if err != nil {
		return err
	}
	s.stateRoot = sr
	n.p2p.AddExtensibleHandler(stateroot.Category, sr.OnPayload)

	// State sync.
	syncState := proto.P2PStateExchangeExtensions && proto.RemoveUntraceableBlocks
	if opts.StateSyncRoot != nil && !syncState {
		return ErrStateSyncRoot
	}
	if proto.P2PStateExchangeExtensions {
		s.stateSync = statesync.New(statesync.Config{
			Sync:               syncState,
			Interval:           uint32(proto.StateSyncInterval),
			MaxTraceableBlocks: proto.MaxTraceableBlocks,
			Mode:               coreroot.ModeFor(proto.Ledger),
			Root:               n.trustedRoot,
			Logger:             n.log,
		}, n.chain)
		n.p2p.SetStateSync(s.stateSync)
	}

	// Notary.
	if app.P2PNotary.Enabled && !proto.P2PSigExtensions {
		return ErrNotaryWithoutExtensions
	}
	if proto.P2PSigExtensions {
		s.notaryPool = notary.NewRequestPool(n.chain, proto.P2PNotaryRequestPayloadPoolSize)
		s.notaryPool.SetAnnouncer(n.p2p.BroadcastNotaryRequest)
		n.p2p.SetNotaryRequestPool(s.notaryPool)
	}
	if s.notary, err = n.buildNotary(app.P2PNotary); err != nil {
		return err
	}

	// Oracle.
	s.oracle, err = n.buildOracle(app.Oracle)
	return err
}

// buildStateRoot makes the StateService of the StateRoot section (it
// verifies validated roots without keys, signs with them).
func (n *Node) buildStateRoot(c config.StateRoot) (*stateroot.Service, error) {
	proto := n.chain.Config()
	var srKeys []*keys.PrivateKey
	if c.Enabled {
		if proto.StateRootInHeader {
			return nil, ErrStateRootInHeader
		}
		var err error
		if srKeys, err = n.svc.unlock("StateRoot", c.UnlockWallet); err != nil {
			return nil, err
		}
	}
	sr, err := stateroot.New(stateroot.Config{
		Magic:        uint32(proto.Magic),
		TimePerBlock: proto.TimePerBlock,
		Keys:         srKeys,
		Logger:       n.log.With("module", "stateroot"),
	}, stateroot.ChainLedger(n.chain), func(e *payload.Extensible) {
		if err := n.p2p.BroadcastExtensible(e); err != nil {
			n.log.Debug("StateService payload not broadcast", "err", err)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("StateRoot service: %w", err)
	}
	return sr, nil
}

// buildNotary makes the notary service of the P2PNotary section (nil
// when it is off).
func (n *Node) buildNotary(c config.P2PNotary) (*notary.Service, error) {
	if !c.Enabled {
		return nil, nil
	}
	if n.svc.notaryPool == nil {
		return nil, ErrNotaryWithoutExtensions
	}
	ks, err := n.svc.unlock("P2PNotary", c.UnlockWallet)
	if err != nil {
		return nil, err
	}
	s, err := notary.New(notary.Config{
		Chain:         n.chain,
		Pool:          n.svc.notaryPool,
		Main:          c,
		Keys:          ks,
		OnTransaction: n.relayServiceTx,
		Logger:        n.log,
	})
	if err != nil {
		return nil, fmt.Errorf("P2PNotary service: %w", err)
	}
	return s, nil
}

// buildOracle makes the Oracle service of the Oracle section (nil when
// it is off).
func (n *Node) buildOracle(c config.OracleConfiguration) (*oracle.Service, error) {
	if !c.Enabled {
		return nil, nil
	}
	ks, err := n.svc.unlock("Oracle", c.UnlockWallet)
	if err != nil {
		return nil, err
	}
	s, err := oracle.New(oracle.Config{
		Chain:         n.chain,
		Main:          c,
		Keys:          ks,
		HTTPClient:    n.svc.opts.OracleHTTPClient,
		OnTransaction: n.relayServiceTx,
		Logger:        n.log,
	})
	if err != nil {
		return nil, fmt.Errorf("Oracle service: %w", err)
	}
	return s, nil
}

// unlock returns the keys of every account of w the password opens (each
// distinct NEP-2 key decrypted once), from the cache when another
// service opened the same wallet.
func (s *services) unlock(service string, w config.Wallet) ([]*keys.PrivateKey, error) {
	if ks, ok := s.wallets[w]; ok {
		return ks, nil
	}
	ks, err := wallet.ReadKeys(w)
	if err != nil {
		return nil, fmt.Errorf("%s wallet: %w", service, err)
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("%s wallet %s: no account could be unlocked", service, w.Path)
	}
	s.wallets[w] = ks
	return ks, nil
}

// relayServiceTx pools and announces a transaction the oracle or notary
// service completed; one the node already has is not an error (neo-go's
// notary callback).
func (n *Node) relayServiceTx(tx *transaction.Transaction) error {
	err := n.p2p.RelayTx(tx)
	if errors.Is(err, core.ErrAlreadyExists) || errors.Is(err, core.ErrAlreadyInPool) {
		return nil
	}
	return err
}

// errNoTrustedRoot: the state sync waits for the operator's root.
var errNoTrustedRoot = errors.New("no trusted state root for the sync point")

// trustedRoot is the state sync module's root source: the operator's
// root when it is of sync point p; on a StateRootInHeader network the
// PrevStateRoot of header p+1 once the (verified) header chain has it, as
// neo-go takes it. Otherwise the sync waits (the module asks again), and
// the node says once per point what it needs.
func (n *Node) trustedRoot(p uint32) (*coreroot.Root, error) {
	if r := n.svc.opts.StateSyncRoot; r != nil && r.Index == p {
		return &coreroot.Root{Index: p, RootHash: r.Root}, nil
	}
	if n.chain.Config().StateRootInHeader && n.chain.HeaderHeight() > p {
		h, err := n.chain.GetHeaderByIndex(p + 1)
		if err != nil {
			return nil, fmt.Errorf("header %d: %w", p+1, err)
		}
		return &coreroot.Root{Index: p, RootHash: h.PrevStateRoot}, nil
	}
	if n.svc.warnedRoot.Swap(p) != p {
		attrs := []any{"point", p}
		if r := n.svc.opts.StateSyncRoot; r != nil {
			attrs = append(attrs, "given", r.Index)
		}
		n.log.Warn("state sync waits for the trusted state root of its sync point: restart with --statesync-root POINT:ROOTHASH (getstateroot POINT on a node you trust)", attrs...)
	}
	return nil, fmt.Errorf("%w %d", errNoTrustedRoot, p)
}

// rpcOptions are the chain methods' services: the P2P server, the
// Oracle service (submitoracleresponse) and the notary request pool.
func (n *Node) rpcOptions() chainrpc.Options {
	o := chainrpc.Options{Network: n.rpcNetwork()}
	if n.svc.oracle != nil {
		o.Oracle = n.svc.oracle
	}
	if n.svc.notaryPool != nil {
		o.Notary = rpcledger.NewNotary(n.svc.notaryPool)
	}
	return o
}

// startServices starts what runs from the start, before the P2P server:
// the StateService (validated roots arrive during sync too; it does not
// vote for blocks it replays), the notary request pool and its
// WebSocket feed.
func (n *Node) startServices() {
	s := &n.svc
	s.stateRoot.Start()
	if s.notaryPool != nil {
		s.notaryPool.Start()
		if n.rpc != nil {
			s.notaryFeed = startNotaryFeed(n.rpc, s.notaryPool.Pool())
		}
	}
}

// startLateServices starts, once the node is synchronized, the services
// that act on new blocks only (as neo-go starts them): the oracle and
// the notary service. The caller holds lateMu.
func (n *Node) startLateServices() {
	s := &n.svc
	if s.oracle != nil {
		s.oracle.Start()
	}
	if s.notary != nil {
		s.notary.Start()
	}
}

// stopLateServices stops what startLateServices started (the services
// stop only what they started). The caller holds lateMu.
func (n *Node) stopLateServices() {
	s := &n.svc
	if s.oracle != nil {
		s.oracle.Shutdown()
	}
	if s.notary != nil {
		s.notary.Shutdown()
	}
}

// stopServices stops what startServices started.
func (n *Node) stopServices() {
	s := &n.svc
	if s.stateRoot != nil {
		s.stateRoot.Shutdown()
	}
	if s.notaryFeed != nil {
		s.notaryFeed.stop()
	}
	if s.notaryPool != nil {
		s.notaryPool.Shutdown()
	}
}

// StateRootService returns the StateService (after New).
func (n *Node) StateRootService() *stateroot.Service { return n.svc.stateRoot }

// OracleService returns the Oracle service (nil unless enabled).
func (n *Node) OracleService() *oracle.Service { return n.svc.oracle }

// NotaryRequestPool returns the notary request pool (nil without
// P2PSigExtensions).
func (n *Node) NotaryRequestPool() *notary.RequestPool { return n.svc.notaryPool }

// NotaryService returns the notary service (nil unless enabled).
func (n *Node) NotaryService() *notary.Service { return n.svc.notary }
