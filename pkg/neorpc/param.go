package neorpc

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Param is one positional parameter, kept as raw JSON. Its getters convert
// it the way neo-go 0.120.0's params.Param does, including the lenient
// forms (an int may be a numeric string or a bool, a string may be a number
// or a bool, and so on) and the same error values.
//
// A Param decoded by the server aliases the request buffer (see Call).
// Getters never return slices that alias it.
type Param struct {
	json.RawMessage
}

// Params is a positional parameter list.
type Params []Param

// Sentinel errors of the getters; their texts are neo-go's.
var (
	ErrMissingParameter = errors.New("parameter is missing")
	ErrNullParameter    = errors.New("parameter is null")
	ErrNotAString       = errors.New("not a string")
	ErrNotAnInt         = errors.New("not an integer")
	ErrNotABool         = errors.New("not a boolean")
	ErrNotAnArray       = errors.New("not an array")
)

// Value returns the parameter at index, or nil if there is none. All getters
// accept a nil *Param and return ErrMissingParameter.
func (p Params) Value(index int) *Param {
	if index < len(p) {
		return &p[index]
	}
	return nil
}

// String returns the parameters in neo-go's log form.
func (p Params) String() string { return fmt.Sprintf("%v", []Param(p)) }

// NewParam makes a Param of an arbitrary value by marshalling it.
func NewParam(v any) (Param, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Param{}, err
	}
	return Param{b}, nil
}

// String returns the string value or "".
func (p Param) String() string {
	s, _ := p.GetString()
	return s
}

// IsNull reports whether the parameter is JSON null.
func (p *Param) IsNull() bool { return string(p.RawMessage) == "null" }

// kind returns the first byte of the value: '"', 't'/'f', 'n', '[', '{' or
// a number's first character (0 for an empty value).
func (p *Param) kind() byte {
	if len(p.RawMessage) == 0 {
		return 0
	}
	return p.RawMessage[0]
}

func isNumberStart(c byte) bool { return c == '-' || (c >= '0' && c <= '9') }

