package chainrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// rawJSON encodes a large result once, by its own MarshalJSON (which
// produces compact, HTML-escaped JSON), sparing encoding/json's extra
// validation pass over it.
func rawJSON(m json.Marshaler) (any, *neorpc.Error) {
	b, err := m.MarshalJSON()
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to marshal result: %s", err))
	}
	return json.RawMessage(b), nil
}

func (s *Service) getBestBlockHash(neorpc.Params) (any, *neorpc.Error) {
	return "0x" + s.chain.CurrentBlockHash().StringLE(), nil
}

func (s *Service) getBlockCount(neorpc.Params) (any, *neorpc.Error) {
	return s.chain.BlockHeight() + 1, nil
}

func (s *Service) getBlockHeaderCount(neorpc.Params) (any, *neorpc.Error) {
	return s.chain.HeaderHeight() + 1, nil
}

// blockHeightFromParam reads a block index that must not exceed the
// current height (neo-go's check and texts; the index in the text is
// always 0, as neo-go writes it).
func (s *Service) blockHeightFromParam(p *neorpc.Param) (uint32, *neorpc.Error) {
	num, err := p.GetInt()
	if err != nil {
		return 0, neorpc.ErrInvalidParams
	}
	if num < 0 || int64(num) > int64(s.chain.BlockHeight()) {
		return 0, neorpc.WrapErrorWithData(neorpc.ErrUnknownHeight, fmt.Sprintf("param at index %d should be greater than or equal to 0 and less than or equal to current block height, got: %d", 0, num))
	}
	return uint32(num), nil
}

// blockHashFromParam reads a block hash or index.
func (s *Service) blockHashFromParam(p *neorpc.Param) (hash.Uint256, *neorpc.Error) {
	if p == nil {
		return hash.Uint256{}, neorpc.ErrInvalidParams
	}
	h, err := p.GetUint256()
	if err == nil {
		return h, nil
	}
	num, rerr := s.blockHeightFromParam(p)
	if rerr != nil {
		return hash.Uint256{}, rerr
	}
	return s.chain.GetHeaderHash(num), nil
}

func (s *Service) blockMetadata(size int, h *block.Header) result.BlockMetadata {
	res := result.BlockMetadata{Size: size, Confirmations: s.chain.BlockHeight() - h.Index + 1}
	if next := s.chain.GetHeaderHash(h.Index + 1); !next.IsZero() {
		res.NextBlockHash = &next
	}
	return res
}

func (s *Service) getBlock(p neorpc.Params) (any, *neorpc.Error) {
	h, rerr := s.blockHashFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	b, err := s.chain.GetBlock(h)
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownBlock, err.Error())
	}
	if v, _ := p.Value(1).GetBoolean(); v {
		return rawJSON(&result.Block{Block: *b, BlockMetadata: s.blockMetadata(b.Size(), &b.Header)})
	}
	return b.Bytes(), nil
}

func (s *Service) getBlockHash(p neorpc.Params) (any, *neorpc.Error) {
	num, rerr := s.blockHeightFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	return s.chain.GetHeaderHash(num), nil
}

func (s *Service) getBlockHeader(p neorpc.Params) (any, *neorpc.Error) {
	h, rerr := s.blockHashFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	verbose, _ := p.Value(1).GetBoolean()
	hdr, err := s.chain.GetHeader(h)
	if err != nil {
		return nil, neorpc.ErrUnknownBlock
	}
	if verbose {
		return rawJSON(&result.Header{Header: *hdr, BlockMetadata: s.blockMetadata(hdr.Size(), hdr)})
	}
	return headerBytes(hdr), nil
}

func (s *Service) getBlockSysFee(p neorpc.Params) (any, *neorpc.Error) {
	num, rerr := s.blockHeightFromParam(p.Value(0))
	if rerr != nil {
		return 0, neorpc.WrapErrorWithData(rerr, fmt.Sprintf("invalid block height: %s", rerr.Data))
	}
	b, err := s.chain.GetBlock(s.chain.GetHeaderHash(num))
	if err != nil {
		return 0, neorpc.ErrUnknownBlock
	}
	var fee int64
	for _, tx := range b.Transactions {
		fee += tx.SystemFee
	}
	return fee, nil
}

