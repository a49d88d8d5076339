// Package params is the reference-compatible (slow) JSON-RPC request
// decoder. It reproduces neo-go 0.120.0's request decoding step by step with
// encoding/json, including its error texts, which name Go types: that is why
// this package is called params and its types In and Param, as neo-go's are.
// neorpc's fast decoder falls back to it for anything unusual, and the fuzz
// test checks that both agree.
package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/n3node/n3node/pkg/smartcontract"
)

// MaxBatchSize is neo-go's batch limit. Because of the way neo-go checks it,
// a batch of MaxBatchSize+1 calls is still accepted.
const MaxBatchSize = 100

// Param is one raw positional parameter.
type Param struct {
	json.RawMessage
}

// In is one call.
type In struct {
	JSONRPC   string          `json:"jsonrpc"`
	Method    string          `json:"method"`
	RawParams []Param         `json:"params,omitzero"`
	RawID     json.RawMessage `json:"id,omitzero"`
}

// Request is either a single call (In) or a batch.
type Request struct {
	In    *In
	Batch []In
}

// ErrEmptyRequest is returned for an empty batch.
var ErrEmptyRequest = errors.New("empty request")

// Unmarshal interprets one complete JSON value as a request.
func Unmarshal(data []byte) (*Request, error) {
	in := &In{}
	if err := json.Unmarshal(data, in); err == nil {
		return &Request{In: in}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('[') {
		return nil, fmt.Errorf("`[` expected, got %s", t)
	}
	var batch []In
	for dec.More() {
		if len(batch) > MaxBatchSize {
			return nil, fmt.Errorf("the number of requests in batch shouldn't exceed %d", MaxBatchSize)
		}
		in := &In{}
		if err := dec.Decode(in); err != nil {
			return nil, err
		}
		batch = append(batch, *in)
	}
	if len(batch) == 0 {
		return nil, ErrEmptyRequest
	}
	return &Request{Batch: batch}, nil
}

// ReadValue reads the first JSON value from r, as json.Decoder does.
func ReadValue(r io.Reader) (json.RawMessage, error) {
	var raw json.RawMessage
	err := json.NewDecoder(r).Decode(&raw)
	return raw, err
}

// DecodeData reads the first JSON value of an HTTP body and interprets it.
// Errors are what the server reports as parse-error data.
func DecodeData(r io.Reader) (*Request, error) {
	raw, err := ReadValue(r)
	if err != nil {
		return nil, fmt.Errorf("error parsing JSON payload: %w", err)
	}
	return Unmarshal(raw)
}

// FuncParam mirrors neo-go's params.FuncParam for decoding.
type FuncParam struct {
	Type  smartcontract.ParamType `json:"type"`
	Value Param                   `json:"value"`
}

// FuncParamKV mirrors neo-go's params.FuncParamKV for decoding.
type FuncParamKV struct {
	Key   FuncParam `json:"key"`
	Value FuncParam `json:"value"`
}
