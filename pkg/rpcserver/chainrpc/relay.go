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

func (s *Service) sendRawTransaction(a *args) (any, *neorpc.Error) {
	tx := get[*transaction.Transaction](a, 0)
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

func (s *Service) submitBlock(a *args) (any, *neorpc.Error) {
	b := get[*block.Block](a, 0)
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

// submitOracleResponse takes an oracle node's signature of a response
// transaction, if the node signed it.
func (s *Service) submitOracleResponse(a *args) (any, *neorpc.Error) {
	node, id, txSig := get[oracleKey](a, 0), uint64(get[int](a, 1)), get[[]byte](a, 2)
	if !node.key.VerifyMessage(get[[]byte](a, 3), oracleResponseMessage(node.raw, id, txSig)) {
		return nil, neorpc.ErrInvalidSignature
	}
	s.oracle.AddResponse(node.key, id, txSig)
	return json.RawMessage("{}"), nil
}

// errP2PSigExtensions is the answer of the notary methods without
// P2PSigExtensions.
func errP2PSigExtensions() *neorpc.Error {
	return neorpc.NewInternalServerError("P2PSignatureExtensions are disabled")
}

func (s *Service) submitNotaryRequest(a *args) (any, *neorpc.Error) {
	r, err := s.notary.DecodeNotaryRequest(get[[]byte](a, 0))
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("can't decode notary payload: %s", err))
	}
	return relayResult(s.notary.RelayNotaryRequest(r), r.Fallback.Hash())
}

func (s *Service) getRawNotaryPool(*args) (any, *neorpc.Error) {
	res := &result.RawNotaryPool{Hashes: make(map[hash.Uint256][]hash.Uint256)}
	for _, r := range s.notary.NotaryRequests() {
		main := r.Main.Hash()
		res.Hashes[main] = append(res.Hashes[main], r.Fallback.Hash())
	}
	return res, nil
}

// getRawNotaryTransaction finds a pooled fallback or, failing that, main
// transaction by hash.
func (s *Service) getRawNotaryTransaction(a *args) (any, *neorpc.Error) {
	h := get[hash.Uint256](a, 0)
	reqs := s.notary.NotaryRequests()
	var tx *transaction.Transaction
	for _, pick := range [...]func(NotaryRequest) *transaction.Transaction{
		func(r NotaryRequest) *transaction.Transaction { return r.Fallback },
		func(r NotaryRequest) *transaction.Transaction { return r.Main },
	} {
		for i := 0; i < len(reqs) && tx == nil; i++ {
			if t := pick(reqs[i]); t.Hash() == h {
				tx = t
			}
		}
	}
	switch {
	case tx == nil:
		return nil, neorpc.ErrUnknownTransaction
	case get[bool](a, 1):
		return tx, nil
	default:
		return tx.Bytes(), nil
	}
}