func (s *Service) getRawTransaction(p neorpc.Params) (any, *neorpc.Error) {
	txHash, err := p.Value(0).GetUint256()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	tx, height, err := s.chain.GetTransaction(txHash)
	if err != nil {
		return nil, neorpc.ErrUnknownTransaction
	}
	if v, _ := p.Value(1).GetBoolean(); !v {
		return tx.Bytes(), nil
	}
	res := &result.TransactionOutputRaw{Transaction: *tx}
	if height == math.MaxUint32 { // pooled
		return res, nil
	}
	hdr, err := s.chain.GetHeader(s.chain.GetHeaderHash(height))
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Failed to get header for the transaction: %s", err))
	}
	aers, err := s.chain.GetAppExecResults(txHash, trigger.Application)
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Failed to get application log for the transaction: %s", err))
	}
	if len(aers) == 0 {
		return nil, neorpc.NewInternalServerError("Inconsistent application log: application log for the transaction is empty")
	}
	res.TransactionMetadata = result.TransactionMetadata{
		Blockhash:     hdr.Hash(),
		Confirmations: int(s.chain.BlockHeight() - hdr.Index + 1),
		Timestamp:     hdr.Timestamp,
		VMState:       aers[0].VMState.String(),
	}
	return rawJSON(res)
}

func (s *Service) getTransactionHeight(p neorpc.Params) (any, *neorpc.Error) {
	h, err := p.Value(0).GetUint256()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	_, height, err := s.chain.GetTransaction(h)
	if err != nil || height == math.MaxUint32 {
		return nil, neorpc.ErrUnknownTransaction
	}
	return height, nil
}

func (s *Service) getRawMempool(p neorpc.Params) (any, *neorpc.Error) {
	verbose, _ := p.Value(0).GetBoolean()
	txs := s.chain.GetVerifiedTransactions()
	hashes := make([]hash.Uint256, len(txs))
	for i := range txs {
		hashes[i] = txs[i].Hash()
	}
	if !verbose {
		return hashes, nil
	}
	return &result.RawMempool{Height: s.chain.BlockHeight(), Verified: hashes, Unverified: []hash.Uint256{}}, nil
}

func (s *Service) getApplicationLog(p neorpc.Params) (any, *neorpc.Error) {
	h, err := p.Value(0).GetUint256()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	trig := trigger.All
	if len(p) > 1 {
		ts, err := p.Value(1).GetString()
		if err != nil {
			return nil, neorpc.ErrInvalidParams
		}
		if trig, err = parseTrigger(ts); err != nil {
			return nil, neorpc.ErrInvalidParams
		}
	}
	aers, err := s.chain.GetAppExecResults(h, trigger.All)
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownScriptContainer, fmt.Sprintf("failed to locate application log: %s", err))
	}
	if len(aers) == 0 {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownScriptContainer, "failed to locate application log: key not found")
	}
	return rawJSON(result.NewApplicationLog(h, aers, trig))
}

func (s *Service) getBlockNotifications(p neorpc.Params) (any, *neorpc.Error) {
	h, rerr := s.blockHashFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	var filter neorpc.SubscriptionFilter
	if len(p) > 1 {
		f, err := neorpc.DecodeFilter(neorpc.NotificationEventID, p[1].RawMessage)
		if err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid filter: %s", err))
		}
		filter = f
	}
	b, err := s.chain.GetBlock(h)
	if err != nil {
		return nil, neorpc.ErrUnknownBlock
	}
	res := &result.BlockNotifications{}
	aers, err := s.chain.GetAppExecResults(b.Hash(), trigger.OnPersist)
	if err != nil || len(aers) == 0 {
		return nil, neorpc.NewInternalServerError("failed to get app exec results for onpersist")
	}
	res.OnPersist = blockNotifications(aers[:1], filter)
	for _, tx := range b.Transactions {
		aers, err := s.chain.GetAppExecResults(tx.Hash(), trigger.Application)
		if err != nil {
			return nil, neorpc.NewInternalServerError("failed to get app exec results")
		}
		res.Application = append(res.Application, blockNotifications(aers, filter)...)
	}
	aers, err = s.chain.GetAppExecResults(b.Hash(), trigger.PostPersist)
	if err != nil || len(aers) == 0 {
		return nil, neorpc.NewInternalServerError("failed to get app exec results for postpersist")
	}
	res.PostPersist = blockNotifications(aers[:1], filter)
	return res, nil
}

