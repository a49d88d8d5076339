package neorpc

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// UUID is a 16-byte session or iterator identifier.
type UUID [16]byte

var errUUIDFormat = errors.New("invalid UUID format")

// ParseUUID accepts the forms github.com/google/uuid v1.6.0 accepts (which
// neo-go uses), with its error texts: xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,
// urn:uuid:<that>, {<that>} (the braces themselves are not checked) and 32
// hex digits.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	switch len(s) {
	case 36:
	case 36 + 9:
		if !strings.EqualFold(s[:9], "urn:uuid:") {
			return u, fmt.Errorf("invalid urn prefix: %q", s[:9])
		}
		s = s[9:]
	case 36 + 2:
		s = s[1:]
	case 32:
		for i := range u {
			v, ok := hexByte(s[2*i], s[2*i+1])
			if !ok {
				return UUID{}, errUUIDFormat
			}
			u[i] = v
		}
		return u, nil
	default:
		return u, fmt.Errorf("invalid UUID length: %d", len(s))
	}
	if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, errUUIDFormat
	}
	for i, x := range [16]int{0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34} {
		v, ok := hexByte(s[x], s[x+1])
		if !ok {
			return UUID{}, errUUIDFormat
		}
		u[i] = v
	}
	return u, nil
}

func hexNibble(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func hexByte(a, b byte) (byte, bool) {
	hi, ok1 := hexNibble(a)
	lo, ok2 := hexNibble(b)
	return hi<<4 | lo, ok1 && ok2
}

// String returns the canonical lowercase 36-character form.
func (u UUID) String() string {
	const digits = "0123456789abcdef"
	var buf [36]byte
	j := 0
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			buf[j] = '-'
			j++
		}
		buf[j], buf[j+1] = digits[c>>4], digits[c&0xf]
		j += 2
	}
	return string(buf[:])
}

// NewRandomUUID reads a version 4 UUID from rnd.
func NewRandomUUID(rnd io.Reader) (UUID, error) {
	var u UUID
	if _, err := io.ReadFull(rnd, u[:]); err != nil {
		return UUID{}, err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return u, nil
}
