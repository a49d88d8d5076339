package consensus

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/nspcc-dev/dbft"
)

// The dbft callbacks. dbft calls them from the event loop.

func (s *Service) timePerBlock() time.Duration {
	return time.Duration(s.ledger.GetMillisecondsPerBlock()) * time.Millisecond
}

// getKeyPair finds the node's key among the round's validators.
func (s *Service) getKeyPair(pubs []dbft.PublicKey) (int, dbft.PrivateKey, dbft.PublicKey) {
	if s.starting {
		return -1, nil, nil
	}
	for i, p := range pubs {
		pub := p.(*keys.PublicKey)
		for _, k := range s.keys {
			if k.PublicKey().Equal(pub) {
				return i, k, k.PublicKey()
			}
		}
	}
	return -1, nil, nil
}

// getValidators returns the validators of the block being agreed on. dbft
// calls it without arguments; if the ledger fails, the last good answer
// is used (dbft cannot run without validators).
func (s *Service) getValidators(...dbft.Transaction[Hash]) []dbft.PublicKey {
	vs, err := s.ledger.GetNextBlockValidators()
	if err != nil || len(vs) == 0 {
		s.log.Error("can't get validators, using the previous ones", "err", err)
		vs = s.validators
	} else {
		s.validators = vs
	}
	out := make([]dbft.PublicKey, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func (s *Service) requestTx(hs ...Hash) { s.net.RequestTx(hs...) }

func (s *Service) subscribeForTxs() {
	s.poolEvents = make(chan struct{})
	s.pool.RegisterTransactionAddedSubscriber(s.poolEvents)
}

// getTx returns a transaction of the proposal from the mempool.
func (s *Service) getTx(h Hash) dbft.Transaction[Hash] {
	if tx, ok := s.pool.TryGetValue(h); ok && tx != nil {
		return tx
	}
	return nil // an untyped nil: dbft tests the interface
}

// getVerified picks the transactions of a new proposal: the mempool's
// best, or in a later view the previous proposal's if at least half of it
// is still pooled (neo-go), cut to the block limits.
func (s *Service) getVerified() []dbft.Transaction[Hash] {
	var txs []*transaction.Transaction
	if s.dbft.ViewNumber > 0 && len(s.lastProposal) > 0 {
		txs = make([]*transaction.Transaction, 0, len(s.lastProposal))
		for _, h := range s.lastProposal {
			if tx, ok := s.pool.TryGetValue(h); ok {
				txs = append(txs, tx)
			}
		}
		if len(txs) < len(s.lastProposal)/2 {
			txs = s.pool.GetVerifiedTransactions()
		}
	} else {
		txs = s.pool.GetVerifiedTransactions()
	}
	if len(txs) > 0 {
		txs = selectTransactions(txs, s.limits())
	}
	out := make([]dbft.Transaction[Hash], len(txs))
	for i, tx := range txs {
		out[i] = tx
	}
	return out
}

// limits returns the block limits for the current round; the witness is
// that of the round's validators.
func (s *Service) limits() blockLimits {
	pubs := pubKeys(s.dbft.Validators)
	m := smartcontract.GetDefaultHonestNodeCount(len(pubs))
	script, err := smartcontract.CreateMultiSigRedeemScript(m, pubs)
	if err != nil {
		s.log.Error("can't make the validators' script", "err", err)
	}
	return blockLimits{
		maxTransactions: int(s.proto.MaxTransactionsPerBlock),
		maxSize:         int(s.proto.MaxBlockSize),
		maxSystemFee:    s.proto.MaxBlockSystemFee,
		witnessSize:     witnessSize(m, script),
		headerSize:      block.UnsignedSize(s.proto.StateRootInHeader),
	}
}

// broadcast signs an own payload and hands it to the network.
func (s *Service) broadcast(p dbft.ConsensusPayload[Hash]) {
	d := p.(*payload)
	if d.p.Message.Type() == message.PrepareResponseType && s.ownRequest != nil &&
		s.ownRequest.ViewNumber() == s.dbft.ViewNumber &&
		s.dbft.MyIndex == int(s.dbft.PrimaryIndex) {
		// A restarted primary took back its own PrepareRequest and dbft
		// answers it as a backup would. A primary sends no PrepareResponse
		// (C# CheckPrepareResponse); its preparation is the request.
		s.dbft.PreparationPayloads[s.dbft.MyIndex] = s.ownRequest
		return
	}
	d.sync()
	key, ok := s.dbft.Priv.(*keys.PrivateKey)
	if !ok {
		s.log.Error("no key to sign a consensus payload")
		return
	}
	d.p.Sign(s.magic, key)
	e := d.p.Extensible
	s.net.BroadcastExtensible(&e)
}

// newPayload makes an own payload for the current round.
func (s *Service) newPayload(c *dbft.Context[Hash], _ dbft.MessageType, msg any) dbft.ConsensusPayload[Hash] {
	body := bodyOf(msg)
	if r, ok := body.(*message.PrepareRequest); ok {
		r.Version = 0
		r.PrevHash = c.PrevHash
	}
	m := &message.Message{BlockIndex: c.BlockIndex, ViewNumber: c.ViewNumber, Body: body}
	var sender hash.Uint160
	if c.MyIndex >= 0 && c.MyIndex < len(c.Validators) {
		m.ValidatorIndex = uint8(c.MyIndex)
		sender = c.Validators[c.MyIndex].(*keys.PublicKey).ScriptHash()
	}
	return s.wrap(message.NewPayload(m, sender))
}

func (s *Service) newPrepareRequest(ts, nonce uint64, hs []Hash) dbft.PrepareRequest[Hash] {
	if s.nonce != nil {
		// Only the primary's own proposal comes here (dbft's Fill just
		// drew the nonce); the block it builds reads the context's.
		nonce = s.nonce()
		s.dbft.Nonce = nonce
	}
	req := &message.PrepareRequest{Timestamp: ts / nsInMs, Nonce: nonce, TransactionHashes: hs}
	if s.proto.StateRootInHeader {
		req.StateRootEnabled = true
		if root, err := s.prevStateRoot(); err == nil {
			req.StateRoot = root
		} else {
			s.log.Error("no state root for the proposal", "err", err)
		}
	}
	return prepareRequest{req}
}

// newChangeView makes a ChangeView. For the reasons that carry rejected
// hashes they are written (C# 3.10 form, possibly empty): C# 3.9 and
// neo-go 0.120.0 ignore the bytes after the reason, C# 3.10 and neo-go
// 0.121 need them.
func (s *Service) newChangeView(newView byte, reason dbft.ChangeViewReason, ts uint64) dbft.ChangeView {
	cv := &message.ChangeView{Timestamp: ts / nsInMs, Reason: message.ChangeViewReason(reason)}
	if cv.Reason.HasHashes() {
		cv.HasRejectedHashes = true
		cv.RejectedHashes = slices.Clone(s.rejected)
	}
	return changeView{cv, newView}
}

// verifyRequest checks a PrepareRequest beyond its block (which
// verifyBlock checks once the transactions are in).
func (s *Service) verifyRequest(p dbft.ConsensusPayload[Hash]) error {
	req := p.(*payload).p.Message.PrepareRequest()
	if req.PrevHash != s.dbft.PrevHash {
		return errPrevHash
	}
	if req.Version != 0 {
		return errVersion
	}
	if s.proto.StateRootInHeader {
		root, err := s.prevStateRoot()
		if err != nil {
			return err
		}
		if req.StateRoot != root {
			return fmt.Errorf("%w: %s != %s", errStateRoot, root.StringLE(), req.StateRoot.StringLE())
		}
	}
	if len(req.TransactionHashes) > int(s.proto.MaxTransactionsPerBlock) {
		return errTooManyTxs
	}
	limit := uint64(s.clock.Now().UnixMilli()) + futureBlocks*uint64(s.timePerBlock().Milliseconds())
	if req.Timestamp > limit {
		return errFutureTimestamp
	}
	s.lastProposal = req.TransactionHashes
	if int(p.ValidatorIndex()) == s.dbft.MyIndex {
		s.ownRequest = p
	}
	return nil
}

// newBlockFromContext makes the header of the block being agreed on.
func (s *Service) newBlockFromContext(c *dbft.Context[Hash]) dbft.Block[Hash] {
	next := s.ledger.ComputeNextBlockValidators()
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(next)
	if err != nil {
		s.log.Error("can't make NextConsensus", "err", err)
		return nil
	}
	b := &neoBlock{magic: s.magic}
	h := &b.b.Header
	h.Version = 0
	h.PrevHash = c.PrevHash
	h.Timestamp = c.Timestamp / nsInMs
	h.Nonce = c.Nonce
	h.Index = c.BlockIndex
	h.PrimaryIndex = uint8(c.PrimaryIndex)
	h.NextConsensus = hash.Hash160(script)
	h.MerkleRoot = hash.MerkleRoot(c.TransactionHashes)
	if s.proto.StateRootInHeader {
		root, err := s.prevStateRoot()
		if err != nil {
			s.log.Error("no state root for the block", "err", err)
			return nil
		}
		h.StateRootEnabled = true
		h.PrevStateRoot = root
	}
	return b
}

// prevStateRoot returns the local state root of the block before the one
// being agreed on (StateRootInHeader networks).
func (s *Service) prevStateRoot() (hash.Uint256, error) {
	return s.roots.LocalStateRoot(s.dbft.BlockIndex - 1)
}

// verifyBlock checks a proposed block before this node accepts it (neo-go
// verifyBlock).
func (s *Service) verifyBlock(b dbft.Block[Hash]) bool {
	blk := &b.(*neoBlock).b
	if s.ledger.BlockHeight() >= blk.Index {
		s.log.Warn("proposed block is outdated", "index", blk.Index)
		return false
	}
	if s.lastTimestamp >= blk.Timestamp {
		s.log.Warn("proposed block has a small timestamp", "ts", blk.Timestamp, "last", s.lastTimestamp)
		return false
	}
	// The witness is not there yet: neo-go compares the size without it.
	if size := blk.Size(); size > int(s.proto.MaxBlockSize) {
		s.log.Warn("proposed block exceeds MaxBlockSize", "size", size, "max", s.proto.MaxBlockSize)
		return false
	}
	var fee int64
	for _, tx := range blk.Transactions {
		fee += tx.SystemFee
	}
	if fee > s.proto.MaxBlockSystemFee {
		s.log.Warn("proposed block exceeds MaxBlockSystemFee", "fee", fee, "max", s.proto.MaxBlockSystemFee)
		return false
	}
	s.rejected = nil
	if err := s.ledger.VerifyProposedTransactions(blk.Transactions); err != nil {
		s.log.Warn("invalid transaction in proposed block", "err", err)
		if re := (*RejectedTxError)(nil); errors.As(err, &re) {
			s.rejected = []Hash{re.Hash}
		}
		return false
	}
	return true
}

// processBlock signs off an agreed block with the validators' signatures
// and hands it to the ledger. It never fails: dbft stops on an error.
func (s *Service) processBlock(b dbft.Block[Hash]) error {
	blk := b.(*neoBlock).b // a copy: dbft keeps its own
	w, err := s.blockWitness()
	if err != nil {
		s.log.Error("can't make the block witness", "err", err)
		return nil
	}
	blk.Witness = w
	if err := s.ledger.AddBlock(&blk); err != nil {
		// The block may have come from the network first.
		if _, gerr := s.ledger.GetHeader(blk.Hash()); gerr != nil {
			s.log.Warn("can't add the agreed block, will retry", "index", blk.Index, "err", err)
			s.keepUnadded(&blk)
		}
	}
	s.postBlock(blk.Timestamp)
	return nil
}

// blockWitness is the M-of-N witness of the current round's validators:
// the Commit signatures of this view, pushed in the order of the keys in
// the multi-signature script (sorted; the validators' own order is the
// same), M of them.
func (s *Service) blockWitness() (transaction.Witness, error) {
	c := &s.dbft.Context
	pubs := pubKeys(c.Validators)
	m := s.dbft.M()
	script, err := smartcontract.CreateMultiSigRedeemScript(m, pubs)
	if err != nil {
		return transaction.Witness{}, err
	}
	order := make([]int, len(pubs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return pubs[a].Cmp(pubs[b]) })
	inv := make([]byte, 0, m*smartcontract.SignatureInvocationSize)
	n := 0
	for _, i := range order {
		if n == m {
			break
		}
		p := c.CommitPayloads[i]
		if p == nil || p.ViewNumber() != c.ViewNumber {
			continue
		}
		sig := p.GetCommit().Signature()
		inv = append(inv, 0x0c, byte(len(sig))) // PUSHDATA1
		inv = append(inv, sig...)
		n++
	}
	return transaction.Witness{InvocationScript: inv, VerificationScript: script}, nil
}