// blockNotifications returns the notifications of HALTed executions that
// pass filter.
func blockNotifications(aers []state.AppExecResult, filter neorpc.SubscriptionFilter) []result.ContainedNotificationEvent {
	var res []result.ContainedNotificationEvent
	for i := range aers {
		if aers[i].VMState != vmstate.Halt {
			continue
		}
		for _, ev := range aers[i].Events {
			if filter != nil {
				f := notificationFields(&ev)
				if !neorpc.Matches(neorpc.NotificationEventID, filter, &f) {
					continue
				}
			}
			res = append(res, result.ContainedNotificationEvent{Container: aers[i].Container, NotificationEvent: ev})
		}
	}
	return res
}

// contractScriptHashFromParam reads a contract hash, address, native name
// or id (neo-go's order of attempts and texts).
func (s *Service) contractScriptHashFromParam(p *neorpc.Param) (hash.Uint160, *neorpc.Error) {
	if p == nil {
		return hash.Uint160{}, neorpc.ErrInvalidParams
	}
	str, err := p.GetString()
	if err != nil {
		return hash.Uint160{}, neorpc.ErrInvalidParams
	}
	if h, err := p.GetUint160FromAddressOrHex(); err == nil {
		return h, nil
	}
	if h, ok := s.nativeByName(str); ok {
		return h, nil
	}
	id, err := strconv.ParseInt(str, 10, 32)
	if err != nil {
		return hash.Uint160{}, neorpc.NewInvalidParamsError(fmt.Sprintf("Invalid contract identifier (name/hash/index is expected) : %s", err))
	}
	cs := s.chain.GetContractStateByID(int32(id))
	if cs == nil {
		return hash.Uint160{}, neorpc.ErrUnknownContract
	}
	return cs.Hash, nil
}

// contractIDFromParam reads a contract id, hash, address or native name
// and returns the contract id; root, if given, looks the contract up in
// that state (neo-go's quirk kept: an unknown name gives id 0 and no
// error).
func (s *Service) contractIDFromParam(p *neorpc.Param, root ...hash.Uint256) (int32, *neorpc.Error) {
	if p == nil {
		return 0, neorpc.ErrInvalidParams
	}
	str, err := p.GetString()
	if err != nil {
		return 0, neorpc.ErrInvalidParams
	}
	if id, err := strconv.ParseInt(str, 10, 32); err == nil {
		return int32(id), nil
	}
	h, err := p.GetUint160FromAddressOrHex()
	if err != nil {
		var ok bool
		if h, ok = s.nativeByName(str); !ok {
			return 0, nil
		}
	}
	if len(root) == 0 {
		cs := s.chain.GetContractState(h)
		if cs == nil {
			return 0, neorpc.ErrUnknownContract
		}
		return cs.ID, nil
	}
	cs, rerr := s.historicContractState(root[0], h)
	if rerr != nil {
		return 0, rerr
	}
	return cs.ID, nil
}

// nativeByName finds an active native contract by name (case-insensitive).
func (s *Service) nativeByName(name string) (hash.Uint160, bool) {
	lname := strings.ToLower(name)
	for _, cs := range s.chain.GetNatives() {
		if strings.ToLower(cs.Manifest.Name) == lname {
			return cs.Hash, true
		}
	}
	return hash.Uint160{}, false
}

func (s *Service) getContractState(p neorpc.Params) (any, *neorpc.Error) {
	h, rerr := s.contractScriptHashFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	cs := s.chain.GetContractState(h)
	if cs == nil {
		return nil, neorpc.ErrUnknownContract
	}
	return cs, nil
}

