package oracle

import (
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/services/oracle/jsonpath"
)

// UserAgent is the User-Agent of oracle requests (neo-go, C#).
const UserAgent = "NeoOracleService/3.0"

// NeoFSScheme is the URL scheme of NeoFS objects, which n3node does not
// fetch (answered with Error, as neo-go does without NeoFS nodes).
const NeoFSScheme = "neofs"

// process handles one queued request (neo-go processRequest).
func (s *Service) process(priv *keys.PrivateKey, r request) error {
	if r.req == nil {
		s.processFailed(priv, r.id)
		return nil
	}
	t := s.getResponse(r.id, true)
	if t == nil {
		return nil // dropped by Refresh
	}
	resp := &transaction.OracleResponse{ID: r.id}
	resp.Result, resp.Code = s.fetch(r.req.URL)
	if resp.Code == transaction.Success && r.req.Filter != nil {
		res, err := jsonpath.Filter(resp.Result, *r.req.Filter)
		if err != nil {
			s.log.Warn("oracle filter failed", "id", r.id, "err", err)
			resp.Code, resp.Result = transaction.Error, nil
		} else {
			resp.Result = res
		}
	}
	s.log.Debug("oracle request processed", "url", r.req.URL, "code", resp.Code, "result", string(resp.Result))

	chain := s.cfg.Chain
	height := chain.BlockHeight()
	inc := chain.GetMaxValidUntilBlockIncrement()
	_, h, err := chain.GetTransaction(r.req.OriginalTxID)
	if err != nil {
		if !errors.Is(err, storage.ErrKeyNotFound) {
			return err
		}
		h = height // not persisted yet
	}
	h += inc // the response is valid for the request's block + increment
	tx, err := s.CreateResponseTx(r.req.GasForResponse, h, resp)
	if err != nil {
		return err
	}
	for h <= height { // the backup must be valid in any case
		h += inc
	}
	backup, err := s.CreateResponseTx(r.req.GasForResponse, h, &transaction.OracleResponse{ID: r.id, Code: transaction.ConsensusUnreachable})
	if err != nil {
		return err
	}

	nodes, _ := s.oracleNodes()
	t.mu.Lock()
	t.request = r.req
	t.main.tx = tx
	t.backup.tx = backup
	t.reverify(s.network)
	data := tx.SignData(s.network)
	txSig := priv.Sign(data[:])
	t.add(priv.PublicKey(), txSig, false)
	data = backup.SignData(s.network)
	t.add(priv.PublicKey(), priv.Sign(data[:]), true)
	ready := t.finalizeOnce(nodes)
	t.time = s.now()
	t.attempts++
	t.mu.Unlock()

	s.bcast.SendResponse(priv, resp, txSig)
	if ready != nil {
		s.sendTx(ready)
	}
	return nil
}

// processFailed handles a request still pending RefreshInterval after it
// was processed: a completed transaction is sent again, otherwise the
// backup transaction is signed (again) and completed if possible.
func (s *Service) processFailed(priv *keys.PrivateKey, id uint64) {
	t := s.getResponse(id, false)
	if t == nil {
		return // answered meanwhile
	}
	t.mu.Lock()
	if t.sent != nil {
		sent := t.sent
		t.mu.Unlock()
		s.sendTx(sent)
		return
	}
	nodes, _ := s.oracleNodes()
	ready := t.finalize(nodes, true)
	if ready != nil {
		t.sent = ready
	}
	t.time = s.now()
	t.attempts++
	own, ok := t.backup.sigs[string(priv.PublicKey().Bytes())]
	t.mu.Unlock()
	if ok {
		s.bcast.SendResponse(priv, &transaction.OracleResponse{ID: id, Code: transaction.Error}, own.sig)
	}
	if ready != nil {
		s.sendTx(ready)
	}
}

// fetch gets the data of an oracle URL and the response code.
func (s *Service) fetch(rawURL string) ([]byte, transaction.OracleResponseCode) {
	u, err := url.ParseRequestURI(rawURL)
	if err != nil {
		s.log.Warn("malformed oracle request", "url", rawURL, "err", err)
		return nil, transaction.ProtocolNotSupported
	}
	switch u.Scheme {
	case "https":
		return s.fetchHTTPS(rawURL)
	case NeoFSScheme:
		s.log.Warn("NeoFS oracle requests are not supported", "url", rawURL)
		return nil, transaction.Error
	default:
		s.log.Warn("unknown oracle request scheme", "url", rawURL)
		return nil, transaction.ProtocolNotSupported
	}
}

func (s *Service) fetchHTTPS(rawURL string) ([]byte, transaction.OracleResponseCode) {
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		s.log.Warn("can't make the oracle request", "url", rawURL, "err", err)
		return nil, transaction.Error
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Content-Type", "application/json")
	r, err := s.client.Do(req)
	if err != nil {
		code := transaction.Error
		if errors.Is(err, ErrRestrictedRedirect) {
			code = transaction.Forbidden
		}
		s.log.Warn("oracle request failed", "url", rawURL, "err", err, "code", code)
		return nil, code
	}
	defer r.Body.Close()
	switch r.StatusCode {
	case http.StatusOK:
		if !checkMediaType(r.Header.Get("Content-Type"), s.cfg.Main.AllowedContentTypes) {
			return nil, transaction.ContentTypeNotSupported
		}
		data, code, err := readResponse(r.Body)
		if err != nil {
			s.log.Warn("can't read the oracle response", "url", rawURL, "err", err)
		}
		return data, code
	case http.StatusForbidden:
		return nil, transaction.Forbidden
	case http.StatusNotFound:
		return nil, transaction.NotFound
	case http.StatusRequestTimeout:
		return nil, transaction.Timeout
	default:
		return nil, transaction.Error
	}
}

// checkMediaType reports whether the Content-Type header is allowed (any
// is, if allowed is empty).
func checkMediaType(hdr string, allowed []string) bool {
	if len(allowed) == 0 {
		return true
	}
	typ, _, err := mime.ParseMediaType(hdr)
	return err == nil && slices.Contains(allowed, typ)
}
