package chainrpc

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	fakeblock "github.com/n3node/n3node/pkg/internal/neogotext/block"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/internal/neogotext"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// This file is the one place where positional parameters become values:
// the decoder and every reader (step constructor) of the methods. A
// method declares its parameters as a list of steps (see service.go);
// decode runs them in order and the first failure is the answer, so the
// order of the list is the order in which neo-go reports problems. A step
// either reads the next position or checks a precondition (parameter
// count, node settings) without consuming one.
//
// How a bad value is answered is part of its declaration (bad):
//
//	""              -32602 "Invalid params" (the bare error)
//	"text"          -32602 with data "text"
//	"text: %s"      -32602 with data "text: " + the reader's error
//
// A reader that fails with a *neorpc.Error (unknown height, unknown
// contract, ...) is answered with that error; with a bad text containing
// %s its data is wrapped the same way (getblocksysfee).

// args are the decoded parameters of one call. The values of a method's
// own parameters are read with get; a leading state point (the block of a
// *historic method, the state root of a state method) is kept apart in at
// or root, so that a historic method reads its other parameters at the
// same indexes as its current-state twin.
type args struct {
	vals []any // by position after the state point; nil: absent
	// at is the index of the fake next block of a historic invocation.
	at *uint32
	// root is the state root of a state method.
	root *hash.Uint256
	// left is the number of positions not read yet (for atLeast).
	left int
	// params and pos are the call's parameters and the position being
	// read (for a step that reads several, see transferWindow).
	params neorpc.Params
	pos    int
}

// get returns the value at index i of the method's own parameters (the
// zero value if it was absent).
func get[T any](a *args, i int) T {
	var v T
	if i < len(a.vals) {
		v, _ = a.vals[i].(T)
	}
	return v
}

// has reports whether the parameter at index i was given.
func (a *args) has(i int) bool { return i < len(a.vals) && a.vals[i] != nil }

// step is one declared parameter or precondition.
type step struct {
	// read makes the value of the parameter (nil if the step is a check).
	read func(s *Service, p *neorpc.Param, a *args) (any, error)
	// check tests a precondition.
	check func(s *Service, a *args) *neorpc.Error
	// opt: an absent parameter is skipped (its value stays nil).
	opt bool
	// bad is how a failed read is answered (see above).
	bad string
}

// decode runs the steps of a method over p.
func (s *Service) decode(steps []step, p neorpc.Params) (*args, *neorpc.Error) {
	a := &args{vals: make([]any, 0, len(p)), left: len(p), params: p}
	pos := 0
	for _, st := range steps {
		if st.check != nil {
			if e := st.check(s, a); e != nil {
				return nil, e
			}
			continue
		}
		prm := p.Value(pos)
		a.pos = pos
		pos++
		a.left = max(len(p)-pos, 0)
		if prm == nil && st.opt {
			a.vals = append(a.vals, nil)
			continue
		}
		v, err := st.read(s, prm, a)
		if err != nil {
			return nil, st.answer(err)
		}
		switch x := v.(type) {
		case statePoint:
			if x.root != nil {
				a.root = x.root
			} else {
				a.at = &x.next
			}
		default:
			a.vals = append(a.vals, v)
		}
	}
	return a, nil
}

// answer turns a failed read into the method's answer.
func (st step) answer(err error) *neorpc.Error {
	if re, ok := errors.AsType[*neorpc.Error](err); ok {
		if strings.Contains(st.bad, "%s") {
			return neorpc.WrapErrorWithData(re, fmt.Sprintf(st.bad, re.Data))
		}
		return re
	}
	switch {
	case st.bad == "":
		return neorpc.ErrInvalidParams
	case strings.Contains(st.bad, "%s"):
		return neorpc.NewInvalidParamsError(fmt.Sprintf(st.bad, err))
	default:
		return neorpc.NewInvalidParamsError(st.bad)
	}
}

// statePoint is the value of a state point parameter (see args).
type statePoint struct {
	next uint32
	root *hash.Uint256
}

// Steps that check preconditions.

