package rpcserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/n3node/n3node/pkg/neorpc"
)

// validateAddress echoes the parameter as given and tells whether it is a
// valid address (neo-go's rules, see neorpc.StringToUint160).
func (s *Server) validateAddress(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
	param := p.Value(0)
	addr, err := param.GetString()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	_, err = neorpc.StringToUint160(addr)
	out := append([]byte(`{"address":`), param.RawMessage...)
	out = append(out, `,"isvalid":`...)
	out = strconv.AppendBool(out, err == nil)
	out = append(out, '}')
	// The echoed value is re-encoded as encoding/json would (compacted,
	// HTML-escaped).
	return json.RawMessage(neorpc.AppendRaw(nil, out)), nil
}

// traverseIterator implements "traverseiterator" (sessionID, iteratorID,
// count).
func (s *Server) traverseIterator(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
	if s.sessions == nil {
		return nil, neorpc.ErrSessionsDisabled
	}
	var ids [2]string
	for i, what := range [...]string{"session", "iterator"} {
		id, err := p.Value(i).GetUUID()
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid %s ID: %s", what, err))
		}
		ids[i] = id.String()
	}
	count, rerr := s.iteratorCount(p.Value(2))
	if rerr != nil {
		return nil, rerr
	}
	vals, rerr := s.sessions.Traverse(ids[0], ids[1], count)
	if rerr != nil {
		return nil, rerr
	}
	return vals, nil
}

// iteratorCount reads the number of items traverseiterator takes: an
// int32 no larger than MaxIteratorResultItems.
func (s *Server) iteratorCount(p *neorpc.Param) (int, *neorpc.Error) {
	n, err := p.GetInt()
	if err == nil && (n < math.MinInt32 || n > math.MaxInt32) {
		err = errors.New("not an int32")
	}
	if err != nil {
		return 0, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid iterator items count: %s", err))
	}
	if n > s.cfg.MaxIteratorResultItems {
		return 0, neorpc.NewInvalidParamsError(fmt.Sprintf("iterator items count (%d) is out of range (%d at max)", n, s.cfg.MaxIteratorResultItems))
	}
	return n, nil
}

// terminateSession implements "terminatesession" (sessionID).
func (s *Server) terminateSession(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
	if s.sessions == nil {
		return nil, neorpc.ErrSessionsDisabled
	}
	sID, err := p.Value(0).GetUUID()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid session ID: %s", err))
	}
	if !s.sessions.Terminate(sID.String()) {
		return nil, neorpc.ErrUnknownSession
	}
	return true, nil
}