func (s *Service) getNativeContracts(neorpc.Params) (any, *neorpc.Error) {
	res := s.chain.GetNatives()
	if res == nil {
		res = []state.Contract{}
	}
	return res, nil
}

func (s *Service) getCommittee(neorpc.Params) (any, *neorpc.Error) {
	return nonNilKeys(s.chain.GetCommittee()), nil
}

func nonNilKeys(k []*keys.PublicKey) []*keys.PublicKey {
	if k == nil {
		return []*keys.PublicKey{}
	}
	return k
}

func (s *Service) getCandidates(neorpc.Params) (any, *neorpc.Error) {
	validators := s.chain.GetNextBlockValidators()
	cands, err := s.candidates()
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Can't get enrollments: %s", err))
	}
	res := make([]result.Candidate, 0, len(cands))
	for _, c := range cands {
		res = append(res, result.Candidate{PublicKey: *c.key, Votes: c.votes.Int64(), Active: containsKey(validators, c.key)})
	}
	return res, nil
}

func containsKey(ks []*keys.PublicKey, k *keys.PublicKey) bool {
	for _, x := range ks {
		if x.Equal(k) {
			return true
		}
	}
	return false
}

func (s *Service) getNextBlockValidators(neorpc.Params) (any, *neorpc.Error) {
	validators := s.chain.GetNextBlockValidators()
	cands, err := s.candidates()
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("Can't get enrollments: %s", err))
	}
	res := make([]result.Validator, 0, len(validators))
	for _, v := range validators {
		votes := int64(-1)
		for _, c := range cands {
			if c.key.Equal(v) {
				votes = c.votes.Int64()
				break
			}
		}
		res = append(res, result.Validator{PublicKey: *v, Votes: votes})
	}
	return res, nil
}

// candidate is a registered candidate and its votes.
type candidate struct {
	key   *keys.PublicKey
	votes *big.Int
}

// candidates calls NEO getCandidates (the registered, unblocked candidates
// with their votes, at most 256, in key order).
func (s *Service) candidates() ([]candidate, error) {
	items, finalize, err := s.invokeReadOnly(nativenames.NeoHash, []string{"getCandidates"}, [][]any{nil})
	if err != nil {
		return nil, err
	}
	defer finalize()
	arr, ok := items[0].(*stackitem.Array)
	if !ok {
		return nil, fmt.Errorf("unexpected getCandidates result %s", items[0].Type())
	}
	res := make([]candidate, 0, arr.Len())
	for _, it := range arr.Items() {
		st, ok := it.(*stackitem.Array)
		if !ok || st.Len() != 2 {
			return nil, errors.New("unexpected getCandidates element")
		}
		kb, err := st.Get(0).TryBytes()
		if err != nil {
			return nil, err
		}
		k, err := keys.NewPublicKeyFromBytes(kb)
		if err != nil {
			return nil, err
		}
		v, err := st.Get(1).TryInteger()
		if err != nil {
			return nil, err
		}
		res = append(res, candidate{key: k, votes: v})
	}
	return res, nil
}

func (s *Service) getUnclaimedGas(p neorpc.Params) (any, *neorpc.Error) {
	u, err := p.Value(0).GetUint160FromAddressOrHex()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	res := &result.UnclaimedGas{Address: u}
	// NEO balanceOf and unclaimedGas for the next block in one run; as in
	// neo-go, an account without NEO has nothing to claim.
	items, finalize, err := s.invokeReadOnly(nativenames.NeoHash, []string{"balanceOf", "unclaimedGas"},
		[][]any{{u}, {u, s.chain.BlockHeight() + 1}})
	if err == nil {
		finalize()
		var bal, gas *big.Int
		if bal, err = items[0].TryInteger(); err == nil {
			if bal.Sign() == 0 {
				return res, nil
			}
			if gas, err = items[1].TryInteger(); err == nil {
				res.Unclaimed.Set(gas)
				return res, nil
			}
		}
	}
	return nil, neorpc.NewInternalServerError(fmt.Sprintf("Can't calculate claimable: %s", err))
}
