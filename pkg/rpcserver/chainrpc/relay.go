package chainrpc

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/internal/neogotext"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
)

// maxBase64TransactionSize is the longest base64 transaction
// sendrawtransaction decodes (neo-go: the encoded MaxTransactionSize).
var maxBase64TransactionSize = base64.StdEncoding.EncodedLen(transaction.MaxTransactionSize)

// decodeTransaction decodes a whole transaction with neo-go's texts for
// truncated input and trailing bytes. The result aliases b.
func decodeTransaction(b []byte) (*transaction.Transaction, error) {
	tx := new(transaction.Transaction)
	r := nio.NewBinReaderFromBuf(b)
	tx.DecodeAliased(r, b)
	if r.Err != nil {
		return nil, neogotext.EOFText(r.Err, b, false)
	}
	if r.Len() != 0 {
		return nil, errors.New("additional data after the transaction")
	}
	return tx, nil
}

// relayResult answers a relay: the hash, or the error's code (see
// RelayError) with its text as data.
func relayResult(err error, h hash.Uint256) (any, *neorpc.Error) {
	if err == nil {
		return &result.RelayResult{Hash: h}, nil
	}
	var re *RelayError
	if errors.As(err, &re) && re.Code != nil {
		return nil, neorpc.WrapErrorWithData(re.Code, err.Error())
	}
	return nil, neorpc.WrapErrorWithData(neorpc.ErrVerificationFailed, err.Error())
}

func (s *Service) sendRawTransaction(p neorpc.Params) (any, *neorpc.Error) {
	if len(p) < 1 {
		return nil, neorpc.NewInvalidParamsError("not enough parameters")
	}
	b64, err := p[0].GetString()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("not a string: %s", err))
	}
	if len(b64) > maxBase64TransactionSize {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidSize, fmt.Sprintf("base64-encoded transaction size exceeds maximum allowed: %d vs %d", len(b64), maxBase64TransactionSize))
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("not a base64: %s", err))
	}
	tx, err := decodeTransaction(raw)
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("can't decode transaction: %s", err))
	}
	return relayResult(s.relayTx(tx), tx.Hash())
}

func (s *Service) relayTx(tx *transaction.Transaction) error {
	if s.net == nil {
		return s.chain.PoolTx(tx)
	}
	if s.cfg.DirectRelay {
		if d, ok := s.net.(DirectRelayer); ok {
			return d.RelayTxDirectly(tx)
		}
	}
	return s.net.RelayTx(tx)
}

func (s *Service) submitBlock(p neorpc.Params) (any, *neorpc.Error) {
	b64, err := p.Value(0).GetString()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("not a string: %s", err))
	}
	maxLen := base64.StdEncoding.EncodedLen(int(s.chain.Config().MaxBlockSize))
	if len(b64) > maxLen {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidSize, fmt.Sprintf("base64-encoded block size exceeds maximum allowed: %d vs %d", len(b64), maxLen))
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("not a base64: %s", err))
	}
	b := new(block.Block)
	r := nio.NewBinReaderFromBuf(raw)
	b.DecodeBinary(r)
	if r.Err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("can't decode block: %s", neogotext.EOFText(r.Err, raw, true)))
	}
	return relayResult(s.chain.AddBlock(b), b.Hash())
}

// oracleResponseMessage is what an oracle node signs with its response
// (neo-go broadcaster.GetMessage): public key, request id (LE), tx
// signature.
func oracleResponseMessage(pub []byte, reqID uint64, txSig []byte) []byte {
	m := make([]byte, 0, len(pub)+8+len(txSig))
	m = append(m, pub...)
	m = binary.LittleEndian.AppendUint64(m, reqID)
	return append(m, txSig...)
}

func (s *Service) submitOracleResponse(p neorpc.Params) (any, *neorpc.Error) {
	if s.oracle == nil {
		return nil, neorpc.ErrOracleDisabled
	}
	pubBytes, err := p.Value(0).GetBytesBase64()
	var pub *keys.PublicKey
	if err == nil {
		pub, err = keys.NewPublicKeyFromBytes(pubBytes)
	}
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("public key is missing: %s", err))
	}
	reqID, err := p.Value(1).GetInt()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("request ID is missing: %s", err))
	}
	txSig, err := p.Value(2).GetBytesBase64()
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("tx signature is missing: %s", err))
	}
	msgSig, err := p.Value(3).GetBytesBase64()
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("msg signature is missing: %s", err))
	}
	msg := oracleResponseMessage(pubBytes, uint64(reqID), txSig)
	if !pub.VerifyMessage(msgSig, msg) {
		return nil, neorpc.ErrInvalidSignature
	}
	s.oracle.AddResponse(pub, uint64(reqID), txSig)
	return json.RawMessage("{}"), nil
}

// errP2PSigExtensions is the answer of the notary methods without
// P2PSigExtensions.
func errP2PSigExtensions() *neorpc.Error {
	return neorpc.NewInternalServerError("P2PSignatureExtensions are disabled")
}

func (s *Service) notaryEnabled() bool {
	return s.chain.Config().P2PSigExtensions && s.notary != nil
}

func (s *Service) submitNotaryRequest(p neorpc.Params) (any, *neorpc.Error) {
	if !s.notaryEnabled() {
		return nil, errP2PSigExtensions()
	}
	raw, err := p.Value(0).GetBytesBase64()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("not a base64: %s", err))
	}
	r, err := s.notary.DecodeNotaryRequest(raw)
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("can't decode notary payload: %s", err))
	}
	return relayResult(s.notary.RelayNotaryRequest(r), r.Fallback.Hash())
}

func (s *Service) getRawNotaryPool(neorpc.Params) (any, *neorpc.Error) {
	if !s.notaryEnabled() {
		return nil, errP2PSigExtensions()
	}
	res := &result.RawNotaryPool{Hashes: make(map[hash.Uint256][]hash.Uint256)}
	for _, r := range s.notary.NotaryRequests() {
		m := r.Main.Hash()
		res.Hashes[m] = append(res.Hashes[m], r.Fallback.Hash())
	}
	return res, nil
}

func (s *Service) getRawNotaryTransaction(p neorpc.Params) (any, *neorpc.Error) {
	if !s.notaryEnabled() {
		return nil, errP2PSigExtensions()
	}
	h, err := p.Value(0).GetUint256()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	var tx *transaction.Transaction
	reqs := s.notary.NotaryRequests()
	for _, r := range reqs {
		if r.Fallback.Hash() == h {
			tx = r.Fallback
			break
		}
	}
	if tx == nil {
		for _, r := range reqs {
			if r.Main.Hash() == h {
				tx = r.Main
				break
			}
		}
	}
	if tx == nil {
		return nil, neorpc.ErrUnknownTransaction
	}
	if v, _ := p.Value(1).GetBoolean(); v {
		return tx, nil
	}
	return tx.Bytes(), nil
}
