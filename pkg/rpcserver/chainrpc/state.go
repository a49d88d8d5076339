package chainrpc

import (
	"bytes"
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

// errKeepOnlyLatestState is neo-go's text for state methods on a node that
// keeps only the latest state.
var errKeepOnlyLatestState = errors.New("'KeepOnlyLatestState' setting is enabled")

// storageKey is the trie key of a storage item: contract id LE + key.
func storageKey(id int32, key []byte) []byte {
	k := make([]byte, 4+len(key))
	binary.LittleEndian.PutUint32(k, uint32(id))
	copy(k[4:], key)
	return k
}

func (s *Service) getStateHeight(neorpc.Params) (any, *neorpc.Error) {
	height := s.chain.BlockHeight()
	validated := s.chain.CurrentValidatedHeight()
	if s.chain.Config().StateRootInHeader {
		validated = height - 1
	}
	return &result.StateHeight{Local: height, Validated: validated}, nil
}

func (s *Service) getStateRoot(p neorpc.Params) (any, *neorpc.Error) {
	param := p.Value(0)
	if param == nil {
		return nil, neorpc.NewInvalidParamsError("missing stateroot identifier")
	}
	var (
		rt  *result.StateRoot
		err error
	)
	if height, herr := param.GetIntStrict(); herr == nil {
		if height < 0 || int64(height) > 0xFFFFFFFF {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "value should fit uint32")
		}
		rt, err = s.chain.GetStateRoot(uint32(height))
	} else if h, herr := param.GetUint256(); herr == nil {
		hdr, herr := s.chain.GetHeader(h)
		if herr != nil {
			err = herr
		} else {
			rt, err = s.chain.GetStateRoot(hdr.Index)
		}
	} else {
		err = herr
	}
	if err != nil {
		return nil, neorpc.ErrUnknownStateRoot
	}
	return rt, nil
}

// historicContractState reads a contract state from the trie with root.
func (s *Service) historicContractState(root hash.Uint256, h hash.Uint160) (*state.Contract, *neorpc.Error) {
	raw, err := s.chain.GetState(root, storageKey(nativenames.ManagementID, native.MakeContractKey(h)))
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownContract, fmt.Sprintf("Failed to get historical contract state: %s", notFoundText(err)))
	}
	cs := new(state.Contract)
	if err := stackitem.DeserializeConvertible(raw, cs); err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to deserialize historical contract state: %s", err))
	}
	return cs, nil
}

// notFoundText is neo-go's text for a missing trie item ("item not found")
// or the error's own text.
func notFoundText(err error) string {
	if errors.Is(err, mpt.ErrNotFound) {
		return "item not found"
	}
	return err.Error()
}

// stateRootFromParam reads a state root hash and, with KeepOnlyLatestState,
// refuses any but the current one.
func (s *Service) stateRootFromParam(p *neorpc.Param) (hash.Uint256, *neorpc.Error) {
	root, err := p.GetUint256()
	if err != nil {
		return hash.Uint256{}, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "invalid stateroot")
	}
	if s.chain.Config().KeepOnlyLatestState {
		cur, err := s.chain.GetStateRoot(s.chain.BlockHeight())
		if err != nil {
			return hash.Uint256{}, neorpc.NewInternalServerError(fmt.Sprintf("failed to get current stateroot: %s", err))
		}
		if cur.RootHash != root {
			return hash.Uint256{}, neorpc.WrapErrorWithData(neorpc.ErrUnsupportedState, fmt.Sprintf("state-based methods are not supported for old states: %s", errKeepOnlyLatestState))
		}
	}
	return root, nil
}

