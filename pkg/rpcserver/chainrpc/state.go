package chainrpc

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Handlers of the state root, historic state and proof methods, over
// States. The state root of a call is args.root (see stateRoot).

// errKeepOnlyLatestState is neo-go's text for state methods on a node that
// keeps only the latest state.
var errKeepOnlyLatestState = errors.New("'KeepOnlyLatestState' setting is enabled")

// storageKey is the trie key of a storage item: contract id LE + key.
func storageKey(id int32, key []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(key)), uint32(id)), key...)
}

// notFoundText is neo-go's text for a missing trie item ("item not found")
// or the error's own text.
func notFoundText(err error) string {
	if errors.Is(err, mpt.ErrNotFound) {
		return "item not found"
	}
	return err.Error()
}

func (s *Service) getStateHeight(*args) (any, *neorpc.Error) {
	h := &result.StateHeight{Local: s.chain.BlockHeight(), Validated: s.chain.CurrentValidatedHeight()}
	if s.chain.Config().StateRootInHeader {
		h.Validated = h.Local - 1
	}
	return h, nil
}

func (s *Service) getStateRoot(a *args) (any, *neorpc.Error) {
	ref := get[*neorpc.Param](a, 0)
	var (
		root *result.StateRoot
		err  error
	)
	if n, nerr := ref.GetIntStrict(); nerr == nil {
		if n < 0 || int64(n) > 0xFFFFFFFF {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "value should fit uint32")
		}
		root, err = s.chain.GetStateRoot(uint32(n))
	} else if h, herr := ref.GetUint256(); herr != nil {
		err = herr
	} else if hdr, herr := s.chain.GetHeader(h); herr != nil {
		err = herr
	} else {
		root, err = s.chain.GetStateRoot(hdr.Index)
	}
	if err != nil {
		return nil, neorpc.ErrUnknownStateRoot
	}
	return root, nil
}

// historicContractState reads a contract state from the trie with root.
func (s *Service) historicContractState(root hash.Uint256, h hash.Uint160) (*state.Contract, *neorpc.Error) {
	raw, err := s.chain.GetState(root, storageKey(nativenames.ManagementID, native.MakeContractKey(h)))
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownContract, "Failed to get historical contract state: "+notFoundText(err))
	}
	cs := new(state.Contract)
	if err := stackitem.DeserializeConvertible(raw, cs); err != nil {
		return nil, neorpc.NewInternalServerError("failed to deserialize historical contract state: " + err.Error())
	}
	return cs, nil
}

// itemKey is the trie key of a storage key of the contract h in the state
// with root.
func (s *Service) itemKey(root hash.Uint256, h hash.Uint160, key []byte) ([]byte, *neorpc.Error) {
	cs, rerr := s.historicContractState(root, h)
	if rerr != nil {
		return nil, rerr
	}
	return storageKey(cs.ID, key), nil
}

// proofOf returns the proof of a trie key.
func (s *Service) proofOf(root hash.Uint256, key []byte) (*result.ProofWithKey, error) {
	proof, err := s.chain.GetStateProof(root, key)
	if err != nil {
		return nil, err
	}
	return &result.ProofWithKey{Key: key, Proof: proof}, nil
}

func (s *Service) getProof(a *args) (any, *neorpc.Error) {
	root := get[hash.Uint256](a, 0)
	key, rerr := s.itemKey(root, get[hash.Uint160](a, 1), get[[]byte](a, 2))
	if rerr != nil {
		return nil, rerr
	}
	proof, err := s.proofOf(root, key)
	switch {
	case errors.Is(err, mpt.ErrNotFound):
		return nil, neorpc.ErrUnknownStorageItem
	case err != nil:
		return nil, neorpc.NewInternalServerError("failed to get proof: " + err.Error())
	}
	return proof, nil
}

func (s *Service) verifyProof(a *args) (any, *neorpc.Error) {
	var pk result.ProofWithKey
	if pk.FromString(get[string](a, 1)) != nil {
		return nil, neorpc.ErrInvalidParams
	}
	v, err := mpt.VerifyProof(get[hash.Uint256](a, 0), pk.Key, pk.Proof)
	if err != nil {
		return nil, neorpc.ErrInvalidProof
	}
	if v == nil {
		v = []byte{}
	}
	return &result.VerifyProof{Value: v}, nil
}

func (s *Service) getState(a *args) (any, *neorpc.Error) {
	key, rerr := s.itemKey(*a.root, get[hash.Uint160](a, 0), get[[]byte](a, 1))
	if rerr != nil {
		return nil, rerr
	}
	v, err := s.chain.GetState(*a.root, key)
	switch {
	case errors.Is(err, mpt.ErrNotFound):
		return nil, neorpc.NewInvalidParamsError("invalid key: " + notFoundText(err))
	case err != nil:
		return nil, neorpc.NewInternalServerError("Failed to get historical item state: " + err.Error())
	}
	return v, nil
}

// findStates lists up to count items of a contract with a prefix, after a
// start key, with proofs of the first and the last.
func (s *Service) findStates(a *args) (any, *neorpc.Error) {
	root := *a.root
	count := s.cfg.MaxFindResultItems
	if a.has(3) {
		count = min(get[int](a, 3), count)
	}
	prefix, rerr := s.itemKey(root, get[hash.Uint160](a, 0), get[[]byte](a, 1))
	if rerr != nil {
		return nil, rerr
	}
	// One more than asked tells whether the list is truncated.
	kvs, err := s.chain.FindStates(root, prefix, get[[]byte](a, 2), count+1)
	if err != nil && !errors.Is(err, mpt.ErrNotFound) {
		return nil, neorpc.NewInternalServerError("failed to find state items: " + err.Error())
	}
	res := &result.FindStates{Truncated: len(kvs) > count}
	kvs = kvs[:min(len(kvs), count)]
	if n := len(kvs); n > 0 {
		if res.FirstProof, err = s.proofOf(root, kvs[0].Key); err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to get first proof: %s", err))
		}
		if n > 1 {
			if res.LastProof, err = s.proofOf(root, kvs[n-1].Key); err != nil {
				return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to get last proof: %s", err))
			}
		}
	}
	res.Results = make([]result.KeyValue, 0, len(kvs))
	for _, kv := range kvs {
		res.Results = append(res.Results, result.KeyValue{Key: kv.Key[4:], Value: kv.Value})
	}
	return res, nil
}
