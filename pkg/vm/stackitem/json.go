package stackitem

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/encoding/dotnetjson"
)

// StdLib JSON (jsonSerialize / jsonDeserialize), exact to C# JsonSerializer
// over System.Text.Json:
//
//   - Integers are written as .NET writes a double: plain digits, or the
//     shortest scientific form ("1E+15") once the exponent exceeds the
//     digit count and 15. Only |x| <= 2^53-1 is allowed.
//   - Strings are escaped as Utf8JsonWriter's default encoder does: every
//     non-ASCII character and " & ' + < > ` and DEL become \uXXXX (upper-case
//     hex, UTF-16 units); \b \f \n \r \t \\ keep their short forms.
//   - Nesting is limited to 1000 levels when writing (JsonWriterOptions) and
//     10 when reading (StdLib passes max_nest 10); comments are skipped when
//     reading, trailing commas are not allowed, duplicate keys are errors.
//   - Numbers are read as doubles; a fractional value is an error; from
//     HF_Basilisk the integer is parsed from the double's shortest decimal
//     form, before it the double's exact binary value is used.

// MaxJSONDepth is the nesting limit of FromJSON (StdLib max_nest).
const MaxJSONDepth = 10

// maxJSONWriteDepth is Utf8JsonWriter's default MaxDepth.
const maxJSONWriteDepth = 1000

// maxSafeInteger is JNumber.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

// ErrJSON is returned for JSON that StdLib rejects.
var ErrJSON = errors.New("invalid JSON")

type jsonMarker int

const (
	jsonEndArray jsonMarker = iota
	jsonEndObject
	jsonProperty
)

// ToJSON is StdLib.jsonSerialize with the VM item size limit (MaxSize).
func ToJSON(item Item) ([]byte, error) { return ToJSONLimited(item, MaxSize) }

// ToJSONLimited is ToJSON with an explicit output size limit.
func ToJSONLimited(item Item, maxSize int) ([]byte, error) {
	var out []byte
	// stack holds Items and jsonMarkers.
	stack := []any{item}
	depth := 0
	needComma := false // a value was completed at the current level
	comma := func() {
		if needComma {
			out = append(out, ',')
		}
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := top.(type) {
		case jsonMarker:
			switch x {
			case jsonEndArray:
				out = append(out, ']')
				depth--
				needComma = true
			case jsonEndObject:
				out = append(out, '}')
				depth--
				needComma = true
			case jsonProperty:
				key := stack[len(stack)-1].(Item)
				stack = stack[:len(stack)-1]
				s, err := jsonString(key)
				if err != nil {
					return nil, err
				}
				comma()
				out = dotnetjson.AppendString(out, s)
				out = append(out, ':')
				needComma = false
			}
		case *Array:
			if depth >= maxJSONWriteDepth {
				return nil, fmt.Errorf("%w: depth exceeds %d", ErrJSON, maxJSONWriteDepth)
			}
			comma()
			out = append(out, '[')
			depth++
			needComma = false
			stack = append(stack, jsonEndArray)
			for i := len(x.items) - 1; i >= 0; i-- {
				stack = append(stack, x.items[i])
			}
		case *Map:
			if depth >= maxJSONWriteDepth {
				return nil, fmt.Errorf("%w: depth exceeds %d", ErrJSON, maxJSONWriteDepth)
			}
			comma()
			out = append(out, '{')
			depth++
			needComma = false
			stack = append(stack, jsonEndObject)
			for i := len(x.elems) - 1; i >= 0; i-- {
				if _, ok := x.elems[i].Key.(*ByteString); !ok {
					return nil, fmt.Errorf("%w: Key is not a ByteString", ErrJSON)
				}
				stack = append(stack, x.elems[i].Value, x.elems[i].Key, jsonProperty)
			}
		case *ByteString, *Buffer:
			s, err := jsonString(x.(Item))
			if err != nil {
				return nil, err
			}
			comma()
			out = dotnetjson.AppendString(out, s)
			needComma = true
		case *Integer:
			v, ok := x.Int64()
			if !ok || v > maxSafeInteger || v < -maxSafeInteger {
				return nil, fmt.Errorf("%w: integer out of the safe range", ErrJSON)
			}
			comma()
			out = appendDotNetInteger(out, v)
			needComma = true
		case Bool:
			comma()
			out = strconv.AppendBool(out, bool(x))
			needComma = true
		case Null:
			comma()
			out = append(out, "null"...)
			needComma = true
		default:
			return nil, fmt.Errorf("%w: Invalid StackItemType", ErrJSON)
		}
		if len(out) > maxSize {
			return nil, fmt.Errorf("%w: JSON exceeds %d bytes", ErrTooBig, maxSize)
		}
	}
	return out, nil
}

// jsonString is GetString: strict UTF-8.
func jsonString(item Item) ([]byte, error) {
	b, err := item.TryBytes()
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%w: invalid UTF-8", ErrJSON)
	}
	return b, nil
}