func (s *Service) getProof(p neorpc.Params) (any, *neorpc.Error) {
	if s.chain.Config().KeepOnlyLatestState {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnsupportedState, fmt.Sprintf("'getproof' is not supported: %s", errKeepOnlyLatestState))
	}
	root, err := p.Value(0).GetUint256()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	sc, err := p.Value(1).GetUint160FromHex()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	key, err := p.Value(2).GetBytesBase64()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	cs, rerr := s.historicContractState(root, sc)
	if rerr != nil {
		return nil, rerr
	}
	skey := storageKey(cs.ID, key)
	proof, err := s.chain.GetStateProof(root, skey)
	if err != nil {
		if errors.Is(err, mpt.ErrNotFound) {
			return nil, neorpc.ErrUnknownStorageItem
		}
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to get proof: %s", err))
	}
	return &result.ProofWithKey{Key: skey, Proof: proof}, nil
}

func (s *Service) verifyProof(p neorpc.Params) (any, *neorpc.Error) {
	if s.chain.Config().KeepOnlyLatestState {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnsupportedState, fmt.Sprintf("'verifyproof' is not supported: %s", errKeepOnlyLatestState))
	}
	root, err := p.Value(0).GetUint256()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	str, err := p.Value(1).GetString()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	var pk result.ProofWithKey
	if err := pk.FromString(str); err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	val, err := mpt.VerifyProof(root, pk.Key, pk.Proof)
	if err != nil {
		return nil, neorpc.ErrInvalidProof
	}
	if val == nil {
		val = []byte{}
	}
	return &result.VerifyProof{Value: val}, nil
}

func (s *Service) getState(p neorpc.Params) (any, *neorpc.Error) {
	root, rerr := s.stateRootFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	csHash, err := p.Value(1).GetUint160FromHex()
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "invalid contract hash")
	}
	key, err := p.Value(2).GetBytesBase64()
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "invalid key")
	}
	cs, rerr := s.historicContractState(root, csHash)
	if rerr != nil {
		return nil, rerr
	}
	v, err := s.chain.GetState(root, storageKey(cs.ID, key))
	if err != nil {
		if errors.Is(err, mpt.ErrNotFound) {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid key: %s", notFoundText(err)))
		}
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Failed to get historical item state: %s", err))
	}
	return v, nil
}

func (s *Service) findStates(p neorpc.Params) (any, *neorpc.Error) {
	root, rerr := s.stateRootFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	csHash, err := p.Value(1).GetUint160FromHex()
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid contract hash: %s", err))
	}
	prefix, err := p.Value(2).GetBytesBase64()
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid prefix: %s", err))
	}
	var (
		key   []byte
		count = s.cfg.MaxFindResultItems
	)
	if len(p) > 3 {
		if key, err = p.Value(3).GetBytesBase64(); err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid key: %s", err))
		}
		if len(key) > 0 {
			if !bytes.HasPrefix(key, prefix) {
				return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "key doesn't match prefix")
			}
			key = key[len(prefix):]
		} else {
			key = nil
		}
	}
	if len(p) > 4 {
		if count, err = p.Value(4).GetInt(); err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid count: %s", err))
		}
		count = min(count, s.cfg.MaxFindResultItems)
	}
	cs, rerr := s.historicContractState(root, csHash)
	if rerr != nil {
		return nil, rerr
	}
	kvs, err := s.chain.FindStates(root, storageKey(cs.ID, prefix), key, count+1)
	if err != nil && !errors.Is(err, mpt.ErrNotFound) {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to find state items: %s", err))
	}
	res := &result.FindStates{}
	if len(kvs) == count+1 {
		res.Truncated = true
		kvs = kvs[:len(kvs)-1]
	}
	if len(kvs) > 0 {
		proof, err := s.chain.GetStateProof(root, kvs[0].Key)
		if err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to get first proof: %s", err))
		}
		res.FirstProof = &result.ProofWithKey{Key: kvs[0].Key, Proof: proof}
	}
	if len(kvs) > 1 {
		last := kvs[len(kvs)-1].Key
		proof, err := s.chain.GetStateProof(root, last)
		if err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to get last proof: %s", err))
		}
		res.LastProof = &result.ProofWithKey{Key: last, Proof: proof}
	}
	res.Results = make([]result.KeyValue, len(kvs))
	for i, kv := range kvs {
		res.Results[i] = result.KeyValue{Key: kv.Key[4:], Value: kv.Value}
	}
	return res, nil
}

