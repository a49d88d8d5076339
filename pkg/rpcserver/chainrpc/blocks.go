package chainrpc

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// Handlers of the block and transaction methods, over Blocks.

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

func (s *Service) getBestBlockHash(*args) (any, *neorpc.Error) {
	return "0x" + s.chain.CurrentBlockHash().StringLE(), nil
}

func (s *Service) getBlockCount(*args) (any, *neorpc.Error) {
	return s.chain.BlockHeight() + 1, nil
}

func (s *Service) getBlockHeaderCount(*args) (any, *neorpc.Error) {
	return s.chain.HeaderHeight() + 1, nil
}

func (s *Service) getBlockHash(a *args) (any, *neorpc.Error) {
	return s.chain.GetHeaderHash(get[uint32](a, 0)), nil
}

// blockMetadata is the verbose part of getblock and getblockheader.
func (s *Service) blockMetadata(size int, h *block.Header) result.BlockMetadata {
	md := result.BlockMetadata{Size: size, Confirmations: s.chain.BlockHeight() - h.Index + 1}
	if next := s.chain.GetHeaderHash(h.Index + 1); !next.IsZero() {
		md.NextBlockHash = &next
	}
	return md
}

func (s *Service) getBlock(a *args) (any, *neorpc.Error) {
	b, err := s.chain.GetBlock(get[hash.Uint256](a, 0))
	switch {
	case err != nil:
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownBlock, err.Error())
	case get[bool](a, 1):
		return rawJSON(&result.Block{Block: *b, BlockMetadata: s.blockMetadata(b.Size(), &b.Header)})
	default:
		return b.Bytes(), nil
	}
}

func (s *Service) getBlockHeader(a *args) (any, *neorpc.Error) {
	hdr, err := s.chain.GetHeader(get[hash.Uint256](a, 0))
	switch {
	case err != nil:
		return nil, neorpc.ErrUnknownBlock
	case get[bool](a, 1):
		return rawJSON(&result.Header{Header: *hdr, BlockMetadata: s.blockMetadata(hdr.Size(), hdr)})
	default:
		return headerBytes(hdr), nil
	}
}

// getBlockSysFee sums the system fees of the block's transactions.
func (s *Service) getBlockSysFee(a *args) (any, *neorpc.Error) {
	b, err := s.chain.GetBlock(s.chain.GetHeaderHash(get[uint32](a, 0)))
	if err != nil {
		return nil, neorpc.ErrUnknownBlock
	}
	var total int64
	for _, tx := range b.Transactions {
		total += tx.SystemFee
	}
	return total, nil
}

func (s *Service) getRawTransaction(a *args) (any, *neorpc.Error) {
	txHash := get[hash.Uint256](a, 0)
	tx, at, err := s.chain.GetTransaction(txHash)
	if err != nil {
		return nil, neorpc.ErrUnknownTransaction
	}
	if !get[bool](a, 1) {
		return tx.Bytes(), nil
	}
	out := &result.TransactionOutputRaw{Transaction: *tx}
	if at == math.MaxUint32 { // in the memory pool: no metadata
		return out, nil
	}
	md, rerr := s.txMetadata(txHash, at)
	if rerr != nil {
		return nil, rerr
	}
	out.TransactionMetadata = md
	return rawJSON(out)
}

// txMetadata is the verbose part of getrawtransaction for a transaction of
// block at.
func (s *Service) txMetadata(txHash hash.Uint256, at uint32) (result.TransactionMetadata, *neorpc.Error) {
	var md result.TransactionMetadata
	hdr, err := s.chain.GetHeader(s.chain.GetHeaderHash(at))
	if err != nil {
		return md, neorpc.NewInternalServerError("Failed to get header for the transaction: " + err.Error())
	}
	logs, err := s.chain.GetAppExecResults(txHash, trigger.Application)
	switch {
	case err != nil:
		return md, neorpc.NewInternalServerError("Failed to get application log for the transaction: " + err.Error())
	case len(logs) == 0:
		return md, neorpc.NewInternalServerError("Inconsistent application log: application log for the transaction is empty")
	}
	md.Blockhash = hdr.Hash()
	md.Confirmations = int(s.chain.BlockHeight() - hdr.Index + 1)
	md.Timestamp = hdr.Timestamp
	md.VMState = logs[0].VMState.String()
	return md, nil
}

