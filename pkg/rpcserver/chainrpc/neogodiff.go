package chainrpc

import (
	coreblock "github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/internal/neogotext"
	fakeblock "github.com/n3node/n3node/pkg/internal/neogotext/block"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// NeoGoDiff exposes the decoders and script builders that the
// differential tests against neo-go (the nested module internal/neogodiff,
// which sees neither unexported names nor internal/ packages) compare with
// neo-go's. It is not API: nothing in the node uses it.
var NeoGoDiff = struct {
	// FunctionInvocationScript is invokefunction's script of contract,
	// method and the params argument.
	FunctionInvocationScript func(contract hash.Uint160, method string, params *neorpc.Param) ([]byte, error)
	// PushArray is the script pushing invoke* arguments as an array.
	PushArray func(args []neorpc.Param) ([]byte, error)
	// EOFText rewords a truncated-input error as neo-go does.
	EOFText func(err error, b []byte, isBlock bool) error
	// DecodeTransaction is sendrawtransaction's decoder.
	DecodeTransaction func(b []byte) (*transaction.Transaction, error)
	// DecodeFakeHeader is invokecontainedscript's block header decoder.
	DecodeFakeHeader func(data []byte) (*coreblock.Header, error)
}{
	FunctionInvocationScript: functionInvocationScript,
	PushArray: func(args []neorpc.Param) ([]byte, error) {
		w := nio.NewBufBinWriter()
		if err := pushArray(w, args); err != nil {
			return nil, err
		}
		return w.Bytes(), nil
	},
	EOFText:           neogotext.EOFText,
	DecodeTransaction: decodeTransaction,
	DecodeFakeHeader:  fakeblock.DecodeFakeHeader,
}

// functionInvocationScript is the script invokefunction runs for a
// contract, a method and its arguments (an array parameter, or none): the
// callArgs reader's packed arguments, then the call.
func functionInvocationScript(contract hash.Uint160, method string, args *neorpc.Param) ([]byte, error) {
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
