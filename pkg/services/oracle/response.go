package oracle

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm"

	nio "github.com/n3node/n3node/pkg/io"
)

// getResponse returns the response state of a request, creating it if
// asked and the request was not dropped by the last Refresh.
func (s *Service) getResponse(id uint64, create bool) *incompleteTx {
	s.respMu.Lock()
	defer s.respMu.Unlock()
	t, ok := s.responses[id]
	if !ok && create && !s.removed[id] {
		t = newIncompleteTx()
		s.responses[id] = t
	}
	return t
}

// AddResponse takes the signature txSig of Oracle node pub on the
// response (or backup) transaction of request reqID: the
// submitoracleresponse RPC calls it after checking the message signature
// (ResponseMessage). Signatures of keys that are not designated Oracle
// nodes are ignored (neo-go keeps them, but never uses them).
func (s *Service) AddResponse(pub *keys.PublicKey, reqID uint64, txSig []byte) {
	if !s.isOracleNode(pub) {
		// The block designating pub may be committed but not seen by
		// OnBlock yet.
		s.updateNodes()
		if !s.isOracleNode(pub) {
			s.log.Debug("oracle response from a node that is not designated", "pub", pub.StringCompressed())
			return
		}
	}
	t := s.getResponse(reqID, true)
	if t == nil {
		return
	}
	nodes, _ := s.oracleNodes()
	t.mu.Lock()
	backup := false
	if t.main.tx != nil {
		data := t.main.tx.SignData(s.network)
		if !pub.VerifyMessage(txSig, data[:]) {
			data = t.backup.tx.SignData(s.network)
			if !pub.VerifyMessage(txSig, data[:]) {
				t.mu.Unlock()
				s.log.Debug("invalid oracle response signature", "pub", pub.StringCompressed(), "id", reqID)
				return
			}
			backup = true
		}
	}
	t.add(pub, txSig, backup)
	ready := t.finalizeOnce(nodes)
	t.mu.Unlock()
	if ready != nil {
		s.sendTx(ready)
	}
}

// ResponseMessage is what an Oracle node signs (besides the transaction)
// when it sends its response signature to the others: its public key,
// the request id (uint64 LE) and the transaction signature (neo-go
// broadcaster.GetMessage; C# SubmitOracleResponse).
func ResponseMessage(pub []byte, reqID uint64, txSig []byte) []byte {
	m := make([]byte, 0, len(pub)+8+len(txSig))
	m = append(m, pub...)
	m = append(m, byte(reqID), byte(reqID>>8), byte(reqID>>16), byte(reqID>>24),
		byte(reqID>>32), byte(reqID>>40), byte(reqID>>48), byte(reqID>>56))
	return append(m, txSig...)
}

// ErrInvalidMessageSignature: a submitted response's message signature
// does not verify.
var ErrInvalidMessageSignature = errors.New("oracle: invalid response message signature")

// SubmitResponse is the whole submitoracleresponse handler for an RPC
// layer that does not check the message itself: pub (compressed key),
// the request id, the transaction signature and the message signature
// over ResponseMessage.
func (s *Service) SubmitResponse(pub []byte, reqID uint64, txSig, msgSig []byte) error {
	k, err := keys.NewPublicKeyFromBytes(pub)
	if err != nil {
		return fmt.Errorf("oracle: public key: %w", err)
	}
	if !k.VerifyMessage(msgSig, ResponseMessage(pub, reqID, txSig)) {
		return ErrInvalidMessageSignature
	}
	s.AddResponse(k, reqID, txSig)
	return nil
}

// ErrResponseTooLarge: the response exceeds MaxOracleResultSize.
var ErrResponseTooLarge = errors.New("too big response")

// readResponse reads at most MaxOracleResultSize bytes of UTF-8 (neo-go
// readResponse: an empty body is an Error, one byte too many is
// ResponseTooLarge).
func readResponse(r io.Reader) ([]byte, transaction.OracleResponseCode, error) {
	const limit = transaction.MaxOracleResultSize
	buf := make([]byte, limit+1)
	n, err := io.ReadFull(r, buf)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) && n <= limit:
		if !utf8.Valid(buf[:n]) {
			return nil, transaction.Error, errors.New("invalid UTF-8")
		}
		return buf[:n:n], transaction.Success, nil
	case err == nil || n > limit:
		return nil, transaction.ResponseTooLarge, ErrResponseTooLarge
	default:
		return nil, transaction.Error, err
	}
}

