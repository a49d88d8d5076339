package chainrpc

import (
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/internal/neogotext"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// errUnsupportedParam is neo-go's errors.ErrUnsupported text.
var errUnsupportedParam = errors.New("unsupported operation")

// pushFuncParam emits a push of an invokefunction argument (neo-go
// ExpandFuncParameterIntoScript: the value is read according to the
// declared type, with the getters' lenient forms).
func pushFuncParam(w *nio.BinWriter, fp neorpc.FuncParam) error {
	switch smartcontract.ParamType(fp.Type) {
	case smartcontract.ByteArrayType, smartcontract.SignatureType:
		b, err := fp.Value.GetBytesBase64()
		if err != nil {
			return err
		}
		emit.Bytes(w, b)
	case smartcontract.StringType:
		s, err := fp.Value.GetString()
		if err != nil {
			return err
		}
		emit.String(w, s)
	case smartcontract.Hash160Type:
		h, err := fp.Value.GetUint160FromHex()
		if err != nil {
			return err
		}
		emit.Bytes(w, h[:])
	case smartcontract.Hash256Type:
		h, err := fp.Value.GetUint256()
		if err != nil {
			return err
		}
		emit.Bytes(w, h[:])
	case smartcontract.PublicKeyType:
		s, err := fp.Value.GetString()
		if err != nil {
			return err
		}
		k, err := neogotext.PublicKey(s)
		if err != nil {
			return err
		}
		emit.Bytes(w, k)
	case smartcontract.IntegerType:
		n, err := fp.Value.GetBigInt()
		if err != nil {
			return err
		}
		emit.BigInt(w, n)
	case smartcontract.BoolType:
		b, err := fp.Value.GetBoolean()
		if err != nil {
			return errors.New("not a bool")
		}
		emit.Bool(w, b)
	case smartcontract.ArrayType:
		arr, err := fp.Value.GetArray()
		if err != nil {
			return err
		}
		if err := pushArrayPacked(w, arr); err != nil {
			return err
		}
	case smartcontract.MapType:
		arr, err := fp.Value.GetArray()
		if err != nil {
			return err
		}
		if err := pushMapPacked(w, arr); err != nil {
			return err
		}
	case smartcontract.AnyType:
		if fp.Value.IsNull() || len(fp.Value.RawMessage) == 0 {
			emit.Opcodes(w, opcode.PUSHNULL)
		}
	default:
		return fmt.Errorf("%w: parameter type %v", errUnsupportedParam, fp.Type)
	}
	return w.Err
}

// pushArray emits pushes of the arguments in reverse order (neo-go
// ExpandArrayIntoScript).
func pushArray(w *nio.BinWriter, args []neorpc.Param) error {
	for i := range slices.Backward(args) {
		fp, err := args[i].GetFuncParam()
		if err != nil {
			return err
		}
		if err := pushFuncParam(w, fp); err != nil {
			return fmt.Errorf("param %d: %w", i, err)
		}
	}
	return w.Err
}

// pushArrayPacked emits the arguments packed into an array.
func pushArrayPacked(w *nio.BinWriter, args []neorpc.Param) error {
	if len(args) == 0 {
		emit.Opcodes(w, opcode.NEWARRAY0)
		return w.Err
	}
	if err := pushArray(w, args); err != nil {
		return err
	}
	emit.Int(w, int64(len(args)))
	emit.Opcodes(w, opcode.PACK)
	return w.Err
}

// pushMapPacked emits key-value pairs packed into a map.
func pushMapPacked(w *nio.BinWriter, pairs []neorpc.Param) error {
	if len(pairs) == 0 {
		emit.Opcodes(w, opcode.NEWMAP)
		return w.Err
	}
	for i := range slices.Backward(pairs) {
		kv, err := pairs[i].GetFuncParamPair()
		if err != nil {
			return err
		}
		if err := pushFuncParam(w, kv.Value); err != nil {
			return fmt.Errorf("map value %d: %w", i, err)
		}
		if err := pushFuncParam(w, kv.Key); err != nil {
			return fmt.Errorf("map key %d: %w", i, err)
		}
	}
	emit.Int(w, int64(len(pairs)))
	emit.Opcodes(w, opcode.PACKMAP)
	return w.Err
}

// functionInvocationScript builds the script of invokefunction: the
// arguments (an array parameter, or none) packed, then a
// System.Contract.Call of method with CallFlags.All.
func functionInvocationScript(contract hash.Uint160, method string, param *neorpc.Param) ([]byte, error) {
	w := nio.NewBufBinWriter()
	if param == nil {
		emit.Opcodes(w, opcode.NEWARRAY0)
	} else if args, err := param.GetArray(); err == nil {
		if err := pushArrayPacked(w, args); err != nil {
			return nil, err
		}
	} else {
		return nil, fmt.Errorf("failed to convert %s to script parameter", param)
	}
	emit.Int(w, int64(callflag.All))
	emit.String(w, method)
	emit.Bytes(w, contract[:])
	emit.Syscall(w, "System.Contract.Call")
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// pushDefaultValue emits a placeholder value of type t (neo-go
// EncodeDefaultValue, used to estimate verification costs).
func pushDefaultValue(w *nio.BinWriter, t smartcontract.ParamType) {
	var b [64]byte
	switch t {
	case smartcontract.AnyType, smartcontract.SignatureType, smartcontract.StringType, smartcontract.ByteArrayType:
		emit.Bytes(w, b[:])
	case smartcontract.BoolType:
		emit.Bool(w, true)
	case smartcontract.IntegerType:
		emit.Instruction(w, opcode.PUSHINT256, b[:32])
	case smartcontract.Hash160Type:
		emit.Bytes(w, b[:hash.Uint160Size])
	case smartcontract.Hash256Type:
		emit.Bytes(w, b[:hash.Uint256Size])
	case smartcontract.PublicKeyType:
		emit.Bytes(w, b[:33])
	}
}
