package neorpc

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// The wire types. Field order is the JSON key order of neo-go's encoder.

// Header is the id and version of a response.
type Header struct {
	ID      json.RawMessage `json:"id"`
	JSONRPC string          `json:"jsonrpc"`
}

// HeaderAndError adds an optional error to Header.
type HeaderAndError struct {
	Header
	Error *Error `json:"error,omitzero"`
}

// Response is a raw response: Result is the undecoded result value.
type Response struct {
	HeaderAndError
	Result json.RawMessage `json:"result,omitzero"`
}

// Request is a client-side call. Params are marshalled with encoding/json
// (nil is sent as []).
type Request struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
	ID      uint64 `json:"id"`
}

// Notification is the wire form of a subscription event: a request without
// id whose method is the stream name and whose only parameter is the payload
// (event_missed has none).
type Notification struct {
	JSONRPC string  `json:"jsonrpc"`
	Event   EventID `json:"method"`
	Payload []any   `json:"params"`
}

// errNotObject is returned by DecodeResponse for non-object input.
var errNotObject = errors.New("response is not a JSON object")

// DecodeResponse decodes one response object. Result, ID and the error's
// fields alias or copy data as encoding/json would (Result and ID alias it
// on the fast path; copy them to keep them past data's lifetime).
func DecodeResponse(data []byte, r *Response) error {
	*r = Response{}
	if decodeResponseFast(data, r) {
		return nil
	}
	*r = Response{}
	return json.Unmarshal(data, r)
}

func decodeResponseFast(b []byte, r *Response) bool {
	return ForEachField(b, func(key, val []byte) bool {
		switch string(key) {
		case "id":
			r.ID = val
		case "jsonrpc":
			s, ok := PlainString(val)
			if !ok {
				return false
			}
			r.JSONRPC = internString(s)
		case "result":
			r.Result = val
		case "error":
			if string(val) == "null" {
				return true
			}
			var e Error
			if json.Unmarshal(val, &e) != nil {
				return false
			}
			r.Error = &e
		default:
			return false
		}
		return true
	})
}

// ForEachField walks a JSON object's top-level fields without decoding
// them. It returns false if data is not a simple object (escaped keys, bad
// syntax, deep nesting) or fn stopped the walk; callers then fall back to
// encoding/json.
func ForEachField(data []byte, fn func(key, val []byte) bool) bool {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	end := walkObject(data, i, func(key []byte, plain bool, v int) int {
		if !plain {
			return -1
		}
		e := skipValue(data, v, 1)
		if e < 0 || !fn(key, data[v:e:e]) {
			return -1
		}
		return e
	})
	return end >= 0 && skipWS(data, end) == len(data)
}

// ForEachElement walks a JSON array's elements without decoding them, with
// the same fallback contract as ForEachField.
func ForEachElement(data []byte, fn func(val []byte) bool) bool {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '[' {
		return false
	}
	end := walkArray(data, i, func(v int) int {
		e := skipValue(data, v, 1)
		if e < 0 || !fn(data[v:e:e]) {
			return -1
		}
		return e
	})
	return end >= 0 && skipWS(data, end) == len(data)
}

// PlainString returns the content of a JSON string value that has no
// escapes and only printable ASCII, without allocating; ok is false
// otherwise (decode with encoding/json then).
func PlainString(val []byte) (content []byte, ok bool) {
	if len(val) < 2 || val[0] != '"' {
		return nil, false
	}
	if e, plain := scanString(val, 0); !plain || e != len(val) {
		return nil, false
	}
	return val[1 : len(val)-1], true
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string exactly as encoding/json encodes
// it (HTML-escaped, invalid UTF-8 as \ufffd, U+2028/U+2029 escaped).
func AppendString[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		n := min(len(s)-i, utf8.UTFMax)
		r, size := utf8.DecodeRuneInString(string(s[i : i+n]))
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendRaw appends a raw JSON value the way encoding/json re-encodes a
// json.RawMessage: compacted, with <, >, & and U+2028/U+2029 escaped. A nil
// value is null.
func AppendRaw(dst []byte, raw []byte) []byte {
	if raw == nil {
		return append(dst, "null"...)
	}
	for _, c := range raw {
		if c <= ' ' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			b, err := json.Marshal(json.RawMessage(raw))
			if err != nil {
				return append(dst, "null"...)
			}
			return append(dst, b...)
		}
	}
	return append(dst, raw...)
}

// AppendValue appends v as encoding/json encodes it, without reflection for
// the kinds requests and results mostly carry. A json.RawMessage is taken to
// be compact JSON already and is appended as it is (nil is null). It is the
// client's parameter and the server's result encoder.
func AppendValue(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case json.RawMessage:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return append(dst, x...), nil
	case string:
		return AppendString(dst, x), nil
	case []byte:
		if x == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, x)
		return append(dst, '"'), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case uint32:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint64:
		return strconv.AppendUint(dst, x, 10), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// AppendError appends an error object.
func AppendError(dst []byte, e *Error) []byte {
	dst = append(dst, `{"code":`...)
	dst = appendInt(dst, e.Code)
	dst = append(dst, `,"message":`...)
	dst = AppendString(dst, e.Message)
	if e.Data != "" {
		dst = append(dst, `,"data":`...)
		dst = AppendString(dst, e.Data)
	}
	return append(dst, '}')
}

func appendInt(dst []byte, v int64) []byte {
	if v < 0 {
		dst = append(dst, '-')
		return appendUint(dst, uint64(-v))
	}
	return appendUint(dst, uint64(v))
}

func appendUint(dst []byte, v uint64) []byte {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}

// AppendResponse appends the response to call c as neo-go writes it:
// {"id":..,"jsonrpc":..,"error":{..}} or {"id":..,"jsonrpc":..,"result":..}.
// result must be valid compact JSON (nil omits the field). The version is
// echoed from the call, even when it is wrong.
func AppendResponse(dst []byte, id json.RawMessage, jsonrpc string, result []byte, e *Error) []byte {
	dst = append(dst, `{"id":`...)
	dst = AppendRaw(dst, id)
	if jsonrpc == JSONRPCVersion {
		dst = append(dst, `,"jsonrpc":"2.0"`...)
	} else {
		dst = append(dst, `,"jsonrpc":`...)
		dst = AppendString(dst, jsonrpc)
	}
	if e != nil {
		dst = append(dst, `,"error":`...)
		dst = AppendError(dst, e)
	} else if result != nil {
		dst = append(dst, `,"result":`...)
		dst = append(dst, result...)
	}
	return append(dst, '}')
}

// AppendNotification appends an event message; payload nil gives the
// empty params of event_missed.
func AppendNotification(dst []byte, id EventID, payload []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","method":"`...)
	dst = append(dst, id.String()...)
	if payload == nil {
		return append(dst, `","params":[]}`...)
	}
	dst = append(dst, `","params":[`...)
	dst = append(dst, payload...)
	return append(dst, "]}"...)
}

// AppendRequest appends a client request with pre-encoded params (each a
// valid JSON value).
func AppendRequest(dst []byte, method string, params [][]byte, id uint64) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","method":`...)
	dst = AppendString(dst, method)
	dst = append(dst, `,"params":[`...)
	for i, p := range params {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, p...)
	}
	dst = append(dst, `],"id":`...)
	dst = appendUint(dst, id)
	return append(dst, '}')
}
