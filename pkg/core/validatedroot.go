package core

import (
	"fmt"

	"github.com/n3node/n3node/pkg/core/stateroot"
)

// AddValidatedStateRoot records a state root whose witness the caller
// (the StateService, pkg/services/stateroot) verified against the state
// validators designated for its height: the stored root of that height
// gets the witness, and CurrentValidatedHeight moves up to it. It reports
// whether the record changed (false if that root already had a witness).
// A root that differs from the local one fails with an error wrapping
// stateroot.ErrStateMismatch and changes nothing.
func (bc *Blockchain) AddValidatedStateRoot(r *stateroot.Root) (bool, error) {
	if bc.closed.Load() {
		return false, ErrClosed
	}
	if r.Index > bc.BlockHeight() {
		return false, fmt.Errorf("%w: state root of height %d", ErrNotFound, r.Index)
	}
	bc.commitMu.Lock()
	defer bc.commitMu.Unlock()
	return bc.state.AddValidated(bc.dao.Store, r)
}
