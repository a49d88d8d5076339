package native

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/base58"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// StdMaxInputLength is the longest byte or string argument (in bytes) most
// StdLib methods accept (C# StdLib.MaxInputLength).
const StdMaxInputLength = 1024

// StdLib errors (wrapped with details).
var (
	// ErrInvalidBase is returned by itoa/atoi for a base other than 10 and 16.
	ErrInvalidBase = errors.New("invalid base")
	// ErrInvalidFormat is returned for a string that does not decode.
	ErrInvalidFormat = errors.New("invalid format")
	// ErrTooBigInput is returned for an argument longer than
	// StdMaxInputLength.
	ErrTooBigInput = errors.New("input is too big")
)

// StdLib is the StdLib native contract (C# StdLib): serialization, JSON,
// number and string conversions, binary encodings and memory functions. It
// has no storage and every method is safe (no call flags).
type StdLib struct {
	md *ContractMD
}

func newStdLib(*Contracts) Contract {
	s := &StdLib{md: NewContractMD(nativenames.StdLib, config.HFDefault)}
	p := NewParam
	const (
		anyT   = smartcontract.AnyType
		bytesT = smartcontract.ByteArrayType
		strT   = smartcontract.StringType
		intT   = smartcontract.IntegerType
		boolT  = smartcontract.BoolType
	)
	add := func(name string, ret smartcontract.ParamType, f MethodFunc, fee int64, from config.Hardfork, params ...manifest.Parameter) {
		s.md.AddMethod(Method{Name: name, Params: params, ReturnType: ret, Func: f, CPUFee: fee,
			RequiredFlags: callflag.None, ActiveFrom: from})
	}
	hfd := config.HFDefault
	add("serialize", bytesT, s.serialize, 1<<12, hfd, p("item", anyT))
	add("deserialize", anyT, s.deserialize, 1<<14, hfd, p("data", bytesT))
	add("jsonSerialize", bytesT, s.jsonSerialize, 1<<12, hfd, p("item", anyT))
	add("jsonDeserialize", anyT, s.jsonDeserialize, 1<<14, hfd, p("json", bytesT))
	add("itoa", strT, s.itoa, 1<<12, hfd, p("value", intT), p("base", intT))
	add("itoa", strT, s.itoa10, 1<<12, hfd, p("value", intT))
	add("atoi", intT, s.atoi, 1<<6, hfd, p("value", strT), p("base", intT))
	add("atoi", intT, s.atoi10, 1<<6, hfd, p("value", strT))
	add("base64Encode", strT, s.base64Encode, 1<<5, hfd, p("data", bytesT))
	add("base64Decode", bytesT, s.base64Decode, 1<<5, hfd, p("s", strT))
	add("base64UrlEncode", strT, s.base64URLEncode, 1<<5, config.HFEchidna, p("data", strT))
	add("base64UrlDecode", strT, s.base64URLDecode, 1<<5, config.HFEchidna, p("s", strT))
	add("base58Encode", strT, s.base58Encode, 1<<13, hfd, p("data", bytesT))
	add("base58Decode", bytesT, s.base58Decode, 1<<10, hfd, p("s", strT))
	add("base58CheckEncode", strT, s.base58CheckEncode, 1<<16, hfd, p("data", bytesT))
	add("base58CheckDecode", bytesT, s.base58CheckDecode, 1<<16, hfd, p("s", strT))
	add("hexEncode", strT, s.hexEncode, 1<<5, config.HFFaun, p("bytes", bytesT))
	add("hexDecode", bytesT, s.hexDecode, 1<<5, config.HFFaun, p("str", strT))
	add("memoryCompare", intT, s.memoryCompare, 1<<5, hfd, p("str1", bytesT), p("str2", bytesT))
	add("memorySearch", intT, s.memorySearch2, 1<<6, hfd, p("mem", bytesT), p("value", bytesT))
	add("memorySearch", intT, s.memorySearch3, 1<<6, hfd, p("mem", bytesT), p("value", bytesT),
		p("start", intT))
	add("memorySearch", intT, s.memorySearch4, 1<<6, hfd, p("mem", bytesT), p("value", bytesT),
		p("start", intT), p("backward", boolT))
	add("stringSplit", smartcontract.ArrayType, s.stringSplit2, 1<<8, hfd, p("str", strT), p("separator", strT))
	add("stringSplit", smartcontract.ArrayType, s.stringSplit3, 1<<8, hfd, p("str", strT), p("separator", strT),
		p("removeEmptyEntries", boolT))
	add("strLen", intT, s.strLen, 1<<8, hfd, p("str", strT))
	return s
}

