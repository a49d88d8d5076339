package jsonpath

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/encoding/dotnetjson"
)

// Member is one member of a JSON object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object: its members in document order (duplicate keys
// are kept). A decoded empty object is a non-nil empty slice.
type Object []Member

// Decoding errors.
var (
	// ErrEmpty: the input holds no JSON value (only whitespace).
	ErrEmpty = errors.New("json: no value")
	// ErrSyntax: the input is not JSON.
	ErrSyntax = errors.New("json: syntax error")
	// ErrNumberRange: a number does not fit a float64.
	ErrNumberRange = errors.New("json: number out of float64 range")
)

// Decode returns the first JSON value of data (see the package
// documentation for the value types and what is accepted).
func Decode(data []byte) (any, error) {
	d := decoder{data: data}
	d.skipSpace()
	if d.i >= len(d.data) {
		return nil, ErrEmpty
	}
	v, err := d.value()
	if err != nil {
		return nil, err
	}
	if d.numErr != nil {
		return nil, d.numErr
	}
	return v, nil
}

type decoder struct {
	data []byte
	i    int
	// numErr is the first number out of range; like neo-go's decoder we
	// keep parsing (a syntax error later wins) and fail at the end.
	numErr error
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (d *decoder) skipSpace() {
	for d.i < len(d.data) && isSpace(d.data[d.i]) {
		d.i++
	}
}

func (d *decoder) syntax(what string) error {
	if d.i >= len(d.data) {
		return fmt.Errorf("%w: unexpected end of input %s", ErrSyntax, what)
	}
	return fmt.Errorf("%w: invalid character %q at offset %d %s", ErrSyntax, d.data[d.i], d.i, what)
}

// value parses a value starting at d.i (not whitespace).
func (d *decoder) value() (any, error) {
	if d.i >= len(d.data) {
		return nil, d.syntax("looking for beginning of value")
	}
	switch c := d.data[d.i]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.str()
	case c == '-' || ('0' <= c && c <= '9'):
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return nil, d.syntax("looking for beginning of value")
	}
}

func (d *decoder) literal(lit string) error {
	for j := 0; j < len(lit); j++ {
		if d.i >= len(d.data) || d.data[d.i] != lit[j] {
			return d.syntax("in literal " + lit)
		}
		d.i++
	}
	return nil
}

func (d *decoder) object() (any, error) {
	d.i++ // {
	obj := Object{}
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return obj, nil
	}
	for {
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, d.syntax("looking for beginning of object key string")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, d.syntax("after object key")
		}
		d.i++
		d.skipSpace()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{Key: k, Value: v})
		d.skipSpace()
		if d.i >= len(d.data) {
			return nil, d.syntax("after object key:value pair")
		}
		switch d.data[d.i] {
		case ',':
			d.i++
			d.skipSpace()
		case '}':
			d.i++
			return obj, nil
		default:
			return nil, d.syntax("after object key:value pair")
		}
	}
}

func (d *decoder) array() (any, error) {
	d.i++ // [
	arr := []any{}
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return arr, nil
	}
	for {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		d.skipSpace()
		if d.i >= len(d.data) {
			return nil, d.syntax("after array element")
		}
		switch d.data[d.i] {
		case ',':
			d.i++
			d.skipSpace()
		case ']':
			d.i++
			return arr, nil
		default:
			return nil, d.syntax("after array element")
		}
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number parses -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a
// float64. What follows the number is the caller's business.
func (d *decoder) number() (any, error) {
	start := d.i
	if d.data[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.data) && d.data[d.i] == '0':
		d.i++
	case d.i < len(d.data) && isDigit(d.data[d.i]):
		for d.i < len(d.data) && isDigit(d.data[d.i]) {
			d.i++
		}
	default:
		return nil, d.syntax("in numeric literal")
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if d.i >= len(d.data) || !isDigit(d.data[d.i]) {
			return nil, d.syntax("after decimal point in numeric literal")
		}
		for d.i < len(d.data) && isDigit(d.data[d.i]) {
			d.i++
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if d.i >= len(d.data) || !isDigit(d.data[d.i]) {
			return nil, d.syntax("in exponent of numeric literal")
		}
		for d.i < len(d.data) && isDigit(d.data[d.i]) {
			d.i++
		}
	}
	f, err := strconv.ParseFloat(string(d.data[start:d.i]), 64)
	if err != nil {
		if d.numErr == nil {
			d.numErr = fmt.Errorf("%w: %s", ErrNumberRange, d.data[start:d.i])
		}
		return nil, nil
	}
	return f, nil
}

func isHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }

