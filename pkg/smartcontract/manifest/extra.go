package manifest

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/encoding/dotnetjson"
)

// extraBytes returns the stored form of the manifest's extra field: "null"
// for no value, otherwise the compact re-encoding neo-go 0.120.0 stores
// (decoded with nspcc-dev/go-ordered-json in ordered, UseNumber mode and
// marshalled again): object members keep their order (duplicates included),
// numbers keep their text, and strings are re-escaped: every non-ASCII
// character as \uXXXX (uppercase hex, surrogate pairs above U+FFFF), the
// ASCII characters " & ' + < > ` and DEL and control characters as \u00XX,
// except \\, \b, \f, \n, \r and \t. Input that does not parse gives "null",
// as neo-go ignores the decoding error.
func extraBytes(raw []byte) []byte {
	if raw == nil || string(raw) == "null" {
		return []byte("null")
	}
	p := extraParser{in: raw}
	p.skipSpace()
	out, ok := p.value(make([]byte, 0, len(raw)), 0)
	if !ok {
		return []byte("null")
	}
	return out
}

// maxExtraDepth bounds nesting (encoding/json's own limit is 10000).
const maxExtraDepth = 10000

type extraParser struct {
	in  []byte
	pos int
}

func (p *extraParser) skipSpace() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *extraParser) value(out []byte, depth int) ([]byte, bool) {
	if p.pos >= len(p.in) || depth > maxExtraDepth {
		return out, false
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		p.pos++
		out = append(out, '{')
		p.skipSpace()
		if p.pos < len(p.in) && p.in[p.pos] == '}' {
			p.pos++
			return append(out, '}'), true
		}
		for first := true; ; first = false {
			if !first {
				out = append(out, ',')
			}
			p.skipSpace()
			if p.pos >= len(p.in) || p.in[p.pos] != '"' {
				return out, false
			}
			s, ok := p.str()
			if !ok {
				return out, false
			}
			out = dotnetjson.AppendString(out, s)
			p.skipSpace()
			if p.pos >= len(p.in) || p.in[p.pos] != ':' {
				return out, false
			}
			p.pos++
			p.skipSpace()
			out = append(out, ':')
			if out, ok = p.value(out, depth+1); !ok {
				return out, false
			}
			p.skipSpace()
			if p.pos >= len(p.in) {
				return out, false
			}
			if p.in[p.pos] == '}' {
				p.pos++
				return append(out, '}'), true
			}
			if p.in[p.pos] != ',' {
				return out, false
			}
			p.pos++
		}
	case c == '[':
		p.pos++
		out = append(out, '[')
		p.skipSpace()
		if p.pos < len(p.in) && p.in[p.pos] == ']' {
			p.pos++
			return append(out, ']'), true
		}
		for first := true; ; first = false {
			if !first {
				out = append(out, ',')
			}
			p.skipSpace()
			var ok bool
			if out, ok = p.value(out, depth+1); !ok {
				return out, false
			}
			p.skipSpace()
			if p.pos >= len(p.in) {
				return out, false
			}
			if p.in[p.pos] == ']' {
				p.pos++
				return append(out, ']'), true
			}
			if p.in[p.pos] != ',' {
				return out, false
			}
			p.pos++
		}
	case c == '"':
		s, ok := p.str()
		if !ok {
			return out, false
		}
		return dotnetjson.AppendString(out, s), true
	case c == 't':
		return p.literal(out, "true")
	case c == 'f':
		return p.literal(out, "false")
	case c == 'n':
		return p.literal(out, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		if !p.number() {
			return out, false
		}
		return append(out, p.in[start:p.pos]...), true
	default:
		return out, false
	}
}

func (p *extraParser) literal(out []byte, lit string) ([]byte, bool) {
	if len(p.in)-p.pos < len(lit) || string(p.in[p.pos:p.pos+len(lit)]) != lit {
		return out, false
	}
	p.pos += len(lit)
	return append(out, lit...), true
}

// number scans a JSON number (RFC 8259 grammar).
func (p *extraParser) number() bool {
	in := p.in
	i := p.pos
	if i < len(in) && in[i] == '-' {
		i++
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case i < len(in) && in[i] >= '1' && in[i] <= '9':
		for i < len(in) && in[i] >= '0' && in[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(in) && in[i] == '.' {
		i++
		if i >= len(in) || in[i] < '0' || in[i] > '9' {
			return false
		}
		for i < len(in) && in[i] >= '0' && in[i] <= '9' {
			i++
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if i >= len(in) || in[i] < '0' || in[i] > '9' {
			return false
		}
		for i < len(in) && in[i] >= '0' && in[i] <= '9' {
			i++
		}
	}
	p.pos = i
	return true
}

// str decodes a JSON string at pos (which holds '"') as encoding/json's
// unquote does: invalid UTF-8 bytes and lone surrogates become U+FFFD.
func (p *extraParser) str() (string, bool) {
	in := p.in
	i := p.pos + 1
	var b []byte
	for {
		if i >= len(in) {
			return "", false
		}
		c := in[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(b), true
		case c < 0x20:
			return "", false
		case c == '\\':
			if i+1 >= len(in) {
				return "", false
			}
			switch e := in[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
				i += 2
			case 'b':
				b = append(b, '\b')
				i += 2
			case 'f':
				b = append(b, '\f')
				i += 2
			case 'n':
				b = append(b, '\n')
				i += 2
			case 'r':
				b = append(b, '\r')
				i += 2
			case 't':
				b = append(b, '\t')
				i += 2
			case 'u':
				r, ok := hex4(in, i+2)
				if !ok {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(-1), false
					if i+1 < len(in) && in[i] == '\\' && in[i+1] == 'u' {
						r2, ok2 = hex4(in, i+2)
					}
					if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
						i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", false
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, in[i:i+size]...)
			}
			i += size
		}
	}
}

func hex4(in []byte, i int) (rune, bool) {
	if i+4 > len(in) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(in[i:i+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}