// Metadata implements Contract.
func (s *StdLib) Metadata() *ContractMD { return s.md }

// Initialize implements Contract (StdLib has no storage).
func (s *StdLib) Initialize(*interop.Context, config.Hardfork, *HFContractMD) error { return nil }

// InitializeCache implements Contract.
func (s *StdLib) InitializeCache(*dao.Simple, *config.Blockchain, uint32) error { return nil }

// OnPersist implements Contract.
func (s *StdLib) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract.
func (s *StdLib) PostPersist(*interop.Context) error { return nil }

// toLimitedBytes is a byte[] argument with [MaxLength(MaxInputLength)]: the
// length is checked on the item's bytes (C# MaxLengthAttribute).
func toLimitedBytes(it stackitem.Item) ([]byte, error) {
	b, err := ToBytes(it)
	if err != nil {
		return nil, err
	}
	if len(b) > StdMaxInputLength {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooBigInput, len(b), StdMaxInputLength)
	}
	return b, nil
}

// toLimitedString is a string argument with [MaxLength(MaxInputLength)]: the
// byte length is checked before the strict UTF-8 conversion.
func toLimitedString(it stackitem.Item) (string, error) {
	if _, ok := it.(stackitem.Null); !ok {
		if b, err := it.TryBytes(); err == nil && len(b) > StdMaxInputLength {
			return "", fmt.Errorf("%w: %d bytes, at most %d", ErrTooBigInput, len(b), StdMaxInputLength)
		}
	}
	return ToString(it)
}

