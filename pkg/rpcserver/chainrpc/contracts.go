package chainrpc

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Handlers of the contract, storage and governance methods, over
// Contracts (and States for the *historic storage methods).

// parseInt32 parses a decimal contract id (strconv's error texts).
func parseInt32(s string) (int32, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	return int32(n), err
}

// nativeByName finds an active native contract by name (case-insensitive).
func (s *Service) nativeByName(name string) (hash.Uint160, bool) {
	for _, cs := range s.chain.GetNatives() {
		if strings.EqualFold(cs.Manifest.Name, name) {
			return cs.Hash, true
		}
	}
	return hash.Uint160{}, false
}

// contractAt returns a deployed contract in the current state (root nil)
// or in the state with root.
func (s *Service) contractAt(root *hash.Uint256, h hash.Uint160) (*state.Contract, *neorpc.Error) {
	if root != nil {
		return s.historicContractState(*root, h)
	}
	if cs := s.chain.GetContractState(h); cs != nil {
		return cs, nil
	}
	return nil, neorpc.ErrUnknownContract
}

func (s *Service) getContractState(a *args) (any, *neorpc.Error) {
	cs, rerr := s.contractAt(nil, get[hash.Uint160](a, 0))
	if rerr != nil {
		return nil, rerr
	}
	return cs, nil
}

func (s *Service) getNativeContracts(*args) (any, *neorpc.Error) {
	return nonNil(s.chain.GetNatives()), nil
}

// getStorage reads one item of the current state, or of the state with
// the call's root (getstoragehistoric).
func (s *Service) getStorage(a *args) (any, *neorpc.Error) {
	id, key := get[int32](a, 0), get[[]byte](a, 1)
	if a.root == nil {
		if item := s.chain.GetStorageItem(id, key); item != nil {
			return item, nil
		}
		return nil, neorpc.ErrUnknownStorageItem
	}
	v, err := s.chain.GetState(*a.root, storageKey(id, key))
	switch {
	case err != nil && !errors.Is(err, mpt.ErrNotFound):
		return nil, neorpc.NewInternalServerError("failed to get state item: " + err.Error())
	case v == nil:
		return nil, neorpc.ErrUnknownStorageItem
	}
	return v, nil
}

// findStorage pages through the items with a prefix of the current state
// or of the state with the call's root: it skips start items, returns up
// to MaxFindStorageResultItems with the prefix kept in the keys, and tells
// where the next page starts (an unknown contract gives an empty list, as
// in C#).
func (s *Service) findStorage(a *args) (any, *neorpc.Error) {
	id, prefix, start := get[int32](a, 0), get[[]byte](a, 1), get[int](a, 2)
	seek := func(f func(k, v []byte) bool) { s.chain.SeekStorage(id, prefix, f) }
	if a.root != nil {
		seek = func(f func(k, v []byte) bool) { s.chain.SeekStates(*a.root, storageKey(id, prefix), f) }
	}
	page := &result.FindStorage{Results: []result.KeyValue{}}
	stop := start + s.cfg.MaxFindStorageResultItems
	seen := 0
	seek(func(k, v []byte) bool {
		switch {
		case seen >= stop:
			page.Truncated = true
			return false
		case seen >= start:
			full := append(make([]byte, 0, len(prefix)+len(k)), prefix...)
			full = append(full, k...)
			page.Results = append(page.Results, result.KeyValue{Key: full, Value: bytes.Clone(v)})
		}
		seen++
		return true
	})
	page.Next = seen
	return page, nil
}

func (s *Service) getCommittee(*args) (any, *neorpc.Error) {
	return nonNil(s.chain.GetCommittee()), nil
}

// getCandidates lists the registered candidates with their votes, marking
// the next block's validators active.
func (s *Service) getCandidates(*args) (any, *neorpc.Error) {
	votes, rerr := s.votes()
	if rerr != nil {
		return nil, rerr
	}
	next := s.chain.GetNextBlockValidators()
	out := make([]result.Candidate, 0, len(votes))
	for _, c := range votes {
		active := false
		for _, v := range next {
			active = active || v.Equal(c.key)
		}
		out = append(out, result.Candidate{PublicKey: *c.key, Votes: c.votes.Int64(), Active: active})
	}
	return out, nil
}

// getNextBlockValidators lists the next block's validators with their
// votes (-1 for a validator that is no registered candidate).
func (s *Service) getNextBlockValidators(*args) (any, *neorpc.Error) {
	votes, rerr := s.votes()
	if rerr != nil {
		return nil, rerr
	}
	next := s.chain.GetNextBlockValidators()
	out := make([]result.Validator, len(next))
	for i, v := range next {
		out[i] = result.Validator{PublicKey: *v, Votes: -1}
		for _, c := range votes {
			if c.key.Equal(v) {
				out[i].Votes = c.votes.Int64()
				break
			}
		}
	}
	return out, nil
}

// candidate is a registered candidate and its votes.
type candidate struct {
	key   *keys.PublicKey
	votes *big.Int
}

// votes calls NEO getCandidates: the registered, unblocked candidates
// with their votes (at most 256, in key order).
func (s *Service) votes() ([]candidate, *neorpc.Error) {
	res, err := s.candidates()
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Can't get enrollments: %s", err))
	}
	return res, nil
}

func (s *Service) candidates() ([]candidate, error) {
	items, finalize, err := s.invokeReadOnly(nativenames.NeoHash, []string{"getCandidates"}, [][]any{nil})
	if err != nil {
		return nil, err
	}
	defer finalize()
	list, ok := items[0].(*stackitem.Array)
	if !ok {
		return nil, fmt.Errorf("unexpected getCandidates result %s", items[0].Type())
	}
	res := make([]candidate, 0, list.Len())
	for _, it := range list.Items() {
		c, err := candidateOf(it)
		if err != nil {
			return nil, err
		}
		res = append(res, c)
	}
	return res, nil
}

// candidateOf reads one (key, votes) pair of getCandidates.
func candidateOf(it stackitem.Item) (candidate, error) {
	pair, ok := it.(*stackitem.Array)
	if !ok || pair.Len() != 2 {
		return candidate{}, errors.New("unexpected getCandidates element")
	}
	kb, err := pair.Get(0).TryBytes()
	if err != nil {
		return candidate{}, err
	}
	key, err := keys.NewPublicKeyFromBytes(kb)
	if err != nil {
		return candidate{}, err
	}
	n, err := pair.Get(1).TryInteger()
	if err != nil {
		return candidate{}, err
	}
	return candidate{key: key, votes: n}, nil
}

// getUnclaimedGas asks NEO for the balance and the GAS claimable in the
// next block, in one run; as in neo-go, an account without NEO has
// nothing to claim.
func (s *Service) getUnclaimedGas(a *args) (any, *neorpc.Error) {
	acc := get[hash.Uint160](a, 0)
	out := &result.UnclaimedGas{Address: acc}
	gas, err := s.unclaimed(acc)
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Can't calculate claimable: %s", err))
	}
	out.Unclaimed.Set(gas)
	return out, nil
}

func (s *Service) unclaimed(acc hash.Uint160) (*big.Int, error) {
	items, finalize, err := s.invokeReadOnly(nativenames.NeoHash, []string{"balanceOf", "unclaimedGas"},
		[][]any{{acc}, {acc, s.chain.BlockHeight() + 1}})
	if err != nil {
		return nil, err
	}
	finalize()
	bal, err := items[0].TryInteger()
	if err != nil || bal.Sign() == 0 {
		return new(big.Int), err
	}
	return items[1].TryInteger()
}
