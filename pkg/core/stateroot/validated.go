package stateroot

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/storage"
)

// Errors of AddValidated.
var (
	// ErrStateMismatch: the root signed by the state validators differs
	// from the local one of the same height (neo-go
	// stateroot.ErrStateMismatch). The node's state has diverged.
	ErrStateMismatch = errors.New("stateroot: validated root differs from the local one")
	// ErrNoWitness: AddValidated was given a root without a witness.
	ErrNoWitness = errors.New("stateroot: root has no witness")
)

// LocalHeightKey and ValidatedHeightKey return the store keys of the local
// and validated root heights (u32 LE values).
func LocalHeightKey() []byte     { return append([]byte(nil), localKey...) }
func ValidatedHeightKey() []byte { return append([]byte(nil), validatedKey...) }

// AddValidated records r, a root whose witness the caller verified (the
// StateService's M-of-N signature of the designated state validators), in
// store: the root record of its height gets the witness, and the validated
// height becomes r.Index if that is higher. The local root of the height
// must be recorded and equal r (ErrStateMismatch otherwise); a local root
// that already has a witness is left as it is (nil error, false). The
// caller must hold off concurrent writers of these keys.
func (m *Module) AddValidated(store storage.Store, r *Root) (bool, error) {
	if len(r.Witness) == 0 {
		return false, ErrNoWitness
	}
	local, err := GetStateRoot(store, r.Index)
	if err != nil {
		return false, fmt.Errorf("local state root of height %d: %w", r.Index, err)
	}
	if local.RootHash != r.RootHash {
		return false, fmt.Errorf("%w at height %d: local %s, validated %s", ErrStateMismatch,
			r.Index, local.RootHash.StringLE(), r.RootHash.StringLE())
	}
	if len(local.Witness) != 0 {
		return false, nil
	}
	cs := map[string][]byte{string(RootKey(r.Index)): r.Bytes()}
	raise := r.Index > m.validated.Load()
	if raise {
		cs[string(validatedKey)] = binary.LittleEndian.AppendUint32(nil, r.Index)
	}
	if err := store.PutChangeSet(cs); err != nil {
		return false, err
	}
	if raise {
		m.validated.Store(r.Index)
	}
	return true, nil
}