// appendDotNetInteger writes v (|v| <= 2^53-1) as .NET formats the double
// with the "G" specifier: shortest digits, scientific notation when the
// decimal exponent exceeds max(digits, 15).
func appendDotNetInteger(out []byte, v int64) []byte {
	if v == 0 {
		return append(out, '0')
	}
	neg := v < 0
	if neg {
		v = -v
	}
	digits := strconv.FormatInt(v, 10)
	scale := len(digits)
	sig := strings.TrimRight(digits, "0")
	if neg {
		out = append(out, '-')
	}
	if scale <= max(len(sig), 15) {
		return append(out, digits...)
	}
	out = append(out, sig[0])
	if len(sig) > 1 {
		out = append(out, '.')
		out = append(out, sig[1:]...)
	}
	out = append(out, 'E', '+')
	exp := scale - 1
	if exp < 10 {
		out = append(out, '0')
	}
	return strconv.AppendInt(out, int64(exp), 10)
}

// FromJSON is StdLib.jsonDeserialize: at most maxItems (MaxItems in StdLib)
// items and properties, nesting at most MaxJSONDepth. basilisk selects the
// number parsing of HF_Basilisk and later.
func FromJSON(data []byte, maxItems int, basilisk bool) (Item, error) {
	p := jsonParser{data: data, budget: maxItems, basilisk: basilisk}
	p.skipSpace()
	if p.err != nil {
		return nil, p.err
	}
	if p.pos >= len(p.data) {
		return nil, fmt.Errorf("%w: Read json token failed", ErrJSON)
	}
	// A top-level null is returned without counting (C# JToken.Parse gives
	// a null token, which jsonDeserialize maps to Null directly).
	var item Item
	if p.peekLiteral("null") {
		p.pos += 4
		item = Null{}
	} else {
		item = p.value(0)
	}
	if p.err != nil {
		return nil, p.err
	}
	p.skipSpace()
	if p.err != nil {
		return nil, p.err
	}
	if p.pos != len(p.data) {
		return nil, fmt.Errorf("%w: Read json token failed", ErrJSON)
	}
	return item, nil
}

type jsonParser struct {
	data     []byte
	pos      int
	budget   int
	basilisk bool
	err      error
}

func (p *jsonParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: "+format+" at %d", append(append([]any{ErrJSON}, args...), p.pos)...)
	}
}

// skipSpace skips JSON whitespace and comments.
func (p *jsonParser) skipSpace() {
	for p.pos < len(p.data) && p.err == nil {
		switch c := p.data[p.pos]; c {
		case ' ', '\t', '\n', '\r':
			p.pos++
		case '/':
			if p.pos+1 >= len(p.data) {
				p.fail("unexpected end")
				return
			}
			switch p.data[p.pos+1] {
			case '/':
				p.pos += 2
				for p.pos < len(p.data) && p.data[p.pos] != '\n' && p.data[p.pos] != '\r' {
					p.pos++
				}
			case '*':
				end := bytes.Index(p.data[p.pos+2:], []byte("*/"))
				if end < 0 {
					p.fail("unterminated comment")
					return
				}
				p.pos += 2 + end + 2
			default:
				p.fail("unexpected character")
				return
			}
		default:
			return
		}
	}
}

func (p *jsonParser) peekLiteral(lit string) bool {
	return bytes.HasPrefix(p.data[p.pos:], []byte(lit))
}

// count is C#'s "if (maxStackSize-- == 0) throw".
func (p *jsonParser) count() bool {
	if p.budget == 0 {
		p.fail("Max stack size reached")
		return false
	}
	p.budget--
	return true
}

// value parses one value at nesting depth d (number of open containers).
func (p *jsonParser) value(d int) Item {
	if p.pos >= len(p.data) {
		p.fail("unexpected end")
		return nil
	}
	var item Item
	switch c := p.data[p.pos]; {
	case c == '[':
		if d >= MaxJSONDepth {
			p.fail("depth exceeds %d", MaxJSONDepth)
			return nil
		}
		if !p.count() {
			return nil
		}
		return p.array(d + 1)
	case c == '{':
		if d >= MaxJSONDepth {
			p.fail("depth exceeds %d", MaxJSONDepth)
			return nil
		}
		if !p.count() {
			return nil
		}
		return p.object(d + 1)
	case c == '"':
		s := p.str()
		if p.err != nil {
			return nil
		}
		item = NewByteString(s)
	case c == '-' || (c >= '0' && c <= '9'):
		item = p.number()
	case p.peekLiteral("true"):
		p.pos += 4
		item = Bool(true)
	case p.peekLiteral("false"):
		p.pos += 5
		item = Bool(false)
	case p.peekLiteral("null"):
		p.pos += 4
		item = Null{}
	default:
		p.fail("unexpected character %q", c)
		return nil
	}
	if p.err != nil || !p.count() {
		return nil
	}
	return item
}

