package rpcclient

import (
	"github.com/n3node/n3node/pkg/neorpc/result"
)

// Typed results of the JSON-RPC methods. Field names, types and key order
// follow neo-go 0.120.0's pkg/neorpc/result, so a result decoded here and
// encoded again gives the bytes neo-go sent (the tests check this against
// the recorded answers in testdata/refchain/rpc).

// The result types are package neorpc/result's, shared with the server:
// one definition of each answer's JSON. The aliases keep this package's
// names.
type (
	Version            = result.Version
	Protocol           = result.Protocol
	HardforkHeight     = result.HardforkHeight
	VersionApplication = result.Application
	VersionRPC         = result.RPC

	ApplicationLog       = result.ApplicationLog
	NEP17Balances        = result.NEP17Balances
	NEP17Balance         = result.NEP17Balance
	NEP17Transfers       = result.NEP17Transfers
	NEP17Transfer        = result.NEP17Transfer
	UnclaimedGas         = result.UnclaimedGas
	Candidate            = result.Candidate
	Validator            = result.Validator
	TransactionOutputRaw = result.TransactionOutputRaw
	TransactionMetadata  = result.TransactionMetadata
)

// The invocation result is neorpc/result's too; its stack helpers
// (CheckHalt, Item, Int, Bool, Bytes, String, Array, Iterator) are methods
// of result.Invoke.
type (
	InvokeResult = result.Invoke
	Iterator     = result.Iterator
)

// VM states as the RPC prints them.
const (
	StateHalt  = result.StateHalt
	StateFault = result.StateFault
)

// Errors of the stack helpers.
var (
	ErrFault      = result.ErrFault
	ErrStackIndex = result.ErrStackIndex
	ErrItemType   = result.ErrItemType
)
