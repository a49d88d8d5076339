package notaryrpc

import (
	"errors"

	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc/coreledger"
	"github.com/n3node/n3node/pkg/services/notary"
)

// Pool is a notary.RequestPool seen by chainrpc.
type Pool struct {
	pool *notary.RequestPool
}

// New returns the adapter of p.
func New(p *notary.RequestPool) *Pool { return &Pool{pool: p} }

func toRPC(r *payload.P2PNotaryRequest) chainrpc.NotaryRequest {
	return chainrpc.NotaryRequest{Main: r.MainTransaction, Fallback: r.FallbackTransaction, Payload: r}
}

// NotaryRequests implements chainrpc.Notary.
func (p *Pool) NotaryRequests() []chainrpc.NotaryRequest {
	reqs := p.pool.Requests()
	res := make([]chainrpc.NotaryRequest, len(reqs))
	for i, r := range reqs {
		res[i] = toRPC(r)
	}
	return res
}

// DecodeNotaryRequest implements chainrpc.Notary.
func (p *Pool) DecodeNotaryRequest(b []byte) (chainrpc.NotaryRequest, error) {
	r, err := notary.DecodeRequest(b)
	if err != nil {
		return chainrpc.NotaryRequest{}, err
	}
	return toRPC(r), nil
}

// RelayNotaryRequest implements chainrpc.Notary: verify, pool, announce.
func (p *Pool) RelayNotaryRequest(r chainrpc.NotaryRequest) error {
	req, ok := r.Payload.(*payload.P2PNotaryRequest)
	if !ok {
		return errors.New("notaryrpc: not a P2PNotaryRequest")
	}
	return coreledger.ClassifyRelayError(p.pool.Relay(req))
}

var _ chainrpc.Notary = (*Pool)(nil)
