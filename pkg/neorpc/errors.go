package neorpc

import (
	"errors"
	"fmt"
)

// Error is a JSON-RPC 2.0 error object. Data is omitted from JSON when empty.
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitzero"`
}

// JSON-RPC 2.0 error codes. neo-go's server never answers InvalidRequestCode:
// a wrong "jsonrpc" version is InvalidParamsCode and a missing method is
// MethodNotFoundCode (see docs/rpc.md).
const (
	InternalServerErrorCode = -32603
	BadRequestCode          = -32700 // parse error
	InvalidRequestCode      = -32600
	MethodNotFoundCode      = -32601
	InvalidParamsCode       = -32602
)

// Neo extension codes for missing items.
const (
	ErrUnknownBlockCode           = -101
	ErrUnknownContractCode        = -102
	ErrUnknownTransactionCode     = -103
	ErrUnknownStorageItemCode     = -104
	ErrUnknownScriptContainerCode = -105
	ErrUnknownStateRootCode       = -106
	ErrUnknownSessionCode         = -107
	ErrUnknownIteratorCode        = -108
	ErrUnknownHeightCode          = -109
)

// Wallet codes; only the C# node returns them.
const (
	ErrInsufficientFundsWalletCode = -300
	ErrWalletFeeLimitCode          = -301
	ErrNoOpenedWalletCode          = -302
	ErrWalletNotFoundCode          = -303
	ErrWalletNotSupportedCode      = -304
)

// Inventory and verification codes.
const (
	ErrVerificationFailedCode          = -500
	ErrAlreadyExistsCode               = -501
	ErrMempoolCapReachedCode           = -502
	ErrAlreadyInPoolCode               = -503
	ErrInsufficientNetworkFeeCode      = -504
	ErrPolicyFailedCode                = -505
	ErrInvalidScriptCode               = -506
	ErrInvalidAttributeCode            = -507
	ErrInvalidSignatureCode            = -508
	ErrInvalidSizeCode                 = -509
	ErrExpiredTransactionCode          = -510
	ErrInsufficientFundsCode           = -511
	ErrInvalidVerificationFunctionCode = -512
)

// Configuration and service codes.
const (
	ErrSessionsDisabledCode        = -601
	ErrOracleDisabledCode          = -602
	ErrOracleRequestFinishedCode   = -603
	ErrOracleRequestNotFoundCode   = -604
	ErrOracleNotDesignatedNodeCode = -605
	ErrUnsupportedStateCode        = -606
	ErrInvalidProofCode            = -607
	ErrExecutionFailedCode         = -608
)

