package jsonpath

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of a path evaluation (C# JPathToken.ProcessJsonPath).
const (
	// MaxDepth is the number of descending steps a path may take (C#
	// maxDepth).
	MaxDepth = 6
	// MaxObjects is the most values one step may select (C# maxObjects).
	MaxObjects = 1024
)

type tokenType byte

const (
	tokInvalid tokenType = iota
	tokRoot
	tokDot
	tokLeftBracket
	tokRightBracket
	tokAsterisk
	tokComma
	tokColon
	tokIdent
	tokString
	tokNumber
)

// evaluator walks a path once, left to right.
type evaluator struct {
	s     string
	i     int
	depth int // steps left
}

// Get returns the values path selects in value (a decoded document), and
// false if the path is invalid or exceeds a limit. The result is never
// nil on success.
func Get(path string, value any) ([]any, bool) {
	if path == "" {
		return []any{value}, true
	}
	e := evaluator{s: path, depth: MaxDepth}
	if t, _ := e.next(); t != tokRoot {
		return nil, false
	}
	objs := []any{value}
	for e.i < len(e.s) {
		var ok bool
		switch t, _ := e.next(); t {
		case tokDot:
			objs, ok = e.dot(objs)
		case tokLeftBracket:
			objs, ok = e.bracket(objs)
		}
		if !ok || len(objs) > MaxObjects {
			return nil, false
		}
	}
	if objs == nil {
		objs = []any{}
	}
	return objs, true
}

// punctTokens are the one-character tokens.
var punctTokens = [256]tokenType{
	'$': tokRoot, '.': tokDot, '[': tokLeftBracket, ']': tokRightBracket,
	'*': tokAsterisk, ',': tokComma, ':': tokColon,
}

// next reads one token; an invalid one does not move the position.
func (e *evaluator) next() (tokenType, string) {
	if e.i >= len(e.s) {
		return tokInvalid, ""
	}
	var (
		t   tokenType
		end = e.i + 1
	)
	switch c := e.s[e.i]; {
	case punctTokens[c] != tokInvalid:
		t = punctTokens[c]
	case c == '\'':
		t = tokString
		j := strings.IndexByte(e.s[e.i+1:], '\'')
		if j < 0 {
			return tokInvalid, ""
		}
		end = e.i + 1 + j + 1
	case c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'):
		t = tokIdent
		for end < len(e.s) && isIdentChar(e.s[end]) {
			end++
		}
	case c == '-' || isDigit(c):
		t = tokNumber
		for end < len(e.s) && isDigit(e.s[end]) {
			end++
		}
	default:
		return tokInvalid, ""
	}
	v := e.s[e.i:end]
	e.i = end
	return t, v
}

func isIdentChar(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || isDigit(c)
}

// step takes one level of depth.
func (e *evaluator) step() bool {
	if e.depth <= 0 {
		return false
	}
	e.depth--
	return true
}

// dot handles ".*", "..name" and ".name".
func (e *evaluator) dot(objs []any) ([]any, bool) {
	switch t, v := e.next(); t {
	case tokAsterisk:
		return e.children(objs)
	case tokDot:
		return e.recursive(objs)
	case tokIdent:
		return e.byNames(objs, true, v)
	default:
		return nil, false
	}
}

// children selects the elements of arrays and the member values of
// objects.
func (e *evaluator) children(objs []any) ([]any, bool) {
	if !e.step() {
		return nil, false
	}
	var out []any
	for _, o := range objs {
		switch o := o.(type) {
		case []any:
			if len(out)+len(o) > MaxObjects {
				return nil, false
			}
			out = append(out, o...)
		case Object:
			if len(out)+len(o) > MaxObjects {
				return nil, false
			}
			for _, m := range o {
				out = append(out, m.Value)
			}
		}
	}
	return out, true
}

// recursive handles "..name": the members called name of objs and of all
// their descendants, level by level. Running out of depth or objects ends
// the descent with what was found (neo-go).
func (e *evaluator) recursive(objs []any) ([]any, bool) {
	t, name := e.next()
	if t != tokIdent {
		return nil, false
	}
	var out []any
	for len(objs) > 0 {
		found, _ := e.byNames(objs, false, name)
		if len(out)+len(found) > MaxObjects {
			return nil, false
		}
		out = append(out, found...)
		objs, _ = e.children(objs)
	}
	return out, true
}

// byNames selects, per object, the first member of each name in order.
func (e *evaluator) byNames(objs []any, costs bool, names ...string) ([]any, bool) {
	if costs && !e.step() {
		return nil, false
	}
	var out []any
	for _, o := range objs {
		obj, ok := o.(Object)
		if !ok {
			continue
		}
		for _, n := range names {
			for _, m := range obj {
				if m.Key == n {
					if len(out)+1 > MaxObjects {
						return nil, false
					}
					out = append(out, m.Value)
					break
				}
			}
		}
	}
	return out, true
}

// byIndices selects array elements; negative indices count from the end.
func (e *evaluator) byIndices(objs []any, indices ...int) ([]any, bool) {
	return e.eachArray(objs, func(out, arr []any) ([]any, bool) {
		for _, j := range indices {
			if j < 0 {
				j += len(arr)
			}
			if 0 <= j && j < len(arr) {
				if len(out)+1 > MaxObjects {
					return nil, false
				}
				out = append(out, arr[j])
			}
		}
		return out, true
	})
}

// eachArray is one evaluation step selecting from every array among objs:
// pick appends what it selects of arr to out, or reports false when the
// result would exceed MaxObjects.
func (e *evaluator) eachArray(objs []any, pick func(out, arr []any) ([]any, bool)) ([]any, bool) {
	if !e.step() {
		return nil, false
	}
	var out []any
	for _, o := range objs {
		arr, ok := o.([]any)
		if !ok {
			continue
		}
		if out, ok = pick(out, arr); !ok {
			return nil, false
		}
	}
	return out, true
}

// parseIndex reads a number token as an int32 (C# int.Parse).
func parseIndex(s string) (int, bool) {
	n, err := strconv.ParseInt(s, 10, 32)
	return int(n), err == nil
}

// bracket handles "[*]", "[:...]", "[n...]" and "['...'...]".
func (e *evaluator) bracket(objs []any) ([]any, bool) {
	switch t, v := e.next(); t {
	case tokAsterisk:
		if t, _ := e.next(); t != tokRightBracket {
			return nil, false
		}
		return e.children(objs)
	case tokColon:
		return e.slice(objs, 0)
	case tokNumber:
		switch t, _ := e.next(); t {
		case tokColon:
			start, ok := parseIndex(v)
			if !ok {
				return nil, false
			}
			return e.slice(objs, start)
		case tokComma:
			return e.union(objs, tokNumber, v)
		case tokRightBracket:
			i, ok := parseIndex(v)
			if !ok {
				return nil, false
			}
			return e.byIndices(objs, i)
		default:
			return nil, false
		}
	case tokString:
		switch t, _ := e.next(); t {
		case tokComma:
			return e.union(objs, tokString, v)
		case tokRightBracket:
			name, ok := unquoteName(v)
			if !ok {
				return nil, false
			}
			return e.byNames(objs, true, name)
		default:
			return nil, false
		}
	default:
		return nil, false
	}
}

// unquoteName turns a quoted name token into the name: the quotes are
// trimmed and the rest read as the content of a JSON string.
func unquoteName(tok string) (string, bool) {
	body := strings.Trim(tok, "'")
	d := decoder{data: []byte(`"` + body + `"`)}
	s, err := d.str()
	if err != nil || d.i != len(d.data) {
		return "", false
	}
	return s, true
}

// union handles "[a,b,...]" of numbers or of names.
func (e *evaluator) union(objs []any, first tokenType, firstVal string) ([]any, bool) {
	items := []string{firstVal}
	for {
		t, v := e.next()
		if t != first {
			return nil, false
		}
		items = append(items, v)
		t, _ = e.next()
		if t == tokRightBracket {
			break
		}
		if t != tokComma {
			return nil, false
		}
	}
	if first == tokNumber {
		indices := make([]int, len(items))
		for i, s := range items {
			n, ok := parseIndex(s)
			if !ok {
				return nil, false
			}
			indices[i] = n
		}
		return e.byIndices(objs, indices...)
	}
	for i, s := range items {
		name, ok := unquoteName(s)
		if !ok {
			return nil, false
		}
		items[i] = name
	}
	return e.byNames(objs, true, items...)
}

// slice handles the rest of "[start:end]" after the colon.
func (e *evaluator) slice(objs []any, start int) ([]any, bool) {
	switch t, v := e.next(); t {
	case tokNumber:
		if t, _ := e.next(); t != tokRightBracket {
			return nil, false
		}
		end, ok := parseIndex(v)
		if !ok {
			return nil, false
		}
		return e.byRange(objs, start, end)
	case tokRightBracket:
		return e.byRange(objs, start, 0)
	default:
		return nil, false
	}
}

// byRange selects arr[start:end] of each array: a negative start counts
// from the end (and stops at 0), an end <= 0 counts from the end.
func (e *evaluator) byRange(objs []any, start, end int) ([]any, bool) {
	return e.eachArray(objs, func(out, arr []any) ([]any, bool) {
		s := start
		if s < 0 {
			s = max(s+len(arr), 0) // neo-go panics below 0; C# clamps
		}
		en := end
		if en <= 0 {
			en += len(arr)
		}
		en = min(en, len(arr))
		if en <= s {
			return out, true
		}
		if len(out)+en-s > MaxObjects {
			return nil, false
		}
		return append(out, arr[s:en]...), true
	})
}

// Filter errors.
var (
	ErrNotUTF8    = errors.New("filter: data is not UTF-8")
	ErrBadFilter  = errors.New("filter: invalid path or limit exceeded")
	errNoDocument = errors.New("filter: data is not JSON")
)

// Filter applies the oracle filter path to data: data must be UTF-8 JSON;
// the values path selects are returned as one JSON array (neo-go
// oracle.filter).
func Filter(data []byte, path string) ([]byte, error) {
	if !utf8.Valid(data) {
		return nil, ErrNotUTF8
	}
	v, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoDocument, err)
	}
	res, ok := Get(path, v)
	if !ok {
		return nil, ErrBadFilter
	}
	return Encode(res)
}
