package oracle

import (
	"math"
	"slices"

	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/wallet"
)

// updateNodes reads the latest Oracle designation (the one the ledger
// checks response signers against) and picks the signing key: the first
// designated node whose key we have (neo-go UpdateOracleNodes).
func (s *Service) updateNodes() {
	nodes, _, err := s.cfg.Chain.GetDesignatedByRole(noderoles.Oracle, math.MaxUint32)
	if err != nil {
		s.log.Error("can't read the oracle nodes", "err", err)
		return
	}
	s.UpdateOracleNodes(nodes)
}

// UpdateOracleNodes sets the designated Oracle nodes (sorted, as
// RoleManagement stores them).
func (s *Service) UpdateOracleNodes(nodes []*keys.PublicKey) {
	s.accMu.Lock()
	defer s.accMu.Unlock()
	if slices.EqualFunc(s.nodes, nodes, (*keys.PublicKey).Equal) && s.nodes != nil {
		return
	}
	_, priv := wallet.DesignatedKey(s.keys, nodes)
	s.priv = priv
	s.nodes = slices.Clone(nodes)
	s.signScript = nil
	if len(nodes) > 0 {
		s.signScript, _ = smartcontract.CreateDefaultMultiSigRedeemScript(nodes)
	}
	if priv != nil {
		s.log.Info("oracle nodes updated; this node is one of them", "nodes", len(nodes), "key", priv.PublicKey().StringCompressed())
	} else {
		s.log.Info("oracle nodes updated; this node is not one of them", "nodes", len(nodes))
	}
}

func (s *Service) signer() *keys.PrivateKey {
	s.accMu.RLock()
	defer s.accMu.RUnlock()
	return s.priv
}

func (s *Service) oracleNodes() ([]*keys.PublicKey, []byte) {
	s.accMu.RLock()
	defer s.accMu.RUnlock()
	return s.nodes, s.signScript
}

func (s *Service) isOracleNode(pub *keys.PublicKey) bool {
	s.accMu.RLock()
	defer s.accMu.RUnlock()
	return slices.ContainsFunc(s.nodes, pub.Equal)
}
