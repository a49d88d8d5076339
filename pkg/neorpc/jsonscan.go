package neorpc

import "encoding/binary"

// A small exact JSON scanner for the hot paths. It follows RFC 8259 as
// encoding/json's scanner does (strings may hold invalid UTF-8, control
// characters are rejected, numbers follow the strict grammar). Callers use
// it to find value boundaries without allocating; anything it cannot handle
// (too deep, invalid) makes the caller fall back to encoding/json, so the
// scanner never decides an error message on its own.

// maxFastDepth bounds recursion in skipValue; deeper input goes to the slow
// path (encoding/json allows 10000 levels).
const maxFastDepth = 64

// plainChar marks bytes that may appear in a string with no further checks:
// printable ASCII other than '"' and '\\'.
var plainChar = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialIn8 reports whether any of the 8 bytes in x is not a plainChar:
// below 0x20, '"', '\\' or 0x80 and above (the SWAR zero-byte tricks).
func specialIn8(x uint64) bool {
	lt20 := (x - ones*0x20) & ^x
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	eq := (q-ones) & ^q | (bs-ones) & ^bs
	return (lt20|eq|x)&highs != 0
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanString expects b[i] == '"'. It returns the index past the closing
// quote (or -1 if the string is invalid) and whether the string is plain:
// printable ASCII with no escapes, so its content is b[i+1:end-1] verbatim.
func scanString(b []byte, i int) (end int, plain bool) {
	j := i + 1
	plain = true
	for j < len(b) {
		// Skip 8 plain bytes at a time.
		for j+8 <= len(b) && !specialIn8(binary.LittleEndian.Uint64(b[j:])) {
			j += 8
		}
		if j >= len(b) {
			break
		}
		c := b[j]
		if plainChar[c] {
			j++
			continue
		}
		switch {
		case c == '"':
			return j + 1, plain
		case c < 0x20:
			return -1, false
		case c == '\\':
			plain = false
			if j+1 >= len(b) {
				return -1, false
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+5 >= len(b) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
					return -1, false
				}
				j += 6
			default:
				return -1, false
			}
		default: // >= 0x80: any byte is accepted by the JSON scanner
			plain = false
			j++
		}
	}
	return -1, false
}

// scanNumber expects b[i] to start a number; it returns the index past it or
// -1. The number must be followed by a delimiter or the end of input, which
// the caller checks.
func scanNumber(b []byte, i int) int {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	if j >= len(b) {
		return -1
	}
	switch {
	case b[j] == '0':
		j++
	case b[j] >= '1' && b[j] <= '9':
		j = skipDigits(b, j)
	default:
		return -1
	}
	if j < len(b) && b[j] == '.' {
		// A fraction needs a digit.
		k := j + 1
		if j = skipDigits(b, k); j == k {
			return -1
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		// So does an exponent.
		k := j
		if j = skipDigits(b, j); j == k {
			return -1
		}
	}
	return j
}

// skipDigits returns the index past the decimal digits at b[j:].
func skipDigits(b []byte, j int) int {
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	return j
}

func hasLiteral(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

// skipValue returns the index past the JSON value starting exactly at b[i],
// or -1 if it is invalid or nests deeper than maxFastDepth.
func skipValue(b []byte, i int, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; c {
	case '"':
		end, _ := scanString(b, i)
		return end
	case '{':
		if depth >= maxFastDepth {
			return -1
		}
		return walkObject(b, i, func(_ []byte, _ bool, v int) int {
			return skipValue(b, v, depth+1)
		})
	case '[':
		if depth >= maxFastDepth {
			return -1
		}
		return walkArray(b, i, func(v int) int {
			return skipValue(b, v, depth+1)
		})
	case 't':
		if hasLiteral(b, i, "true") {
			return endOfScalar(b, i+4)
		}
	case 'f':
		if hasLiteral(b, i, "false") {
			return endOfScalar(b, i+5)
		}
	case 'n':
		if hasLiteral(b, i, "null") {
			return endOfScalar(b, i+4)
		}
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return endOfScalar(b, scanNumber(b, i))
		}
	}
	return -1
}

// walkObject reads the object at b[i] == '{': for each member it calls
// member with the key's raw bytes (between the quotes), whether the key is
// plain (see scanString) and the index of the value (past white space, up to
// len(b)); member returns the index past the value, or -1 to stop. It returns
// the index past the closing '}', or -1 on bad syntax or a stop. Every object
// walk of the package (skipValue, ForEachField, the request and response fast
// paths) is this one.
func walkObject(b []byte, i int, member func(key []byte, plain bool, v int) int) int {
	j := skipWS(b, i+1)
	if j < len(b) && b[j] == '}' {
		return j + 1
	}
	for {
		if j >= len(b) || b[j] != '"' {
			return -1
		}
		end, plain := scanString(b, j)
		if end < 0 {
			return -1
		}
		k := skipWS(b, end)
		if k >= len(b) || b[k] != ':' {
			return -1
		}
		if j = member(b[j+1:end-1], plain, skipWS(b, k+1)); j < 0 {
			return -1
		}
		var last bool
		if j, last = nextElem(b, j, '}'); last {
			return j
		}
	}
}

// walkArray reads the array at b[i] == '[' the same way: elem gets the index
// of each element and returns the index past it, or -1 to stop.
func walkArray(b []byte, i int, elem func(v int) int) int {
	j := skipWS(b, i+1)
	if j < len(b) && b[j] == ']' {
		return j + 1
	}
	for {
		if j = elem(j); j < 0 {
			return -1
		}
		var last bool
		if j, last = nextElem(b, j, ']'); last {
			return j
		}
	}
}

// nextElem reads past what follows an object member or array element
// ending at j: at closer it returns the index after it and end; after a
// comma, the start of the next element and not end; otherwise -1 and end.
func nextElem(b []byte, j int, closer byte) (int, bool) {
	j = skipWS(b, j)
	switch {
	case j >= len(b):
		return -1, true
	case b[j] == closer:
		return j + 1, true
	case b[j] != ',':
		return -1, true
	}
	return skipWS(b, j+1), false
}

// endOfScalar checks that a literal or number ending at j is followed by a
// delimiter (or the end of input), as the JSON scanner requires.
func endOfScalar(b []byte, j int) int {
	if j < 0 {
		return -1
	}
	if j < len(b) {
		switch b[j] {
		case ' ', '\t', '\n', '\r', ',', ']', '}':
		default:
			return -1
		}
	}
	return j
}
