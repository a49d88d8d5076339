package rpcledger

import (
	"errors"
	"net"
	"strconv"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
)

// Network is a chainrpc.Network over the node's P2P server.
type Network struct {
	s         *network.Server
	userAgent string
	announced uint16
}

var _ chainrpc.Network = (*Network)(nil)

// NewNetwork adapts s; userAgent is what it sends in version messages and
// announced the port it announces to peers (0: the port it listens on).
func NewNetwork(s *network.Server, userAgent string, announced uint16) *Network {
	return &Network{s: s, userAgent: userAgent, announced: announced}
}

// errNoListener is getversion's error when the node does not listen.
var errNoListener = errors.New("no P2P listener")

// Port returns the port peers reach the node on: the announced port, else
// the first listener's.
func (n *Network) Port() (uint16, error) {
	if n.announced != 0 {
		return n.announced, nil
	}
	addrs := n.s.ListenAddrs()
	if len(addrs) == 0 {
		return 0, errNoListener
	}
	_, p, err := net.SplitHostPort(addrs[0])
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(p, 10, 16)
	return uint16(v), err
}

// ID implements chainrpc.Network.
func (n *Network) ID() uint32 { return n.s.ID() }

// UserAgent implements chainrpc.Network.
func (n *Network) UserAgent() string { return n.userAgent }

// PeerCount implements chainrpc.Network.
func (n *Network) PeerCount() int { return n.s.PeerCount() }

// ConnectedPeers implements chainrpc.Network.
func (n *Network) ConnectedPeers() []result.PeerInfo {
	ps := n.s.ConnectedPeers()
	res := make([]result.PeerInfo, len(ps))
	for i, p := range ps {
		res[i] = result.PeerInfo{Address: p.Address, UserAgent: p.UserAgent, Height: p.Height}
	}
	return res
}

// UnconnectedPeers implements chainrpc.Network.
func (n *Network) UnconnectedPeers() []string { return n.s.UnconnectedPeers() }

// BadPeers implements chainrpc.Network.
func (n *Network) BadPeers() []string { return n.s.BadPeers() }

// RelayTx pools tx through the ledger, announces it and classifies the
// ledger's errors for the answer.
func (n *Network) RelayTx(tx *transaction.Transaction) error {
	return ClassifyRelayError(n.s.RelayTx(tx))
}
