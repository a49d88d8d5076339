package dotnetjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

const upperHex = "0123456789ABCDEF"

// plain marks the ASCII bytes written without escaping.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	for _, c := range "\"&'+<>\\`" {
		t[c] = false
	}
	return t
}()

// shortEscape is the two-character escape of a control character, or 0.
var shortEscape = [utf8.RuneSelf]byte{'\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// AppendString appends s as a quoted JSON string escaped as the package
// doc describes.
func AppendString[S ~string | ~[]byte](out []byte, s S) []byte {
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && plain[c] {
			i++
			continue
		}
		out = append(out, s[start:i]...)
		if c < utf8.RuneSelf {
			if e := shortEscape[c]; e != 0 {
				out = append(out, '\\', e)
			} else {
				out = appendU4(out, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		switch {
		case r == utf8.RuneError && size == 1:
			out = appendU4(out, rune(c))
		case r < 0x10000:
			out = appendU4(out, r)
		default:
			r1, r2 := utf16.EncodeRune(r)
			out = appendU4(appendU4(out, r1), r2)
		}
		i += size
		start = i
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}

func appendU4(out []byte, r rune) []byte {
	return append(out, '\\', 'u', upperHex[r>>12&0xF], upperHex[r>>8&0xF], upperHex[r>>4&0xF], upperHex[r&0xF])
}
