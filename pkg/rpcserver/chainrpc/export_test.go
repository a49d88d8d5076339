package chainrpc

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/internal/neogotext"
	fakeblock "github.com/n3node/n3node/pkg/internal/neogotext/block"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// Internals exported to the external tests.
var (
	IsNEP11Divisible  = isNEP11Divisible
	DecodeTransaction = decodeTransaction
	NeoGoEOFText      = neogotext.EOFText
	DecodeFakeHeader  = fakeblock.DecodeFakeHeader
)

// PushArray is the script pushing the arguments without packing.
func PushArray(args []neorpc.Param) ([]byte, error) { return argsScript(args, false) }

var _ = hash.Uint160{}
var _ manifest.Manifest

// FunctionInvocationScript is the script invokefunction runs for a
// contract, a method and its arguments (an array parameter, or none): the
// callArgs reader's packed arguments, then the call.
func FunctionInvocationScript(contract hash.Uint160, method string, args *neorpc.Param) ([]byte, error) {
	packed := []byte{byte(opcode.NEWARRAY0)}
	if args != nil {
		v, err := callArgs().read(nil, args, nil)
		if err != nil {
			return nil, err
		}
		packed = v.([]byte)
	}
	return appendContractCall(packed, contract, method)
}