func (s *Service) getTransactionHeight(a *args) (any, *neorpc.Error) {
	_, at, err := s.chain.GetTransaction(get[hash.Uint256](a, 0))
	if err != nil || at == math.MaxUint32 {
		return nil, neorpc.ErrUnknownTransaction
	}
	return at, nil
}

func (s *Service) getRawMempool(a *args) (any, *neorpc.Error) {
	pooled := s.chain.GetVerifiedTransactions()
	hashes := make([]hash.Uint256, 0, len(pooled))
	for _, tx := range pooled {
		hashes = append(hashes, tx.Hash())
	}
	if get[bool](a, 0) {
		return &result.RawMempool{Height: s.chain.BlockHeight(), Verified: hashes, Unverified: []hash.Uint256{}}, nil
	}
	return hashes, nil
}

// parseTrigger parses a trigger name as neo-go's trigger.FromString does
// (case-insensitive; OnPersist, PostPersist, Verification, Application,
// All; its error text).
func parseTrigger(name string) (trigger.Type, error) {
	for _, t := range [...]trigger.Type{trigger.OnPersist, trigger.PostPersist, trigger.Verification, trigger.Application, trigger.All} {
		if strings.EqualFold(t.String(), name) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown trigger type: %s", strings.ToLower(name))
}

func (s *Service) getApplicationLog(a *args) (any, *neorpc.Error) {
	h := get[hash.Uint256](a, 0)
	only := trigger.All
	if a.has(1) {
		only = get[trigger.Type](a, 1)
	}
	logs, err := s.chain.GetAppExecResults(h, trigger.All)
	if err == nil && len(logs) == 0 {
		err = errKeyNotFound
	}
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownScriptContainer, "failed to locate application log: "+err.Error())
	}
	return rawJSON(result.NewApplicationLog(h, logs, only))
}

// errKeyNotFound is neo-go's storage text for a missing record.
var errKeyNotFound = fmt.Errorf("key not found")

// getBlockNotifications lists the notifications of a block's HALTed
// executions (OnPersist, each transaction, PostPersist) that pass the
// filter.
func (s *Service) getBlockNotifications(a *args) (any, *neorpc.Error) {
	filter := get[neorpc.SubscriptionFilter](a, 1)
	b, err := s.chain.GetBlock(get[hash.Uint256](a, 0))
	if err != nil {
		return nil, neorpc.ErrUnknownBlock
	}
	pick := func(logs []state.AppExecResult) []result.ContainedNotificationEvent {
		return haltedNotifications(logs, filter)
	}
	res := &result.BlockNotifications{}
	persist, rerr := s.blockLog(b.Hash(), trigger.OnPersist)
	if rerr != nil {
		return nil, rerr
	}
	res.OnPersist = pick(persist)
	for _, tx := range b.Transactions {
		logs, err := s.chain.GetAppExecResults(tx.Hash(), trigger.Application)
		if err != nil {
			return nil, neorpc.NewInternalServerError("failed to get app exec results")
		}
		res.Application = append(res.Application, pick(logs)...)
	}
	post, rerr := s.blockLog(b.Hash(), trigger.PostPersist)
	if rerr != nil {
		return nil, rerr
	}
	res.PostPersist = pick(post)
	return res, nil
}

// blockLog returns the one execution of a block with trigger t.
func (s *Service) blockLog(h hash.Uint256, t trigger.Type) ([]state.AppExecResult, *neorpc.Error) {
	logs, err := s.chain.GetAppExecResults(h, t)
	if err != nil || len(logs) == 0 {
		return nil, neorpc.NewInternalServerError("failed to get app exec results for " + strings.ToLower(t.String()))
	}
	return logs[:1], nil
}

// haltedNotifications returns the notifications of HALTed executions that
// pass filter (nil: all).
func haltedNotifications(logs []state.AppExecResult, filter neorpc.SubscriptionFilter) []result.ContainedNotificationEvent {
	var res []result.ContainedNotificationEvent
	for i := range logs {
		if logs[i].VMState != vmstate.Halt {
			continue
		}
		for _, ev := range logs[i].Events {
			if filter != nil {
				f := notificationFields(&ev)
				if !neorpc.Matches(neorpc.NotificationEventID, filter, &f) {
					continue
				}
			}
			res = append(res, result.ContainedNotificationEvent{Container: logs[i].Container, NotificationEvent: ev})
		}
	}
	return res
}