// atLeast requires n more parameters from the current position.
func atLeast(n int, e *neorpc.Error) step {
	return step{check: func(_ *Service, a *args) *neorpc.Error {
		if a.left < n {
			return e
		}
		return nil
	}}
}

// wholeStateOnly answers ErrUnsupportedState on a node that keeps only the
// latest state; what is the text before neo-go's reason.
func wholeStateOnly(what string) step {
	return step{check: func(s *Service, _ *args) *neorpc.Error {
		if s.chain.Config().KeepOnlyLatestState {
			return neorpc.WrapErrorWithData(neorpc.ErrUnsupportedState, fmt.Sprintf("%s: %s", what, errKeepOnlyLatestState))
		}
		return nil
	}}
}

// needs answers e unless the service has a part.
func needs(on func(s *Service) bool, e func() *neorpc.Error) step {
	return step{check: func(s *Service, _ *args) *neorpc.Error {
		if on(s) {
			return nil
		}
		return e()
	}}
}

// optional makes a step skip an absent parameter.
func optional(st step) step {
	st.opt = true
	return st
}

// Steps over neorpc.Param getters (the lenient forms neo-go accepts).

func getter[T any](get func(*neorpc.Param) (T, error), bad string) step {
	return step{bad: bad, read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		return get(p)
	}}
}

func hash256(bad string) step     { return getter((*neorpc.Param).GetUint256, bad) }
func hash160(bad string) step     { return getter((*neorpc.Param).GetUint160FromHex, bad) }
func account(bad string) step     { return getter((*neorpc.Param).GetUint160FromAddressOrHex, bad) }
func base64Bytes(bad string) step { return getter((*neorpc.Param).GetBytesBase64, bad) }
func hexBytes(bad string) step {
	return getter((*neorpc.Param).GetBytesHex, bad)
}
func integer(bad string) step { return getter((*neorpc.Param).GetInt, bad) }
func text(bad string) step    { return getter((*neorpc.Param).GetString, bad) }
func flag(bad string) step    { return getter((*neorpc.Param).GetBoolean, bad) }
func array(bad string) step   { return getter((*neorpc.Param).GetArray, bad) }

// raw keeps the parameter itself (decoded by the handler).
func raw() step {
	return step{read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) { return p, nil }}
}

// verbose is an optional flag that reads false when absent or malformed
// (getblock, getrawtransaction, ...).
func verbose() step {
	return step{read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		v, _ := p.GetBoolean()
		return v, nil
	}}
}

// signersParam is a signers list with their witnesses (invoke*).
type signersParam struct {
	signers   []transaction.Signer
	witnesses []transaction.Witness
}

func signers() step {
	return optional(step{bad: "failed to get signers or witnesses: %s", read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		ss, ws, err := p.GetSignersWithWitnesses()
		return signersParam{ss, ws}, err
	}})
}

// Steps that look at the chain.

// height reads a block index not above the current height (neo-go's texts;
// the index in the text is always 0, as neo-go writes it).
func height() step {
	return step{read: func(s *Service, p *neorpc.Param, _ *args) (any, error) {
		n, err := p.GetInt()
		if err != nil {
			return nil, neorpc.ErrInvalidParams
		}
		if n < 0 || int64(n) > int64(s.chain.BlockHeight()) {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownHeight, fmt.Sprintf(
				"param at index 0 should be greater than or equal to 0 and less than or equal to current block height, got: %d", n))
		}
		return uint32(n), nil
	}}
}

// blockRef reads a block hash, or a block index that it turns into a hash.
func blockRef() step {
	byIndex := height().read
	return step{read: func(s *Service, p *neorpc.Param, a *args) (any, error) {
		if p == nil {
			return nil, neorpc.ErrInvalidParams
		}
		if h, err := p.GetUint256(); err == nil {
			return h, nil
		}
		n, err := byIndex(s, p, a)
		if err != nil {
			return nil, err
		}
		return s.chain.GetHeaderHash(n.(uint32)), nil
	}}
}