// Canonical errors with neo-go 0.120.0's messages. They are shared values:
// never modify them; use WrapErrorWithData to attach data.
var (
	// ErrInvalidParams carries "Invalid params" as its data too, as neo-go's does.
	ErrInvalidParams = NewInvalidParamsError("Invalid params")

	ErrUnknownBlock           = NewErrorWithCode(ErrUnknownBlockCode, "Unknown block")
	ErrUnknownContract        = NewErrorWithCode(ErrUnknownContractCode, "Unknown contract")
	ErrUnknownTransaction     = NewErrorWithCode(ErrUnknownTransactionCode, "Unknown transaction")
	ErrUnknownStorageItem     = NewErrorWithCode(ErrUnknownStorageItemCode, "Unknown storage item")
	ErrUnknownScriptContainer = NewErrorWithCode(ErrUnknownScriptContainerCode, "Unknown script container")
	ErrUnknownStateRoot       = NewErrorWithCode(ErrUnknownStateRootCode, "Unknown state root")
	ErrUnknownSession         = NewErrorWithCode(ErrUnknownSessionCode, "Unknown session")
	ErrUnknownIterator        = NewErrorWithCode(ErrUnknownIteratorCode, "Unknown iterator")
	ErrUnknownHeight          = NewErrorWithCode(ErrUnknownHeightCode, "Unknown height")

	ErrInsufficientFundsWallet = NewErrorWithCode(ErrInsufficientFundsWalletCode, "Insufficient funds")
	ErrWalletFeeLimit          = NewErrorWithCode(ErrWalletFeeLimitCode, "Fee limit exceeded")
	ErrNoOpenedWallet          = NewErrorWithCode(ErrNoOpenedWalletCode, "No opened wallet")
	ErrWalletNotFound          = NewErrorWithCode(ErrWalletNotFoundCode, "Wallet not found")
	ErrWalletNotSupported      = NewErrorWithCode(ErrWalletNotSupportedCode, "Wallet not supported")

	ErrVerificationFailed          = NewErrorWithCode(ErrVerificationFailedCode, "Unclassified inventory verification error")
	ErrAlreadyExists               = NewErrorWithCode(ErrAlreadyExistsCode, "Inventory already exists on chain")
	ErrMempoolCapReached           = NewErrorWithCode(ErrMempoolCapReachedCode, "The memory pool is full and no more transactions can be sent")
	ErrAlreadyInPool               = NewErrorWithCode(ErrAlreadyInPoolCode, "Transaction already exists in the memory pool")
	ErrInsufficientNetworkFee      = NewErrorWithCode(ErrInsufficientNetworkFeeCode, "Insufficient network fee")
	ErrPolicyFailed                = NewErrorWithCode(ErrPolicyFailedCode, "One of the Policy filters failed")
	ErrInvalidScript               = NewErrorWithCode(ErrInvalidScriptCode, "Invalid script")
	ErrInvalidAttribute            = NewErrorWithCode(ErrInvalidAttributeCode, "Invalid transaction attribute")
	ErrInvalidSignature            = NewErrorWithCode(ErrInvalidSignatureCode, "Invalid signature")
	ErrInvalidSize                 = NewErrorWithCode(ErrInvalidSizeCode, "Invalid inventory size")
	ErrExpiredTransaction          = NewErrorWithCode(ErrExpiredTransactionCode, "Expired transaction")
	ErrInsufficientFunds           = NewErrorWithCode(ErrInsufficientFundsCode, "Insufficient funds")
	ErrInvalidVerificationFunction = NewErrorWithCode(ErrInvalidVerificationFunctionCode, "Invalid verification function")

	ErrSessionsDisabled        = NewErrorWithCode(ErrSessionsDisabledCode, "Sessions disabled")
	ErrOracleDisabled          = NewErrorWithCode(ErrOracleDisabledCode, "Oracle service is not running")
	ErrOracleRequestFinished   = NewErrorWithCode(ErrOracleRequestFinishedCode, "Oracle request has already been finished")
	ErrOracleRequestNotFound   = NewErrorWithCode(ErrOracleRequestNotFoundCode, "Oracle request is not found")
	ErrOracleNotDesignatedNode = NewErrorWithCode(ErrOracleNotDesignatedNodeCode, "Not a designated oracle node")
	ErrUnsupportedState        = NewErrorWithCode(ErrUnsupportedStateCode, "Old state requests are not supported")
	ErrInvalidProof            = NewErrorWithCode(ErrInvalidProofCode, "Invalid proof")
	ErrExecutionFailed         = NewErrorWithCode(ErrExecutionFailedCode, "Execution failed")
)

// NewError returns an error with the given fields.
func NewError(code int64, message string, data string) *Error {
	return &Error{Code: code, Message: message, Data: data}
}

// NewParseError returns a -32700 "Parse error".
func NewParseError(data string) *Error { return NewError(BadRequestCode, "Parse error", data) }

// NewInvalidRequestError returns a -32600 "Invalid request".
func NewInvalidRequestError(data string) *Error {
	return NewError(InvalidRequestCode, "Invalid request", data)
}

// NewMethodNotFoundError returns a -32601 "Method not found".
func NewMethodNotFoundError(data string) *Error {
	return NewError(MethodNotFoundCode, "Method not found", data)
}

// NewInvalidParamsError returns a -32602 "Invalid params".
func NewInvalidParamsError(data string) *Error {
	return NewError(InvalidParamsCode, "Invalid params", data)
}

// NewInternalServerError returns a -32603 "Internal error".
func NewInternalServerError(data string) *Error {
	return NewError(InternalServerErrorCode, "Internal error", data)
}

// NewErrorWithCode returns an error without data.
func NewErrorWithCode(code int64, message string) *Error { return NewError(code, message, "") }

// WrapErrorWithData returns a copy of e with Data set; e is not modified.
func WrapErrorWithData(e *Error, data string) *Error { return NewError(e.Code, e.Message, data) }

// Error implements the error interface: "message (code)" or
// "message (code) - data".
func (e *Error) Error() string {
	if len(e.Data) == 0 {
		return fmt.Sprintf("%s (%d)", e.Message, e.Code)
	}
	return fmt.Sprintf("%s (%d) - %s", e.Message, e.Code, e.Data)
}

// Is reports whether target is an *Error with the same code, so
// errors.Is(err, neorpc.ErrUnknownBlock) works on wrapped data.
func (e *Error) Is(target error) bool {
	var t *Error
	if errors.As(target, &t) {
		return e.Code == t.Code
	}
	return false
}
