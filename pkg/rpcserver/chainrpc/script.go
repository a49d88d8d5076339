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

// Scripts built from invoke* arguments: typed JSON arguments ({"type":
// ..., "value": ...}) become pushes; the value is read according to the
// declared type, with the getters' lenient forms, and neo-go's texts for
// values that do not fit.

// errUnsupportedParam is neo-go's errors.ErrUnsupported text.
var errUnsupportedParam = errors.New("unsupported operation")

// argBytes reads an argument whose push is a byte string.
type argBytes func(v *neorpc.Param) ([]byte, error)

// byteArgs are the types pushed as byte strings, with how each reads its
// value.
var byteArgs = map[smartcontract.ParamType]argBytes{
	smartcontract.ByteArrayType: (*neorpc.Param).GetBytesBase64,
	smartcontract.SignatureType: (*neorpc.Param).GetBytesBase64,
	smartcontract.StringType: func(v *neorpc.Param) ([]byte, error) {
		s, err := v.GetString()
		return []byte(s), err
	},
	smartcontract.Hash160Type: func(v *neorpc.Param) ([]byte, error) {
		h, err := v.GetUint160FromHex()
		return h[:], err
	},
	smartcontract.Hash256Type: func(v *neorpc.Param) ([]byte, error) {
		h, err := v.GetUint256()
		return h[:], err
	},
	smartcontract.PublicKeyType: func(v *neorpc.Param) ([]byte, error) {
		s, err := v.GetString()
		if err != nil {
			return nil, err
		}
		return neogotext.PublicKey(s)
	},
}

// pushFuncParam emits the push of one typed argument (neo-go
// ExpandFuncParameterIntoScript's results).
func pushFuncParam(w *nio.BinWriter, fp neorpc.FuncParam) error {
	t := smartcontract.ParamType(fp.Type)
	if read, ok := byteArgs[t]; ok {
		b, err := read(&fp.Value)
		if err != nil {
			return err
		}
		emit.Bytes(w, b)
		return w.Err
	}
	var err error
	switch t {
	case smartcontract.IntegerType:
		n, nerr := fp.Value.GetBigInt()
		if err = nerr; err == nil {
			emit.BigInt(w, n)
		}
	case smartcontract.BoolType:
		b, berr := fp.Value.GetBoolean()
		if berr != nil {
			return errors.New("not a bool")
		}
		emit.Bool(w, b)
	case smartcontract.ArrayType, smartcontract.MapType:
		list, lerr := fp.Value.GetArray()
		if err = lerr; err != nil {
			break
		}
		if t == smartcontract.MapType {
			err = pushMapPacked(w, list)
		} else {
			err = pushArrayPacked(w, list)
		}
	case smartcontract.AnyType:
		if fp.Value.IsNull() || len(fp.Value.RawMessage) == 0 {
			emit.Opcodes(w, opcode.PUSHNULL)
		}
	default:
		return fmt.Errorf("%w: parameter type %v", errUnsupportedParam, fp.Type)
	}
	if err != nil {
		return err
	}
	return w.Err
}

// pushArray emits pushes of the arguments, the last first (neo-go
// ExpandArrayIntoScript), so that the first ends on top.
func pushArray(w *nio.BinWriter, list []neorpc.Param) error {
	for i, p := range slices.Backward(list) {
		fp, err := p.GetFuncParam()
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
func pushArrayPacked(w *nio.BinWriter, list []neorpc.Param) error {
	if len(list) == 0 {
		emit.Opcodes(w, opcode.NEWARRAY0)
		return w.Err
	}
	if err := pushArray(w, list); err != nil {
		return err
	}
	emit.Int(w, int64(len(list)))
	emit.Opcodes(w, opcode.PACK)
	return w.Err
}

// pushMapPacked emits key-value pairs packed into a map (each value
// before its key, the last pair first).
func pushMapPacked(w *nio.BinWriter, pairs []neorpc.Param) error {
	if len(pairs) == 0 {
		emit.Opcodes(w, opcode.NEWMAP)
		return w.Err
	}
	for i, p := range slices.Backward(pairs) {
		kv, err := p.GetFuncParamPair()
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

// appendContractCall appends to a script that leaves the packed arguments
// on the stack a System.Contract.Call of method with CallFlags.All (the
// script of invokefunction).
func appendContractCall(script []byte, contract hash.Uint160, method string) ([]byte, error) {
	w := nio.NewBinWriterWithCap(len(script) + 64)
	w.WriteBytes(script)
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
	var zeros [64]byte
	switch t {
	case smartcontract.BoolType:
		emit.Bool(w, true)
	case smartcontract.IntegerType:
		emit.Instruction(w, opcode.PUSHINT256, zeros[:32])
	case smartcontract.AnyType, smartcontract.SignatureType, smartcontract.StringType, smartcontract.ByteArrayType:
		emit.Bytes(w, zeros[:])
	case smartcontract.Hash160Type:
		emit.Bytes(w, zeros[:hash.Uint160Size])
	case smartcontract.Hash256Type:
		emit.Bytes(w, zeros[:hash.Uint256Size])
	case smartcontract.PublicKeyType:
		emit.Bytes(w, zeros[:33])
	}
}