// contract reads a contract hash, address, native name or id (neo-go's
// order of attempts and texts).
func contract() step {
	return step{read: func(s *Service, p *neorpc.Param, _ *args) (any, error) {
		str, err := p.GetString()
		if err != nil {
			return nil, neorpc.ErrInvalidParams
		}
		if h, err := p.GetUint160FromAddressOrHex(); err == nil {
			return h, nil
		}
		if h, ok := s.nativeByName(str); ok {
			return h, nil
		}
		id, err := parseInt32(str)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("Invalid contract identifier (name/hash/index is expected) : %s", err))
		}
		if cs := s.chain.GetContractStateByID(id); cs != nil {
			return cs.Hash, nil
		}
		return nil, neorpc.ErrUnknownContract
	}}
}

// contractID reads a contract id, hash, address or native name and gives
// the contract id, looked up in the call's state root if it has one
// (neo-go's quirk kept: an unknown name gives id 0 and no error).
func contractID() step {
	return step{read: func(s *Service, p *neorpc.Param, a *args) (any, error) {
		str, err := p.GetString()
		if err != nil {
			return nil, neorpc.ErrInvalidParams
		}
		if id, err := parseInt32(str); err == nil {
			return id, nil
		}
		h, err := p.GetUint160FromAddressOrHex()
		if err != nil {
			var ok bool
			if h, ok = s.nativeByName(str); !ok {
				return int32(0), nil
			}
		}
		cs, rerr := s.contractAt(a.root, h)
		if rerr != nil {
			return nil, rerr
		}
		return cs.ID, nil
	}}
}

// stateRoot is the state point of a state method: a root hash, which a
// node keeping only the latest state accepts only if it is the current
// one.
func stateRoot() step {
	return step{bad: "invalid stateroot", read: func(s *Service, p *neorpc.Param, _ *args) (any, error) {
		root, err := p.GetUint256()
		if err != nil {
			return nil, err
		}
		if s.chain.Config().KeepOnlyLatestState {
			cur, err := s.chain.GetStateRoot(s.chain.BlockHeight())
			if err != nil {
				return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to get current stateroot: %s", err))
			}
			if cur.RootHash != root {
				return nil, neorpc.WrapErrorWithData(neorpc.ErrUnsupportedState, fmt.Sprintf("state-based methods are not supported for old states: %s", errKeepOnlyLatestState))
			}
		}
		return statePoint{root: &root}, nil
	}}
}

// historic is the state point of a *historic method: a block index, a
// block hash or a state root hash, giving the index of the block after
// it. It comes with its preconditions.
func historic(rest ...step) []step {
	point := step{read: func(s *Service, p *neorpc.Param, a *args) (any, error) {
		n, rerr := height().read(s, p, a)
		if rerr == nil {
			return statePoint{next: n.(uint32) + 1}, nil
		}
		h, err := p.GetUint256()
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid block hash or index or stateroot hash: %s", err))
		}
		if b, err := s.chain.GetBlock(h); err == nil {
			return statePoint{next: b.Index + 1}, nil
		}
		sh, err := s.chain.GetLatestStateHeight(h)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("unknown block or stateroot: %s", err))
		}
		return statePoint{next: sh + 1}, nil
	}}
	return append([]step{
		wholeStateOnly("only latest state is supported"),
		atLeast(1, neorpc.ErrInvalidParams),
		point,
		atLeast(1, neorpc.ErrInvalidParams),
	}, rest...)
}

// keyInPrefix reads an optional start key that must begin with the
// prefix read just before it; the value is the key without the prefix
// (nil for an empty key).
func keyInPrefix() step {
	return optional(step{read: func(_ *Service, p *neorpc.Param, a *args) (any, error) {
		key, err := p.GetBytesBase64()
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid key: %s", err))
		}
		prefix := get[[]byte](a, len(a.vals)-1)
		if len(key) == 0 {
			return []byte(nil), nil
		}
		if !bytes.HasPrefix(key, prefix) {
			return nil, neorpc.NewInvalidParamsError("key doesn't match prefix")
		}
		return key[len(prefix):], nil
	}})
}

// withData answers a failed step with its error's data wrapped in bad
// (keeping the error's code).
func withData(st step, bad string) step {
	st.bad = bad
	return st
}

// Readers used by one family of methods each.