// MultisigNetFee is neo-go's fee.Calculate for a multisig verification
// script: the picoGAS of the script's run (rounded up to datoshi) and the
// size of the complete witness.
func MultisigNetFee(baseExecFee int64, script []byte) (int64, int, bool) {
	m, n, ok := smartcontract.ParseMultiSigContractMN(script)
	if !ok {
		return 0, 0, false
	}
	sizeInv := smartcontract.SignatureInvocationSize * m
	size := nio.VarUintSize(uint64(sizeInv)) + sizeInv + nio.VarBytesSize(len(script))
	pico := baseExecFee * fee.MultiSignatureContractCost(m, n)
	return (pico + vm.FeeFactor - 1) / vm.FeeFactor, size, true
}

// CreateResponseTx builds the unsigned response transaction for resp
// (neo-go CreateResponseTx): nonce = request id, the fixed script,
// signers [Oracle contract, Oracle nodes' multisig] with scope None, the
// network fee of the Oracle contract's verify run, the multisig check
// and the size, and the system fee gasForResponse minus the network fee.
// A result above MaxOracleResultSize (after the filter) makes resp
// ResponseTooLarge (C#), a network fee above gasForResponse
// InsufficientFunds, both without result (resp is modified).
func (s *Service) CreateResponseTx(gasForResponse int64, vub uint32, resp *transaction.OracleResponse) (*transaction.Transaction, error) {
	_, signScript := s.oracleNodes()
	if signScript == nil {
		return nil, errors.New("no oracle nodes")
	}
	chain := s.cfg.Chain
	tx := transaction.New(chain.OracleResponseScript(), uint32(resp.ID), 0, 0, vub)
	tx.Attributes = []transaction.Attribute{{Type: transaction.OracleResponseT, Value: resp}}
	tx.Signers = []transaction.Signer{
		{Account: nativenames.OracleHash, Scopes: transaction.None},
		{Account: hash.Hash160(signScript), Scopes: transaction.None},
	}
	tx.Witnesses = []transaction.Witness{{}}
	size := tx.Copy().Size() // one empty witness so far (a copy: Size caches)
	tx.Witnesses = append(tx.Witnesses, transaction.Witness{VerificationScript: signScript})

	// The Oracle contract's verify, as the ledger will run it.
	gas, err := chain.VerifyWitness(nativenames.OracleHash, tx.Copy(), &transaction.Witness{}, chain.GetMaxVerificationGAS())
	if err != nil {
		return nil, fmt.Errorf("oracle contract verification: %w", err)
	}
	tx.NetworkFee += gas
	netFee, sizeDelta, ok := MultisigNetFee(chain.GetBaseExecFee(), signScript)
	if !ok {
		return nil, errors.New("oracle nodes' script is not a multisig")
	}
	tx.NetworkFee += netFee
	size += sizeDelta
	perByte := chain.FeePerByte()
	switch {
	case len(resp.Result) > transaction.MaxOracleResultSize:
		// A filtered result can outgrow the limit; C# answers
		// ResponseTooLarge, neo-go builds a transaction no node can decode.
		before := attributesSize(tx.Attributes)
		resp.Code = transaction.ResponseTooLarge
		resp.Result = nil
		size = size - before + attributesSize(tx.Attributes)
	case tx.NetworkFee+int64(size)*perByte > gasForResponse:
		before := attributesSize(tx.Attributes)
		resp.Code = transaction.InsufficientFunds
		resp.Result = nil
		size = size - before + attributesSize(tx.Attributes)
	}
	tx.NetworkFee += int64(size) * perByte
	tx.SystemFee = gasForResponse - tx.NetworkFee
	return tx, nil
}

func attributesSize(as []transaction.Attribute) int {
	n := nio.VarUintSize(uint64(len(as)))
	for i := range as {
		n += as[i].Size()
	}
	return n
}