func (s *StdLib) serialize(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	data, err := stackitem.Serialize(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString(data), nil
}

func (s *StdLib) deserialize(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	data, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	// The result's ByteStrings alias their input: copy it, a Buffer argument
	// may change later.
	return stackitem.Deserialize(bytes.Clone(data))
}

func (s *StdLib) jsonSerialize(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	data, err := stackitem.ToJSON(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString(data), nil
}

func (s *StdLib) jsonDeserialize(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	data, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.FromJSON(data, stackitem.MaxItems, ic.IsHardforkEnabled(config.HFBasilisk))
}

func (s *StdLib) itoa10(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	n, err := ToBigInt(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString([]byte(n.Text(10))), nil
}

func (s *StdLib) itoa(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	n, err := ToBigInt(args[0])
	if err != nil {
		return nil, err
	}
	base, err := toBase(args[1])
	if err != nil {
		return nil, err
	}
	str, err := Itoa(n, base)
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString([]byte(str)), nil
}

// toBase converts an int argument (C# (int)GetInteger(), an overflow is an
// error).
func toBase(it stackitem.Item) (int, error) {
	b, err := ToInt32(it)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidBase, err)
	}
	return int(b), nil
}

// Itoa formats n in base 10 or 16 as C# BigInteger.ToString() and
// ToString("x") do: base 16 is the shortest two's complement form, so a
// positive number whose top digit is 8-f gets a leading 0 (255 is "0ff")
// and a negative one has no sign (-1 is "f").
func Itoa(n *big.Int, base int) (string, error) {
	switch base {
	case 10:
		return n.Text(10), nil
	case 16:
		if n.Sign() == 0 {
			return "0", nil
		}
		le := bigint.ToBytes(n) // minimal two's complement, little-endian
		var sb strings.Builder
		sb.Grow(len(le) * 2)
		const digits = "0123456789abcdef"
		top := le[len(le)-1]
		// Drop the top nibble when it only repeats the sign of the next
		// one: 0x00-0x07 and 0xf8-0xff print as one digit.
		if top < 0x08 || top >= 0xf8 {
			sb.WriteByte(digits[top&0x0f])
		} else {
			sb.WriteByte(digits[top>>4])
			sb.WriteByte(digits[top&0x0f])
		}
		for i := len(le) - 2; i >= 0; i-- {
			sb.WriteByte(digits[le[i]>>4])
			sb.WriteByte(digits[le[i]&0x0f])
		}
		return sb.String(), nil
	default:
		return "", fmt.Errorf("%w: %d", ErrInvalidBase, base)
	}
}

func (s *StdLib) atoi10(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	n, err := Atoi(str, 10)
	if err != nil {
		return nil, err
	}
	return stackitem.TryNewBigInteger(n)
}

func (s *StdLib) atoi(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	base, err := toBase(args[1])
	if err != nil {
		return nil, err
	}
	n, err := Atoi(str, base)
	if err != nil {
		return nil, err
	}
	return stackitem.TryNewBigInteger(n)
}

// Atoi parses s as C# BigInteger.Parse does with the invariant culture:
//
//   - base 10 (NumberStyles.AllowLeadingSign): an optional '+' or '-', then
//     at least one ASCII digit; no white space; trailing NUL characters are
//     ignored (.NET's number parser allows them "for compatibility").
//   - base 16 (NumberStyles.AllowHexSpecifier): at least one hex digit of
//     either case, no sign, no prefix, no white space; the digits are a two's
//     complement number whose sign is the top bit of the first digit ("ff"
//     and "f" are -1, "0f" is 15).
//
// The result is not limited in size (the caller's Integer conversion is).
func Atoi(s string, base int) (*big.Int, error) {
	switch base {
	case 10:
		s = strings.TrimRight(s, "\x00")
		digits := s
		if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
			digits = digits[1:]
		}
		if len(digits) == 0 {
			return nil, fmt.Errorf("%w: %q", ErrInvalidFormat, s)
		}
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				return nil, fmt.Errorf("%w: %q", ErrInvalidFormat, s)
			}
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("%w: %q", ErrInvalidFormat, s)
		}
		return n, nil
	case 16:
		if len(s) == 0 {
			return nil, fmt.Errorf("%w: empty string", ErrInvalidFormat)
		}
		padded := s
		odd := len(s)%2 != 0
		if odd {
			padded = "0" + s
		}
		be, err := hex.DecodeString(padded)
		if err != nil {
			return nil, fmt.Errorf("%w: %q", ErrInvalidFormat, s)
		}
		if odd && be[0]&0x08 != 0 {
			be[0] |= 0xf0 // sign-extend the odd leading digit
		}
		for i, j := 0, len(be)-1; i < j; i, j = i+1, j-1 {
			be[i], be[j] = be[j], be[i]
		}
		return bigint.FromBytes(be), nil
	default:
		return nil, fmt.Errorf("%w: %d", ErrInvalidBase, base)
	}
}

func (s *StdLib) base64Encode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := toLimitedBytes(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString([]byte(base64.StdEncoding.EncodeToString(b))), nil
}

func (s *StdLib) base64Decode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	b, err := Base64Decode(str)
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString(b), nil
}

// stripBase64Space removes the white space .NET's base64 decoders skip (' ',
// '\t'; Go's decoder skips '\r' and '\n' itself).
func stripBase64Space(s string) string {
	if !strings.ContainsAny(s, " \t") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

// Base64Decode decodes standard padded base64 as C# Convert.FromBase64String
// does: ' ', '\t', '\r' and '\n' are ignored anywhere.
func Base64Decode(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(stripBase64Space(s))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidFormat, err)
	}
	return b, nil
}

func (s *StdLib) base64URLEncode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString([]byte(base64.RawURLEncoding.EncodeToString([]byte(str)))), nil
}

func (s *StdLib) base64URLDecode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	b, err := Base64URLDecode(str)
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString(b), nil
}