// triggerName reads a trigger name (getapplicationlog: any problem is the
// bare invalid-params error).
func triggerName() step {
	return step{read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		name, err := p.GetString()
		if err != nil {
			return nil, err
		}
		return parseTrigger(name)
	}}
}

// notificationFilter reads the filter of getblocknotifications.
func notificationFilter() step {
	return step{bad: "invalid filter: %s", read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		return neorpc.DecodeFilter(neorpc.NotificationEventID, p.RawMessage)
	}}
}

// transactionBytes reads a base64 transaction and decodes it (bad answers
// either problem).
func transactionBytes(bad string) step {
	return step{bad: bad, read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		b, err := p.GetBytesBase64()
		if err != nil {
			return nil, err
		}
		return decodeTransaction(b)
	}}
}

// callArgs reads the arguments of invokefunction and gives the script
// that pushes them packed in an array.
func callArgs() step {
	return step{bad: "can't create invocation script: %s", read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		list, err := p.GetArray()
		if err != nil {
			return nil, fmt.Errorf("failed to convert %s to script parameter", p)
		}
		return argsScript(list, true)
	}}
}

// verifyArgs reads the arguments of a verify method and gives the
// invocation script that pushes them.
func verifyArgs() step {
	return step{bad: "%s", read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		list, err := p.GetArray()
		if err != nil {
			return nil, err
		}
		script, err := argsScript(list, false)
		if err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("can't create witness invocation script: %s", err))
		}
		return script, nil
	}}
}

// fakeTransaction reads the container of invokecontainedscript.
func fakeTransaction() step {
	return step{read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		fail := func(why error) error {
			return neorpc.NewInvalidParamsError(fmt.Sprintf("failed to unmarshal fake transaction: %s", why))
		}
		switch {
		case p == nil:
			return nil, fail(neorpc.ErrMissingParameter)
		case p.IsNull():
			return nil, fail(neorpc.ErrNullParameter)
		}
		tx := new(transaction.Transaction)
		if err := tx.UnmarshalJSONUnsafe(p.RawMessage); err != nil {
			return nil, fail(fmt.Errorf("failed to unmarshal fake transaction: %w", err))
		}
		if len(tx.Script) == 0 {
			return nil, neorpc.NewInvalidParamsError("transaction script is mandatory")
		}
		return tx, nil
	}}
}

// fakeBlock makes the persisting block of invokecontainedscript: the fake
// next block, with the non-zero fields of the given header (the primary
// index always).
func fakeBlock() step {
	return step{read: func(s *Service, p *neorpc.Param, _ *args) (any, error) {
		b, err := s.chain.GetFakeNextBlock(s.chain.BlockHeight() + 1)
		if err != nil {
			return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to mock block execution container: %s", err))
		}
		if p == nil || p.IsNull() {
			return b, nil
		}
		h, err := fakeblock.DecodeFakeHeader(p.RawMessage)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("failed to unmarshal fake block: failed to unmarshal fake header: %s", err))
		}
		overlay(&b.Version, h.Version)
		overlay(&b.PrevHash, h.PrevHash)
		overlay(&b.MerkleRoot, h.MerkleRoot)
		overlay(&b.Timestamp, h.Timestamp)
		overlay(&b.Nonce, h.Nonce)
		overlay(&b.Index, h.Index)
		overlay(&b.NextConsensus, h.NextConsensus)
		b.PrimaryIndex = h.PrimaryIndex
		return b, nil
	}}
}

// overlay sets *dst to v unless v is the zero value.
func overlay[T comparable](dst *T, v T) {
	var zero T
	if v != zero {
		*dst = v
	}
}

// containedTrigger reads the trigger of invokecontainedscript: Application
// or Verification.
func containedTrigger() step {
	return step{read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		name, err := p.GetString()
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid trigger parameter: %s", err))
		}
		t, err := parseTrigger(name)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("failed to parse trigger: %s", err))
		}
		if t != trigger.Application && t != trigger.Verification {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("unsupported trigger: expected %s or %s, got %s", trigger.Application, trigger.Verification, t))
		}
		return t, nil
	}}
}

