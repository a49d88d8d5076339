package chainrpc

import (
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
)

// writesPauser is the optional Ledger method getversion reports a paused
// database with (core.Blockchain.WritesPaused).
type writesPauser interface{ WritesPaused() error }

func (s *Service) getVersion(*args) (any, *neorpc.Error) {
	res := &result.Version{
		RPC: result.RPC{
			MaxIteratorResultItems:  s.cfg.MaxIteratorResultItems,
			SessionEnabled:          s.cfg.SessionEnabled,
			SessionExpansionEnabled: s.cfg.SessionExpansionEnabled,
		},
	}
	if s.net != nil {
		port, err := s.net.Port()
		if err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("cannot fetch tcp port: %s", err))
		}
		res.TCPPort, res.Nonce, res.UserAgent = port, s.net.ID(), s.net.UserAgent()
	}
	cfg := s.chain.Config()
	committee := make([]string, len(cfg.StandbyCommittee))
	for i, k := range cfg.StandbyCommittee {
		pub, err := keys.NewPublicKeyFromString(k)
		if err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("cannot fetch standbyCommittee: %s", err))
		}
		committee[i] = pub.StringCompressed()
	}
	res.Protocol = result.Protocol{
		// From the configuration.
		Network:                   uint32(cfg.Magic),
		AddressVersion:            address.Version,
		StandbyCommittee:          committee,
		ValidatorsCount:           byte(cfg.GetNumOfCNs(s.chain.BlockHeight())),
		CommitteeHistory:          cfg.CommitteeHistory,
		ValidatorsHistory:         cfg.ValidatorsHistory,
		SeedList:                  cfg.SeedList, // null if not configured, as neo-go
		Hardforks:                 result.HardforkList(cfg.Hardforks),
		InitialGasDistribution:    int64(cfg.InitialGASSupply),
		MemoryPoolMaxTransactions: cfg.MemPoolSize,
		MaxTransactionsPerBlock:   cfg.MaxTransactionsPerBlock,
		StateRootInHeader:         cfg.StateRootInHeader,
		P2PSigExtensions:          cfg.P2PSigExtensions,
		// Policy's values of the current height.
		MillisecondsPerBlock:        int(s.chain.GetMillisecondsPerBlock()),
		MaxValidUntilBlockIncrement: s.chain.GetMaxValidUntilBlockIncrement(),
		MaxTraceableBlocks:          s.chain.GetMaxTraceableBlocks(),
	}
	res.Application = result.Application{
		KeepOnlyLatestState:     cfg.KeepOnlyLatestState,
		SaveInvocations:         cfg.SaveInvocations,
		RemoveUntraceableBlocks: cfg.RemoveUntraceableBlocks,
	}
	if w, ok := s.chain.(writesPauser); ok {
		if err := w.WritesPaused(); err != nil {
			res.WritesPaused = err.Error()
		}
	}
	return res, nil
}

func (s *Service) getConnectionCount(*args) (any, *neorpc.Error) {
	if s.net == nil {
		return 0, nil
	}
	return s.net.PeerCount(), nil
}

func (s *Service) getPeers(*args) (any, *neorpc.Error) {
	res := result.NewGetPeers()
	if s.net != nil {
		res.AddUnconnected(s.net.UnconnectedPeers())
		res.AddConnected(s.net.ConnectedPeers())
		res.AddBad(s.net.BadPeers())
	}
	return &res, nil
}
