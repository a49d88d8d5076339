package rpcserver

import (
	"context"
	"encoding/json"
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
	sID, err := p.Value(0).GetUUID()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid session ID: %s", err))
	}
	iID, err := p.Value(1).GetUUID()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid iterator ID: %s", err))
	}
	count, err := p.Value(2).GetInt()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid iterator items count: %s", err))
	}
	if count < math.MinInt32 || count > math.MaxInt32 {
		return nil, neorpc.NewInvalidParamsError("invalid iterator items count: not an int32")
	}
	if count > s.cfg.MaxIteratorResultItems {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("iterator items count (%d) is out of range (%d at max)", count, s.cfg.MaxIteratorResultItems))
	}
	vals, rerr := s.sessions.Traverse(sID.String(), iID.String(), count)
	if rerr != nil {
		return nil, rerr
	}
	return vals, nil
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
