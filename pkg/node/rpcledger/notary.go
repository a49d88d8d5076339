package rpcledger

import (
	"errors"

	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/services/notary"
)

// Notary is a notary.RequestPool seen by chainrpc.
type Notary struct {
	pool *notary.RequestPool
}

// NewNotary returns the adapter of p.
func NewNotary(p *notary.RequestPool) *Notary { return &Notary{pool: p} }

func toRPC(r *payload.P2PNotaryRequest) chainrpc.NotaryRequest {
	return chainrpc.NotaryRequest{Main: r.MainTransaction, Fallback: r.FallbackTransaction, Payload: r}
}

// NotaryRequests implements chainrpc.Notary.
func (p *Notary) NotaryRequests() []chainrpc.NotaryRequest {
	reqs := p.pool.Requests()
	res := make([]chainrpc.NotaryRequest, len(reqs))
	for i, r := range reqs {
		res[i] = toRPC(r)
	}
	return res
}

// DecodeNotaryRequest implements chainrpc.Notary.
func (p *Notary) DecodeNotaryRequest(b []byte) (chainrpc.NotaryRequest, error) {
	r, err := notary.DecodeRequest(b)
	if err != nil {
		return chainrpc.NotaryRequest{}, err
	}
	return toRPC(r), nil
}

// RelayNotaryRequest implements chainrpc.Notary: verify, pool, announce.
func (p *Notary) RelayNotaryRequest(r chainrpc.NotaryRequest) error {
	req, ok := r.Payload.(*payload.P2PNotaryRequest)
	if !ok {
		return errors.New("not a P2PNotaryRequest")
	}
	return ClassifyRelayError(p.pool.Relay(req))
}

var _ chainrpc.Notary = (*Notary)(nil)
