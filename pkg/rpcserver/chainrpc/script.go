package chainrpc

import (
	"encoding/json"
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
// ..., "value": ...}) are read into contract parameters (the one
// parameter type, smartcontract.Parameter), then pushed. A value is read
// according to the declared type, with the getters' lenient forms and
// neo-go's texts for values that do not fit, in neo-go's order (the last
// argument first, a map value before its key), so that the first bad
// argument found is the one neo-go reports.

// errUnsupportedParam is neo-go's errors.ErrUnsupported text.
var errUnsupportedParam = errors.New("unsupported operation")

// argValue reads the value of an argument whose push is a plain value.
type argValue func(v *neorpc.Param) (any, error)

// plainArgs are the types whose value is one push, with how each reads
// its value.
var plainArgs = map[smartcontract.ParamType]argValue{
	smartcontract.ByteArrayType: func(v *neorpc.Param) (any, error) { return v.GetBytesBase64() },
	smartcontract.SignatureType: func(v *neorpc.Param) (any, error) { return v.GetBytesBase64() },
	smartcontract.StringType:    func(v *neorpc.Param) (any, error) { return v.GetString() },
	smartcontract.Hash160Type:   func(v *neorpc.Param) (any, error) { return v.GetUint160FromHex() },
	smartcontract.Hash256Type:   func(v *neorpc.Param) (any, error) { return v.GetUint256() },
	smartcontract.IntegerType:   func(v *neorpc.Param) (any, error) { return v.GetBigInt() },
	smartcontract.BoolType: func(v *neorpc.Param) (any, error) {
		b, err := v.GetBoolean()
		if err != nil {
			return nil, errors.New("not a bool")
		}
		return b, nil
	},
	smartcontract.PublicKeyType: func(v *neorpc.Param) (any, error) {
		s, err := v.GetString()
		if err != nil {
			return nil, err
		}
		return neogotext.PublicKey(s)
	},
}

// readArg reads one argument object.
func readArg(p *neorpc.Param) (smartcontract.Parameter, error) {
	t, v, err := p.GetFuncParam()
	if err != nil {
		return smartcontract.Parameter{}, err
	}
	return readValue(t, &v)
}

// readValue reads the value of an argument of type t. An Any argument
// with a value keeps the value raw: neo-go pushes nothing for it
// (pushParam).
func readValue(t smartcontract.ParamType, v *neorpc.Param) (smartcontract.Parameter, error) {
	if read, ok := plainArgs[t]; ok {
		val, err := read(v)
		return smartcontract.Parameter{Type: t, Value: val}, err
	}
	switch t {
	case smartcontract.ArrayType, smartcontract.MapType:
		list, err := v.GetArray()
		if err != nil {
			return smartcontract.Parameter{}, err
		}
		if t == smartcontract.MapType {
			pairs, err := readPairs(list)
			return smartcontract.Parameter{Type: t, Value: pairs}, err
		}
		items, err := readArgs(list)
		return smartcontract.Parameter{Type: t, Value: items}, err
	case smartcontract.AnyType:
		if v.IsNull() || len(v.RawMessage) == 0 {
			return smartcontract.NewAnyParameter(), nil
		}
		return smartcontract.Parameter{Type: t, Value: v.RawMessage}, nil
	}
	return smartcontract.Parameter{}, fmt.Errorf("%w: parameter type %v", errUnsupportedParam, t)
}

// readArgs reads a list of arguments, the last first.
func readArgs(list []neorpc.Param) ([]smartcontract.Parameter, error) {
	out := make([]smartcontract.Parameter, len(list))
	for i := range slices.Backward(list) {
		t, v, err := list[i].GetFuncParam()
		if err != nil {
			return nil, err
		}
		if out[i], err = readValue(t, &v); err != nil {
			return nil, fmt.Errorf("param %d: %w", i, err)
		}
	}
	return out, nil
}

// readPairs reads the elements of a Map argument, the last first, each
// value before its key.
func readPairs(list []neorpc.Param) ([]smartcontract.ParameterPair, error) {
	out := make([]smartcontract.ParameterPair, len(list))
	for i := range slices.Backward(list) {
		k, v, err := list[i].GetFuncParamPair()
		if err != nil {
			return nil, err
		}
		if out[i].Value, err = readArg(&v); err != nil {
			return nil, fmt.Errorf("map value %d: %w", i, err)
		}
		if out[i].Key, err = readArg(&k); err != nil {
			return nil, fmt.Errorf("map key %d: %w", i, err)
		}
	}
	return out, nil
}

// pushParams emits pushes of the parameters, the last first, so that the
// first ends on top.
func pushParams(w *nio.BinWriter, ps []smartcontract.Parameter) {
	for i := range slices.Backward(ps) {
		pushParam(w, ps[i])
	}
}

// pushParam emits the push of a parameter read by readArg: arrays and
// maps packed (NEWARRAY0 and NEWMAP when empty, maps each value before its
// key), an Any argument with a value nothing at all (neo-go's quirk),
// everything else as emit.Any pushes its value.
func pushParam(w *nio.BinWriter, p smartcontract.Parameter) {
	switch v := p.Value.(type) {
	case []smartcontract.Parameter:
		if len(v) == 0 {
			emit.Opcodes(w, opcode.NEWARRAY0)
			return
		}
		pushParams(w, v)
		emit.Int(w, int64(len(v)))
		emit.Opcodes(w, opcode.PACK)
	case []smartcontract.ParameterPair:
		if len(v) == 0 {
			emit.Opcodes(w, opcode.NEWMAP)
			return
		}
		for i := range slices.Backward(v) {
			pushParam(w, v[i].Value)
			pushParam(w, v[i].Key)
		}
		emit.Int(w, int64(len(v)))
		emit.Opcodes(w, opcode.PACKMAP)
	case json.RawMessage:
		// An Any argument with a value.
	default:
		emit.Any(w, v)
	}
}

// argsScript is the script pushing the arguments (the last first), packed
// into an array if pack is set.
func argsScript(list []neorpc.Param, pack bool) ([]byte, error) {
	ps, err := readArgs(list)
	if err != nil {
		return nil, err
	}
	w := nio.NewBufBinWriter()
	if pack {
		pushParam(w, smartcontract.NewArrayParameter(ps...))
	} else {
		pushParams(w, ps)
	}
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
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