// rawTransaction reads the base64 transaction of sendrawtransaction (its
// encoded size limited first).
func rawTransaction() step {
	return step{read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		raw, rerr := limitedBase64(p, maxBase64TransactionSize, "transaction")
		if rerr != nil {
			return nil, rerr
		}
		tx, err := decodeTransaction(raw)
		if err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("can't decode transaction: %s", err))
		}
		return tx, nil
	}}
}

// rawBlock reads the base64 block of submitblock (its encoded size
// limited by MaxBlockSize first).
func rawBlock() step {
	return step{read: func(s *Service, p *neorpc.Param, _ *args) (any, error) {
		raw, rerr := limitedBase64(p, base64.StdEncoding.EncodedLen(int(s.chain.Config().MaxBlockSize)), "block")
		if rerr != nil {
			return nil, rerr
		}
		b := &block.Block{Header: block.Header{StateRootEnabled: s.chain.Config().StateRootInHeader}}
		r := nio.NewBinReaderFromBuf(raw)
		if b.DecodeBinary(r); r.Err != nil {
			return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("can't decode block: %s", neogotext.EOFText(r.Err, raw, true)))
		}
		return b, nil
	}}
}

// limitedBase64 decodes a base64 string parameter no longer than limit.
func limitedBase64(p *neorpc.Param, limit int, what string) ([]byte, *neorpc.Error) {
	enc, err := p.GetString()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("not a string: %s", err))
	}
	if len(enc) > limit {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidSize, fmt.Sprintf("base64-encoded %s size exceeds maximum allowed: %d vs %d", what, len(enc), limit))
	}
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("not a base64: %s", err))
	}
	return raw, nil
}

// oracleKey is the public key of an oracle node with its encoding.
type oracleKey struct {
	raw []byte
	key *keys.PublicKey
}

// stateRootRef keeps getstateroot's parameter, a height or a block hash,
// for the handler (anything unreadable is an unknown root).
func stateRootRef() step {
	return step{read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		if p == nil {
			return nil, neorpc.NewInvalidParamsError("missing stateroot identifier")
		}
		return p, nil
	}}
}

// window is the range and page of getnep1xtransfers.
type window struct {
	start, end  uint64 // ms timestamps
	limit, page int
}

// transferWindow reads the optional start, end (ms timestamps), limit and
// page of getnep1xtransfers (neo-go's defaults: the last 7 days, 1000
// items; neo-go's order of checks: page, limit, end, start).
func transferWindow() step {
	return step{bad: "malformed timestamps/limit: %s", read: func(s *Service, p *neorpc.Param, a *args) (any, error) {
		w := window{limit: MaxTransfersLimit}
		at := func(i int) *neorpc.Param { return a.params.Value(a.pos + i) }
		if v := at(3); v != nil {
			n, err := v.GetInt()
			switch {
			case err != nil:
				return nil, err
			case n < 0:
				return nil, errors.New("can't use negative page")
			}
			w.page = n
		}
		if v := at(2); v != nil {
			n, err := v.GetInt()
			switch {
			case err != nil:
				return nil, err
			case n <= 0:
				return nil, errors.New("can't use negative or zero limit")
			case n > MaxTransfersLimit:
				return nil, errors.New("too big limit requested")
			}
			w.limit = n
		}
		now := s.now()
		w.end, w.start = uint64(now.Unix()*1000), uint64(now.Add(-7*24*time.Hour).Unix()*1000)
		for _, f := range [...]struct {
			at  int
			dst *uint64
		}{{1, &w.end}, {0, &w.start}} {
			if v := at(f.at); v != nil {
				n, err := v.GetInt()
				if err != nil {
					return nil, err
				}
				*f.dst = uint64(n)
			}
		}
		return w, nil
	}}
}

// oracleNodeKey reads the base64 public key of an oracle node
// (submitoracleresponse).
func oracleNodeKey() step {
	return step{bad: "public key is missing: %s", read: func(_ *Service, p *neorpc.Param, _ *args) (any, error) {
		raw, err := p.GetBytesBase64()
		if err != nil {
			return nil, err
		}
		k, err := keys.NewPublicKeyFromBytes(raw)
		return oracleKey{raw, k}, err
	}}
}