// str decodes a JSON string value; ok is false if the value is not a string.
func (p *Param) str() (string, bool) {
	raw := p.RawMessage
	if p.kind() != '"' {
		return "", false
	}
	if end, plain := scanString(raw, 0); plain && end == len(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// int64v decodes a JSON number that is an exact int64, as encoding/json
// does for an int64 target.
func (p *Param) int64v() (int64, bool) {
	if !isNumberStart(p.kind()) {
		return 0, false
	}
	i, err := strconv.ParseInt(string(p.RawMessage), 10, 64)
	return i, err == nil
}

func (p *Param) boolv() (bool, bool) {
	switch string(p.RawMessage) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// GetStringStrict returns the value if it is a JSON string.
func (p *Param) GetStringStrict() (string, error) {
	if p == nil {
		return "", ErrMissingParameter
	}
	if s, ok := p.str(); ok {
		return s, nil
	}
	return "", ErrNotAString
}

// GetString returns a string, or an integer or bool rendered as a string.
func (p *Param) GetString() (string, error) {
	if p == nil {
		return "", ErrMissingParameter
	}
	if s, ok := p.str(); ok {
		return s, nil
	}
	if i, ok := p.int64v(); ok {
		return strconv.FormatInt(i, 10), nil
	}
	if b, ok := p.boolv(); ok {
		return strconv.FormatBool(b), nil
	}
	return "", ErrNotAString
}

// GetBooleanStrict returns the value if it is true or false.
func (p *Param) GetBooleanStrict() (bool, error) {
	if p == nil {
		return false, ErrMissingParameter
	}
	if b, ok := p.boolv(); ok {
		return b, nil
	}
	return false, ErrNotABool
}

// GetBoolean returns a bool; a string is true unless empty (so "false" is
// true, as in neo-go) and an integer is true unless zero.
func (p *Param) GetBoolean() (bool, error) {
	if p == nil {
		return false, ErrMissingParameter
	}
	if b, ok := p.boolv(); ok {
		return b, nil
	}
	if s, ok := p.str(); ok {
		return s != "", nil
	}
	if i, ok := p.int64v(); ok {
		return i != 0, nil
	}
	return false, ErrNotABool
}

// GetIntStrict returns the value if it is an integer JSON number.
func (p *Param) GetIntStrict() (int, error) {
	if p == nil {
		return 0, ErrMissingParameter
	}
	if i, ok := p.int64v(); ok && i == int64(int(i)) {
		return int(i), nil
	}
	return 0, ErrNotAnInt
}

// GetInt returns an integer from a number, a decimal string (strconv.Atoi,
// whose error is returned as is) or a bool (1 or 0).
func (p *Param) GetInt() (int, error) {
	if p == nil {
		return 0, ErrMissingParameter
	}
	if i, ok := p.int64v(); ok {
		if i == int64(int(i)) {
			return int(i), nil
		}
		return 0, ErrNotAnInt
	}
	if s, ok := p.str(); ok {
		return strconv.Atoi(s)
	}
	if b, ok := p.boolv(); ok {
		if b {
			return 1, nil
		}
		return 0, nil
	}
	return 0, ErrNotAnInt
}

// GetBigInt returns an integer from a number, a decimal string or a bool.
func (p *Param) GetBigInt() (*big.Int, error) {
	if p == nil {
		return nil, ErrMissingParameter
	}
	if i, ok := p.int64v(); ok {
		return big.NewInt(i), nil
	}
	if s, ok := p.str(); ok {
		bi, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, ErrNotAnInt
		}
		return bi, nil
	}
	if b, ok := p.boolv(); ok {
		if b {
			return big.NewInt(1), nil
		}
		return new(big.Int), nil
	}
	return nil, ErrNotAnInt
}

// GetArray returns the elements of a JSON array. They alias p.
func (p *Param) GetArray() ([]Param, error) {
	if p == nil {
		return nil, ErrMissingParameter
	}
	raw := p.RawMessage
	if p.kind() != '[' {
		return nil, ErrNotAnArray
	}
	res := []Param{}
	j := skipWS(raw, 1)
	if j < len(raw) && raw[j] == ']' {
		return res, nil
	}
	for {
		e := skipValue(raw, j, 1)
		if e < 0 {
			return p.arraySlow()
		}
		res = append(res, Param{raw[j:e:e]})
		j = skipWS(raw, e)
		if j >= len(raw) {
			return nil, ErrNotAnArray
		}
		if raw[j] == ']' {
			return res, nil
		}
		if raw[j] != ',' {
			return nil, ErrNotAnArray
		}
		j = skipWS(raw, j+1)
	}
}

// arraySlow handles arrays too deep for the fast scanner.
func (p *Param) arraySlow() ([]Param, error) {
	var a []json.RawMessage
	if err := json.Unmarshal(p.RawMessage, &a); err != nil {
		return nil, ErrNotAnArray
	}
	res := make([]Param, len(a))
	for i := range a {
		res[i] = Param{a[i]}
	}
	return res, nil
}

// GetUint256 parses the reversed-hex display form, with or without "0x";
// the value may be anything GetString accepts.
func (p *Param) GetUint256() (hash.Uint256, error) {
	s, err := p.GetString()
	if err != nil {
		return hash.Uint256{}, err
	}
	s = strings.TrimPrefix(s, "0x")
	u, err := hash.Uint256DecodeStringLE(s)
	if err != nil {
		return hash.Uint256{}, hexHashError(s, hash.Uint256Size)
	}
	return u, nil
}

// GetUint160FromHex parses the reversed-hex display form, with or without
// "0x".
func (p *Param) GetUint160FromHex() (hash.Uint160, error) {
	s, err := p.GetString()
	if err != nil {
		return hash.Uint160{}, err
	}
	s = strings.TrimPrefix(s, "0x")
	u, err := hash.Uint160DecodeStringLE(s)
	if err != nil {
		return hash.Uint160{}, hexHashError(s, hash.Uint160Size)
	}
	return u, nil
}

// hexHashError reproduces neo-go's util.Uint*DecodeStringLE error texts.
func hexHashError(s string, size int) error {
	if len(s) != 2*size {
		return fmt.Errorf("expected string size of %d got %d", 2*size, len(s))
	}
	if _, err := hex.DecodeString(s); err != nil {
		return err
	}
	return hash.ErrHashFormat
}

// GetUint160FromAddress parses a Neo address (see StringToUint160).
func (p *Param) GetUint160FromAddress() (hash.Uint160, error) {
	return parseString(p, StringToUint160)
}

// parseString applies parse to the parameter's GetString value; a parameter
// that is not a string gives GetString's error and the zero T.
func parseString[T any](p *Param, parse func(string) (T, error)) (T, error) {
	s, err := p.GetString()
	if err != nil {
		var zero T
		return zero, err
	}
	return parse(s)
}

// GetUint160FromAddressOrHex tries the hex form first, then an address.
func (p *Param) GetUint160FromAddressOrHex() (hash.Uint160, error) {
	if u, err := p.GetUint160FromHex(); err == nil {
		return u, nil
	}
	return p.GetUint160FromAddress()
}

// GetBytesHex decodes a hex string.
func (p *Param) GetBytesHex() ([]byte, error) { return parseString(p, hex.DecodeString) }

// GetBytesBase64 decodes a standard base64 string (with padding).
func (p *Param) GetBytesBase64() ([]byte, error) {
	if p != nil && p.kind() == '"' {
		raw := p.RawMessage
		if end, plain := scanString(raw, 0); plain && end == len(raw) {
			src := raw[1 : len(raw)-1]
			dst := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
			n, err := base64.StdEncoding.Decode(dst, src)
			return dst[:n], err
		}
	}
	return parseString(p, base64.StdEncoding.DecodeString)
}

// GetUUID parses a UUID in any form github.com/google/uuid accepts.
func (p *Param) GetUUID() (UUID, error) {
	s, err := p.GetString()
	if err != nil {
		return UUID{}, err
	}
	id, err := ParseUUID(s)
	if err != nil {
		return UUID{}, fmt.Errorf("not a valid UUID: %w", err)
	}
	return id, nil
}