func (s *Service) getStorage(p neorpc.Params) (any, *neorpc.Error) {
	id, rerr := s.contractIDFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	key, err := p.Value(1).GetBytesBase64()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	item := s.chain.GetStorageItem(id, key)
	if item == nil {
		return "", neorpc.ErrUnknownStorageItem
	}
	return item, nil
}

func (s *Service) getStorageHistoric(p neorpc.Params) (any, *neorpc.Error) {
	root, rerr := s.stateRootFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	if len(p) < 2 {
		return nil, neorpc.ErrInvalidParams
	}
	id, rerr := s.contractIDFromParam(p.Value(1), root)
	if rerr != nil {
		return nil, rerr
	}
	key, err := p.Value(2).GetBytesBase64()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	v, err := s.chain.GetState(root, storageKey(id, key))
	if err != nil && !errors.Is(err, mpt.ErrNotFound) {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to get state item: %s", err))
	}
	if v == nil {
		return "", neorpc.ErrUnknownStorageItem
	}
	return v, nil
}

// storageSeeker walks contract storage (current or historic).
type storageSeeker func(id int32, prefix []byte, f func(k, v []byte) bool)

func (s *Service) findStorage(p neorpc.Params) (any, *neorpc.Error) {
	id, prefix, start, rerr := s.findStorageParams(p)
	if rerr != nil {
		return nil, rerr
	}
	return s.findStorageWith(id, prefix, start, s.chain.SeekStorage), nil
}

func (s *Service) findStorageHistoric(p neorpc.Params) (any, *neorpc.Error) {
	root, rerr := s.stateRootFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	if len(p) < 2 {
		return nil, neorpc.ErrInvalidParams
	}
	id, prefix, start, rerr := s.findStorageParams(p[1:], root)
	if rerr != nil {
		return nil, rerr
	}
	return s.findStorageWith(id, prefix, start, func(id int32, prefix []byte, f func(k, v []byte) bool) {
		s.chain.SeekStates(root, storageKey(id, prefix), f)
	}), nil
}

func (s *Service) findStorageParams(p neorpc.Params, root ...hash.Uint256) (int32, []byte, int, *neorpc.Error) {
	if len(p) < 2 {
		return 0, nil, 0, neorpc.ErrInvalidParams
	}
	id, rerr := s.contractIDFromParam(p.Value(0), root...)
	if rerr != nil {
		return 0, nil, 0, rerr
	}
	prefix, err := p.Value(1).GetBytesBase64()
	if err != nil {
		return 0, nil, 0, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid prefix: %s", err))
	}
	var start int
	if len(p) > 2 {
		if start, err = p.Value(2).GetInt(); err != nil {
			return 0, nil, 0, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid start: %s", err))
		}
	}
	return id, prefix, start, nil
}

// findStorageWith pages through the items with the prefix: it skips start
// items, returns up to MaxFindStorageResultItems with the prefix kept in
// the keys, and tells where the next page starts (an unknown contract
// gives an empty list, as in C#).
func (s *Service) findStorageWith(id int32, prefix []byte, start int, seek storageSeeker) *result.FindStorage {
	var (
		i   int
		end = start + s.cfg.MaxFindStorageResultItems
		res = &result.FindStorage{Results: []result.KeyValue{}}
	)
	seek(id, prefix, func(k, v []byte) bool {
		if i < start {
			i++
			return true
		}
		if i < end {
			key := make([]byte, 0, len(prefix)+len(k))
			res.Results = append(res.Results, result.KeyValue{Key: append(append(key, prefix...), k...), Value: bytes.Clone(v)})
			i++
			return true
		}
		res.Truncated = true
		return false
	})
	res.Next = i
	return res
}