func (p *jsonParser) array(d int) Item {
	p.pos++ // [
	items := []Item{}
	p.skipSpace()
	if p.err == nil && p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return NewArray(items)
	}
	for p.err == nil {
		p.skipSpace()
		it := p.value(d)
		if p.err != nil {
			return nil
		}
		items = append(items, it)
		p.skipSpace()
		if p.err != nil || p.pos >= len(p.data) {
			p.fail("unterminated array")
			return nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return NewArray(items)
		default:
			p.fail("expected , or ]")
		}
	}
	return nil
}

func (p *jsonParser) object(d int) Item {
	p.pos++ // {
	m := NewMap()
	p.skipSpace()
	if p.err == nil && p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return m
	}
	for p.err == nil {
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			p.fail("expected property name")
			return nil
		}
		name := p.str()
		p.skipSpace()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			p.fail("expected :")
			return nil
		}
		p.pos++
		p.skipSpace()
		key := NewByteString(name)
		if i, _ := m.Index(key); i >= 0 {
			p.fail("Duplicate property name: %s", name)
			return nil
		}
		if !p.count() {
			return nil
		}
		v := p.value(d)
		if p.err != nil {
			return nil
		}
		if err := m.Set(key, v); err != nil {
			p.err = err
			return nil
		}
		p.skipSpace()
		if p.err != nil || p.pos >= len(p.data) {
			p.fail("unterminated object")
			return nil
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return m
		default:
			p.fail("expected , or }")
		}
	}
	return nil
}

// str parses a JSON string and returns it as UTF-8, rejecting invalid UTF-8
// and lone surrogates as the C# reader does.
func (p *jsonParser) str() []byte {
	p.pos++ // "
	sb := []byte{}
	for {
		if p.pos >= len(p.data) {
			p.fail("unterminated string")
			return nil
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			if !utf8.Valid(sb) {
				p.fail("invalid UTF-8")
				return nil
			}
			return sb
		case c < 0x20:
			p.fail("control character in string")
			return nil
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				p.fail("unterminated string")
				return nil
			}
			e := p.data[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				sb = append(sb, e)
			case 'b':
				sb = append(sb, '\b')
			case 'f':
				sb = append(sb, '\f')
			case 'n':
				sb = append(sb, '\n')
			case 'r':
				sb = append(sb, '\r')
			case 't':
				sb = append(sb, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return nil
				}
				if utf16.IsSurrogate(r) {
					if r >= 0xDC00 || p.pos+1 >= len(p.data) || p.data[p.pos] != '\\' || p.data[p.pos+1] != 'u' {
						p.fail("invalid surrogate")
						return nil
					}
					p.pos += 2
					r2, ok := p.hex4()
					if !ok {
						return nil
					}
					if r2 < 0xDC00 || r2 > 0xDFFF {
						p.fail("invalid surrogate")
						return nil
					}
					r = utf16.DecodeRune(r, r2)
				}
				sb = utf8.AppendRune(sb, r)
			default:
				p.fail("invalid escape")
				return nil
			}
		default:
			sb = append(sb, c)
			p.pos++
		}
	}
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		p.fail("invalid \\u escape")
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 16)
	if err != nil {
		p.fail("invalid \\u escape")
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}

// number parses a JSON number (strict grammar) as .NET does: to a double,
// which must be finite and integral.
func (p *jsonParser) number() Item {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos >= len(p.data) {
		p.fail("invalid number")
		return nil
	}
	if p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		p.fail("invalid number")
		return nil
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			p.fail("invalid number")
			return nil
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			p.fail("invalid number")
			return nil
		}
	}
	if p.pos < len(p.data) {
		// A number must be followed by a delimiter.
		switch p.data[p.pos] {
		case ',', ']', '}', ' ', '\t', '\n', '\r', '/':
		default:
			p.fail("invalid number")
			return nil
		}
	}
	f, err := strconv.ParseFloat(string(p.data[start:p.pos]), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		p.fail("number out of range")
		return nil
	}
	if f != math.Trunc(f) {
		p.fail("Decimal value is not allowed")
		return nil
	}
	if math.Abs(f) <= 1<<53 {
		// Exact in both forms: the double is the integer itself.
		return NewInt(int64(f))
	}
	var x *big.Int
	if p.basilisk {
		x = shortestDecimalInt(f)
	} else {
		x, _ = new(big.Float).SetFloat64(f).Int(nil)
	}
	i, err := TryNewBigInteger(x)
	if err != nil {
		p.err = err
		return nil
	}
	return i
}

// shortestDecimalInt is BigInteger.Parse(f.ToString()) for an integral f:
// the integer spelled by the shortest round-trip decimal form of f.
func shortestDecimalInt(f float64) *big.Int {
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	exp -= len(frac)
	x, _ := new(big.Int).SetString(digits, 10)
	if exp > 0 {
		x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp)), nil))
	} else if exp < 0 {
		x.Quo(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-exp)), nil))
	}
	if neg {
		x.Neg(x)
	}
	return x
}