// str parses a string literal starting at the opening quote: it checks
// the syntax (no raw control characters, escapes \" \\ \/ \b \f \n \r \t
// \uXXXX) and unquotes it.
func (d *decoder) str() (string, error) {
	start := d.i
	d.i++
	plain := true
	for {
		if d.i >= len(d.data) {
			return "", d.syntax("in string literal")
		}
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			body := d.data[start+1 : d.i-1]
			if plain && utf8.Valid(body) {
				return string(body), nil
			}
			return unquote(body), nil
		case c == '\\':
			plain = false
			d.i++
			if d.i >= len(d.data) {
				return "", d.syntax("in string escape code")
			}
			switch d.data[d.i] {
			case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
				d.i++
			case 'u':
				d.i++
				for range 4 {
					if d.i >= len(d.data) || !isHex(d.data[d.i]) {
						return "", d.syntax("in \\u hexadecimal character escape")
					}
					d.i++
				}
			default:
				return "", d.syntax("in string escape code")
			}
		case c < 0x20:
			return "", d.syntax("in string literal")
		default:
			d.i++
		}
	}
}

// hex4 decodes \uXXXX at the start of s, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	v, err := strconv.ParseUint(string(s[2:6]), 16, 16)
	if err != nil {
		return -1
	}
	return rune(v)
}

// unquote decodes the body of a syntactically valid string literal
// (neo-go's unquoteBytes): a surrogate escape not followed by its pair
// and invalid UTF-8 bytes become U+FFFD.
func unquote(s []byte) string {
	b := make([]byte, 0, len(s))
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			switch s[r+1] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := hex4(s[r:])
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, hex4(s[r:])); dec != utf8.RuneError {
						r += 6
						b = utf8.AppendRune(b, dec)
						continue
					}
					rr = utf8.RuneError
				}
				b = utf8.AppendRune(b, rr)
				continue
			default: // " \ /
				b = append(b, s[r+1])
			}
			r += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			b = utf8.AppendRune(b, rr)
			r += size
		}
	}
	return string(b)
}

// Encode returns v (a value of the types Decode returns) in neo-go's JSON
// form. It fails on other types and on non-finite numbers.
func Encode(v any) ([]byte, error) {
	return AppendJSON(nil, v)
}

// ErrUnsupported: Encode met a value it cannot write.
var ErrUnsupported = errors.New("json: unsupported value")

// AppendJSON appends the JSON form of v to b.
func AppendJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case float64:
		return appendFloat(b, v)
	case string:
		return dotnetjson.AppendString(b, v), nil
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = AppendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case Object:
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = dotnetjson.AppendString(b, m.Key)
			b = append(b, ':')
			if b, err = AppendJSON(b, m.Value); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	default:
		return nil, fmt.Errorf("%w: %T", ErrUnsupported, v)
	}
}

// appendFloat writes f as ES6 number-to-string does (encoding/json).
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("%w: %v", ErrUnsupported, f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 -> e-9
		n := len(b) - start
		if n >= 4 && b[len(b)-4] == 'e' && b[len(b)-3] == '-' && b[len(b)-2] == '0' {
			b[len(b)-2] = b[len(b)-1]
			b = b[:len(b)-1]
		}
	}
	return b, nil
}
