package state

import (
	"encoding/json"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ContractInvocation is one System.Contract.Call an execution made, recorded
// with ApplicationConfiguration.SaveInvocations (neo-go's application log
// "invocations"). Arguments is the binary serialization of the arguments
// array; it is nil and Truncated is set when they could not be serialized
// within the VM limits (too big, too many items, interop items).
type ContractInvocation struct {
	Hash           hash.Uint160
	Method         string
	Arguments      []byte
	ArgumentsCount uint32
	Truncated      bool
}

// NewContractInvocation records a call of method of contract h with args.
func NewContractInvocation(h hash.Uint160, method string, args []stackitem.Item) ContractInvocation {
	ci := ContractInvocation{Hash: h, Method: method, ArgumentsCount: uint32(len(args))}
	b, err := stackitem.Serialize(stackitem.NewArray(args))
	if err != nil {
		ci.Truncated = true
	} else {
		ci.Arguments = b
	}
	return ci
}

type invocationAux struct {
	Hash           hash.Uint160    `json:"hash"`
	Method         string          `json:"method"`
	Arguments      json.RawMessage `json:"arguments,omitzero"`
	ArgumentsCount uint32          `json:"argumentscount"`
	Truncated      bool            `json:"truncated"`
}

// MarshalJSON writes neo-go's form: hash, method, arguments (the array with
// types; absent when truncated or not printable), argumentscount,
// truncated.
func (ci ContractInvocation) MarshalJSON() ([]byte, error) {
	aux := invocationAux{Hash: ci.Hash, Method: ci.Method, ArgumentsCount: ci.ArgumentsCount, Truncated: ci.Truncated}
	if ci.Arguments != nil {
		item, err := stackitem.Deserialize(ci.Arguments)
		if err != nil {
			return nil, fmt.Errorf("invocation arguments: %w", err)
		}
		if js, err := stackitem.ToJSONWithTypes(item, stackitem.MaxSize); err == nil {
			aux.Arguments = js
		}
	}
	return json.Marshal(&aux)
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (ci *ContractInvocation) UnmarshalJSON(data []byte) error {
	var aux invocationAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*ci = ContractInvocation{Hash: aux.Hash, Method: aux.Method, ArgumentsCount: aux.ArgumentsCount, Truncated: aux.Truncated}
	if len(aux.Arguments) == 0 || string(aux.Arguments) == "null" {
		return nil
	}
	item, err := stackitem.FromJSONWithTypes(aux.Arguments)
	if err != nil {
		return err
	}
	if item.Type() != stackitem.ArrayT {
		return fmt.Errorf("failed to convert invocation state of type %s to array", item.Type())
	}
	ci.Arguments, err = stackitem.Serialize(item)
	return err
}

type invocationRecord struct {
	_         struct{} `cbor:",toarray"`
	Contract  []byte
	Method    []byte
	Args      []byte
	Count     uint32
	Truncated bool
}

func invocationRecords(invs []ContractInvocation) []invocationRecord {
	recs := make([]invocationRecord, len(invs))
	for i := range invs {
		ci := &invs[i]
		recs[i] = invocationRecord{Contract: ci.Hash[:], Method: []byte(ci.Method), Args: ci.Arguments, Count: ci.ArgumentsCount, Truncated: ci.Truncated}
	}
	return recs
}

func invocationsFromRecords(recs []invocationRecord) ([]ContractInvocation, error) {
	invs := make([]ContractInvocation, len(recs))
	for i, r := range recs {
		if len(r.Contract) != hash.Uint160Size {
			return nil, fmt.Errorf("%w: invocation %d contract", ErrRecord, i)
		}
		if r.Truncated != (r.Args == nil) {
			return nil, fmt.Errorf("%w: invocation %d arguments", ErrRecord, i)
		}
		if r.Args != nil {
			if _, err := stackitem.Deserialize(r.Args); err != nil {
				return nil, fmt.Errorf("%w: invocation %d: %w", ErrRecord, i, err)
			}
		}
		invs[i] = ContractInvocation{Hash: hash.Uint160(r.Contract), Method: string(r.Method), Arguments: r.Args, ArgumentsCount: r.Count, Truncated: r.Truncated}
	}
	return invs, nil
}