// Base64URLDecode is C# Base64UrlEncoder.Decode (Microsoft.IdentityModel
// 8): the string's length (white space included) must not be 1 modulo 4;
// '=' pads it to a multiple of 4, '-' and '_' become '+' and '/', and the
// result is decoded as standard base64 (white space ignored). The bytes are
// then read as UTF-8 with invalid sequences replaced by U+FFFD (.NET
// Encoding.UTF8.GetString), since the method returns a string.
func Base64URLDecode(s string) ([]byte, error) {
	n := utf16Len(s)
	if n%4 == 1 {
		return nil, fmt.Errorf("%w: base64url length %d", ErrInvalidFormat, n)
	}
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '-':
			sb.WriteByte('+')
		case '_':
			sb.WriteByte('/')
		default:
			sb.WriteByte(c)
		}
	}
	for ; n%4 != 0; n++ {
		sb.WriteByte('=')
	}
	b, err := Base64Decode(sb.String())
	if err != nil {
		return nil, err
	}
	return ReplaceInvalidUTF8(b), nil
}

// utf16Len returns the length of valid UTF-8 s in UTF-16 code units (C#
// string.Length).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// ReplaceInvalidUTF8 returns b with every maximal subpart of an ill-formed
// UTF-8 sequence replaced by U+FFFD, as .NET's UTF-8 decoder does (Unicode
// "best practice", Table 3-8 of the Unicode Standard). b is returned as is
// when it is valid.
func ReplaceInvalidUTF8(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		n, ok := utf8SeqLen(b[i:])
		if ok {
			if out != nil {
				out = append(out, b[i:i+n]...)
			}
			i += n
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+8)
			out = append(out, b[:i]...)
		}
		out = append(out, 0xef, 0xbf, 0xbd)
		i += n
	}
	if out == nil {
		return b
	}
	return out
}

// utf8SeqLen returns the length of the well-formed sequence at the start of
// b (ok), or the length of the maximal subpart of an ill-formed one (at
// least 1).
func utf8SeqLen(b []byte) (int, bool) {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xbf) // range of the second byte
	switch {
	case c < 0x80:
		return 1, true
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c >= 0xe1 && c <= 0xec, c == 0xee, c == 0xef:
		need = 2
	case c == 0xed:
		need, hi = 2, 0x9f
	case c == 0xf0:
		need, lo = 3, 0x90
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	case c == 0xf4:
		need, hi = 3, 0x8f
	default:
		return 1, false
	}
	for k := 1; k <= need; k++ {
		if k >= len(b) || b[k] < lo || b[k] > hi {
			return k, false
		}
		lo, hi = 0x80, 0xbf
	}
	return need + 1, true
}

func (s *StdLib) base58Encode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := toLimitedBytes(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString([]byte(base58.Encode(b))), nil
}

// Base58Decode is C# Base58.Decode: the empty string decodes to no bytes.
func Base58Decode(s string) ([]byte, error) {
	if s == "" {
		return []byte{}, nil
	}
	b, err := base58.Decode(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidFormat, err)
	}
	return b, nil
}

func (s *StdLib) base58Decode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	b, err := Base58Decode(str)
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString(b), nil
}

func (s *StdLib) base58CheckEncode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := toLimitedBytes(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString([]byte(base58.CheckEncode(b))), nil
}

// Base58CheckDecode is C# Base58.Base58CheckDecode: at least the 4 checksum
// bytes (an empty payload is allowed), checksum = first 4 bytes of
// Hash256(payload).
func Base58CheckDecode(s string) ([]byte, error) {
	b, err := Base58Decode(s)
	if err != nil {
		return nil, err
	}
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: base58check data of %d bytes", ErrInvalidFormat, len(b))
	}
	payload := b[:len(b)-4]
	if sum := hash.Checksum(payload); !bytes.Equal(sum[:], b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: base58check checksum mismatch", ErrInvalidFormat)
	}
	return payload, nil
}

func (s *StdLib) base58CheckDecode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	b, err := Base58CheckDecode(str)
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString(b), nil
}

func (s *StdLib) hexEncode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := toLimitedBytes(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString([]byte(hex.EncodeToString(b))), nil
}

func (s *StdLib) hexDecode(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(str)
	if err != nil {
		return nil, fmt.Errorf("%w: hex: %w", ErrInvalidFormat, err)
	}
	return stackitem.NewByteString(b), nil
}

func (s *StdLib) memoryCompare(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	a, err := toLimitedBytes(args[0])
	if err != nil {
		return nil, err
	}
	b, err := toLimitedBytes(args[1])
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(bytes.Compare(a, b))), nil
}

