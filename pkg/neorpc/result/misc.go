package result

import (
	"encoding/json"
	"net"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
)

// RawMempool is a verbose getrawmempool result.
type RawMempool struct {
	Height     uint32         `json:"height"`
	Verified   []hash.Uint256 `json:"verified"`
	Unverified []hash.Uint256 `json:"unverified"`
}

// RelayResult is a sendrawtransaction, submitblock or submitnotaryrequest
// result.
type RelayResult struct {
	Hash hash.Uint256 `json:"hash"`
}

// NetworkFee is a calculatenetworkfee result (datoshi, as a string).
type NetworkFee struct {
	Value int64 `json:"networkfee,string"`
}

// ValidateAddress is a validateaddress result; Address echoes the
// parameter as given.
type ValidateAddress struct {
	Address any  `json:"address"`
	IsValid bool `json:"isvalid"`
}

// GetPeers is a getpeers result.
type GetPeers struct {
	Unconnected Peers `json:"unconnected"`
	Connected   Peers `json:"connected"`
	Bad         Peers `json:"bad"`
}

// Peers is a list of peers.
type Peers []Peer

// Peer is a peer address; connected peers also have their user agent and
// last known height.
type Peer struct {
	Address         string `json:"address"`
	Port            uint16 `json:"port"`
	UserAgent       string `json:"useragent,omitzero"`
	LastKnownHeight uint32 `json:"lastknownheight,omitzero"`
}

// PeerInfo describes a connected peer.
type PeerInfo struct {
	Address   string // host:port
	UserAgent string
	Height    uint32
}

// NewGetPeers returns an empty (non-null lists) result.
func NewGetPeers() GetPeers {
	return GetPeers{Unconnected: Peers{}, Connected: Peers{}, Bad: Peers{}}
}

// AddUnconnected adds host:port addresses (others are skipped).
func (g *GetPeers) AddUnconnected(addrs []string) { g.Unconnected.addPeers(addrs) }

// AddBad adds host:port addresses (others are skipped).
func (g *GetPeers) AddBad(addrs []string) { g.Bad.addPeers(addrs) }

// AddConnected adds connected peers (addresses that are not host:port are
// skipped).
func (g *GetPeers) AddConnected(peers []PeerInfo) {
	for _, p := range peers {
		host, port, err := parseHostPort(p.Address)
		if err != nil {
			continue
		}
		g.Connected = append(g.Connected, Peer{Address: host, Port: port, UserAgent: p.UserAgent, LastKnownHeight: p.Height})
	}
}

func (p *Peers) addPeers(addrs []string) {
	for _, a := range addrs {
		host, port, err := parseHostPort(a)
		if err != nil {
			continue
		}
		*p = append(*p, Peer{Address: host, Port: port})
	}
}

// parseHostPort splits host:port; a bad port gives 0 (as neo-go).
func parseHostPort(addr string) (host string, port uint16, err error) {
	host, p, err := net.SplitHostPort(addr)
	if err == nil {
		n, _ := strconv.ParseUint(p, 10, 16)
		port = uint16(n)
	}
	return host, port, err
}

// RawNotaryPool is a getrawnotarypool result: main transaction hashes
// with the fallback transactions of their notary requests.
type RawNotaryPool struct {
	Hashes map[hash.Uint256][]hash.Uint256
}

type rawNotaryPoolAux struct {
	Hashes map[string][]hash.Uint256 `json:"hashes,omitzero"`
}

// MarshalJSON writes {"hashes": {"0x<main>": ["0x<fallback>", ...]}}.
func (p RawNotaryPool) MarshalJSON() ([]byte, error) {
	aux := rawNotaryPoolAux{Hashes: make(map[string][]hash.Uint256, len(p.Hashes))}
	for m, fb := range p.Hashes {
		aux.Hashes["0x"+m.StringLE()] = fb
	}
	return json.Marshal(aux)
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (p *RawNotaryPool) UnmarshalJSON(data []byte) error {
	var aux rawNotaryPoolAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	p.Hashes = make(map[hash.Uint256][]hash.Uint256, len(aux.Hashes))
	for m, fb := range aux.Hashes {
		h, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(m, "0x"))
		if err != nil {
			return err
		}
		p.Hashes[h] = fb
	}
	return nil
}

// MempoolEvent is the payload of a mempool_event notification.
type MempoolEvent struct {
	Type neorpc.MempoolEventType  `json:"type"`
	Tx   *transaction.Transaction `json:"transaction"`
}
