package chainrpc

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/internal/neogotext"
	fakeblock "github.com/n3node/n3node/pkg/internal/neogotext/block"
	nio "github.com/n3node/n3node/pkg/io"
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

// PushArray is pushArray with its own writer.
func PushArray(args []neorpc.Param) ([]byte, error) {
	w := nio.NewBufBinWriter()
	if err := pushArray(w, args); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

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