// memorySearchArgs converts mem (limited) and value (not limited, as in C#).
func memorySearchArgs(args []stackitem.Item) ([]byte, []byte, error) {
	mem, err := toLimitedBytes(args[0])
	if err != nil {
		return nil, nil, err
	}
	val, err := ToBytes(args[1])
	if err != nil {
		return nil, nil, err
	}
	return mem, val, nil
}

func (s *StdLib) memorySearch2(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	mem, val, err := memorySearchArgs(args)
	if err != nil {
		return nil, err
	}
	i, err := MemorySearch(mem, val, 0, false)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(i)), nil
}

func (s *StdLib) memorySearch3(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	mem, val, err := memorySearchArgs(args)
	if err != nil {
		return nil, err
	}
	start, err := ToInt32(args[2])
	if err != nil {
		return nil, err
	}
	i, err := MemorySearch(mem, val, int(start), false)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(i)), nil
}

func (s *StdLib) memorySearch4(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	mem, val, err := memorySearchArgs(args)
	if err != nil {
		return nil, err
	}
	start, err := ToInt32(args[2])
	if err != nil {
		return nil, err
	}
	backward, err := args[3].TryBool()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArgument, err)
	}
	i, err := MemorySearch(mem, val, int(start), backward)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(i)), nil
}

// MemorySearch is C# StdLib.MemorySearch: forward, the first index of value
// in mem[start:] (plus start); backward, the last index of value in
// mem[:start]; -1 if there is none. start must be within [0, len(mem)]. An
// empty value is found at start (forward) or at start (backward, .NET's
// LastIndexOf of an empty span is the span's length).
func MemorySearch(mem, value []byte, start int, backward bool) (int, error) {
	if start < 0 || start > len(mem) {
		return 0, fmt.Errorf("%w: start %d out of range [0, %d]", ErrArgument, start, len(mem))
	}
	if backward {
		return bytes.LastIndex(mem[:start], value), nil
	}
	i := bytes.Index(mem[start:], value)
	if i < 0 {
		return -1, nil
	}
	return i + start, nil
}

func (s *StdLib) stringSplit2(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return s.stringSplit(args, false)
}

func (s *StdLib) stringSplit3(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return s.stringSplit(args, true)
}

func (s *StdLib) stringSplit(args []stackitem.Item, withOption bool) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	sep, err := ToString(args[1])
	if err != nil {
		return nil, err
	}
	var removeEmpty bool
	if withOption {
		if removeEmpty, err = args[2].TryBool(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrArgument, err)
		}
	}
	parts := StringSplit(str, sep, removeEmpty)
	items := make([]stackitem.Item, len(parts))
	for i, p := range parts {
		items[i] = stackitem.NewByteString([]byte(p))
	}
	return stackitem.NewArray(items), nil
}

// StringSplit is C# string.Split(separator, options) with ordinal matching:
// an empty separator leaves the string whole, and removeEmpty drops empty
// parts (so "" split with removeEmpty is no parts).
func StringSplit(str, sep string, removeEmpty bool) []string {
	var parts []string
	if sep == "" {
		parts = []string{str}
	} else {
		parts = strings.Split(str, sep)
	}
	if !removeEmpty {
		return parts
	}
	res := parts[:0]
	for _, p := range parts {
		if p != "" {
			res = append(res, p)
		}
	}
	return res
}

func (s *StdLib) strLen(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	str, err := toLimitedString(args[0])
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(StrLen(str))), nil
}

// StrLen is C# StdLib.StrLen: the number of text elements (extended
// grapheme clusters) of s, as .NET's StringInfo.GetTextElementEnumerator
// counts them. .NET implements the UAX #29 rules of Unicode 11-15.0 (no
// GB9c Indic conjunct rule) as a state machine; rivo/uniseg implements the
// same rules over Unicode 15.0 data. So "ã" written as a + U+0303 and an
// emoji ZWJ sequence are one element each (neo-go 0.120.0 counts runes
// instead). Characters assigned after Unicode 15.0 may be classified
// differently by newer .NET runtimes.
func StrLen(s string) int {
	return uniseg.GraphemeClusterCount(s)
}
