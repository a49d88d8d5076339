package native

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/config"
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
	contractBase
}

func newStdLib(*Contracts) Contract {
	s := &StdLib{contractBase: newBase(nativenames.StdLib, config.HFDefault, nil)}
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
	add("base64Encode", strT, encoder(base64.StdEncoding.EncodeToString), 1<<5, hfd, p("data", bytesT))
	add("base64Decode", bytesT, decoder(Base64Decode), 1<<5, hfd, p("s", strT))
	add("base64UrlEncode", strT, encoder(base64.URLEncoding.EncodeToString), 1<<5, config.HFEchidna, p("data", strT))
	add("base64UrlDecode", strT, decoder(Base64URLDecode), 1<<5, config.HFEchidna, p("s", strT))
	add("base58Encode", strT, encoder(base58.Encode), 1<<13, hfd, p("data", bytesT))
	add("base58Decode", bytesT, decoder(Base58Decode), 1<<10, hfd, p("s", strT))
	add("base58CheckEncode", strT, encoder(base58.CheckEncode), 1<<16, hfd, p("data", bytesT))
	add("base58CheckDecode", bytesT, decoder(Base58CheckDecode), 1<<16, hfd, p("s", strT))
	add("hexEncode", strT, encoder(hex.EncodeToString), 1<<5, config.HFFaun, p("bytes", bytesT))
	add("hexDecode", bytesT, decoder(HexDecode), 1<<5, config.HFFaun, p("str", strT))
	add("memoryCompare", intT, s.memoryCompare, 1<<5, hfd, p("str1", bytesT), p("str2", bytesT))
	add("memorySearch", intT, s.memorySearch, 1<<6, hfd, p("mem", bytesT), p("value", bytesT))
	add("memorySearch", intT, s.memorySearch, 1<<6, hfd, p("mem", bytesT), p("value", bytesT),
		p("start", intT))
	add("memorySearch", intT, s.memorySearch, 1<<6, hfd, p("mem", bytesT), p("value", bytesT),
		p("start", intT), p("backward", boolT))
	add("stringSplit", smartcontract.ArrayType, s.stringSplit2, 1<<8, hfd, p("str", strT), p("separator", strT))
	add("stringSplit", smartcontract.ArrayType, s.stringSplit3, 1<<8, hfd, p("str", strT), p("separator", strT),
		p("removeEmptyEntries", boolT))
	add("strLen", intT, s.strLen, 1<<8, hfd, p("str", strT))
	return s
}

// encoder is a method that turns its (limited) byte argument into a
// string.
func encoder(f func([]byte) string) MethodFunc {
	return func(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		b, err := toLimitedBytes(args[0])
		if err != nil {
			return nil, err
		}
		return stackitem.NewByteString([]byte(f(b))), nil
	}
}

// decoder is a method that turns its (limited) string argument into bytes.
func decoder(f func(string) ([]byte, error)) MethodFunc {
	return func(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
		str, err := toLimitedString(args[0])
		if err != nil {
			return nil, err
		}
		b, err := f(str)
		if err != nil {
			return nil, err
		}
		return stackitem.NewByteString(b), nil
	}
}

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

// toBase converts the base argument of atoi and itoa: 10 or 16, any other
// integer is ErrInvalidBase.
func toBase(it stackitem.Item) (int, error) {
	n, err := ToBigInt(it)
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() || n.Int64() != 10 && n.Int64() != 16 {
		return 0, ErrInvalidBase
	}
	return int(n.Int64()), nil
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
		return "", ErrInvalidBase
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
//     at least one ASCII digit; no white space. (.NET also ignores trailing
//     NUL characters; neo-go 0.120.0 does not, and is followed.)
//   - base 16 (NumberStyles.AllowHexSpecifier): at least one hex digit of
//     either case, no sign, no prefix, no white space; the digits are a two's
//     complement number whose sign is the top bit of the first digit ("ff"
//     and "f" are -1, "0f" is 15).
//
// The result is not limited in size (the caller's Integer conversion is).
func Atoi(s string, base int) (*big.Int, error) {
	switch base {
	case 10:
		digits := s
		if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
			digits = digits[1:]
		}
		if len(digits) == 0 {
			return nil, ErrInvalidFormat
		}
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				return nil, ErrInvalidFormat
			}
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, ErrInvalidFormat
		}
		return n, nil
	case 16:
		if len(s) == 0 {
			return nil, ErrInvalidFormat
		}
		padded := s
		odd := len(s)%2 != 0
		if odd {
			padded = "0" + s
		}
		be, err := hex.DecodeString(padded)
		if err != nil {
			return nil, ErrInvalidFormat
		}
		if odd && be[0]&0x08 != 0 {
			be[0] |= 0xf0 // sign-extend the odd leading digit
		}
		for i, j := 0, len(be)-1; i < j; i, j = i+1, j-1 {
			be[i], be[j] = be[j], be[i]
		}
		return bigint.FromBytes(be), nil
	default:
		return nil, ErrInvalidBase
	}
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
		return nil, interop.Worded(ErrInvalidFormat, err)
	}
	return b, nil
}

// Base64URLDecode decodes padded base64url as neo-go 0.120.0 does: ' ',
// '\t', '\r' and '\n' are ignored, the padding is required and the bytes
// are returned as they are. (C#'s Base64UrlEncoder also takes unpadded
// input and returns a string with invalid UTF-8 replaced, see
// docs/native.md.)
func Base64URLDecode(s string) ([]byte, error) {
	b, err := base64.URLEncoding.DecodeString(stripBase64Space(s))
	if err != nil {
		return nil, interop.Worded(ErrInvalidFormat, err)
	}
	return b, nil
}

// Base58Decode decodes base58 (Bitcoin alphabet, leading '1's are zero
// bytes). The empty string is an error, as in neo-go 0.120.0 (C# decodes it
// to no bytes).
func Base58Decode(s string) ([]byte, error) {
	b, err := base58.Decode(s)
	if err != nil {
		// neo-go's text is the decoder's own, without our package's
		// "invalid base58 string: ".
		text := strings.TrimPrefix(err.Error(), base58.ErrInvalidBase58.Error()+": ")
		return nil, interop.Worded(ErrInvalidFormat, errors.New(text))
	}
	return b, nil
}

// Base58CheckDecode decodes Base58Check (checksum = first 4 bytes of
// Hash256(payload)). The payload must not be empty, as in neo-go 0.120.0
// (C# accepts the 4 checksum bytes alone).
func Base58CheckDecode(s string) ([]byte, error) {
	b, err := Base58Decode(s)
	if err != nil {
		return nil, err
	}
	if len(b) < 5 {
		return nil, interop.Worded(ErrInvalidFormat, errors.New("invalid base-58 check string: missing checksum"))
	}
	payload := b[:len(b)-4]
	if sum := hash.Checksum(payload); !bytes.Equal(sum[:], b[len(b)-4:]) {
		return nil, interop.Worded(ErrInvalidFormat, errors.New("invalid base-58 check string: invalid checksum"))
	}
	return payload, nil
}

// HexDecode decodes hex digits (either case, even length).
func HexDecode(str string) ([]byte, error) {
	b, err := hex.DecodeString(str)
	if err != nil {
		return nil, interop.Worded(ErrInvalidFormat, fmt.Errorf("hexDecode: invalid hex string %q: %w", str, err))
	}
	return b, nil
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

// memorySearchArgs converts mem and value, both limited as in neo-go 0.120.0
// (C# limits only mem).
func memorySearchArgs(args []stackitem.Item) ([]byte, []byte, error) {
	mem, err := toLimitedBytes(args[0])
	if err != nil {
		return nil, nil, err
	}
	val, err := toLimitedBytes(args[1])
	if err != nil {
		return nil, nil, err
	}
	return mem, val, nil
}

// memorySearch is memorySearch(mem, value[, start[, backward]]): the
// overloads of 2, 3 and 4 parameters share it (args has one item per
// parameter).
func (s *StdLib) memorySearch(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	mem, val, err := memorySearchArgs(args)
	if err != nil {
		return nil, err
	}
	var (
		start    uint32
		backward bool
	)
	if len(args) > 2 {
		if start, err = ToUint32(args[2]); err != nil {
			return nil, err
		}
	}
	if len(args) > 3 {
		if backward, err = interop.ItemBool(args[3]); err != nil {
			return nil, err
		}
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
		if backward {
			return 0, interop.Worded(ErrArgument, errors.New("invalid start index")) // neo-go's text
		}
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
		if removeEmpty, err = interop.ItemBool(args[2]); err != nil {
			return nil, err
		}
	}
	parts := StringSplit(str, sep, removeEmpty)
	items := make([]stackitem.Item, len(parts))
	for i, p := range parts {
		items[i] = stackitem.NewByteString([]byte(p))
	}
	return stackitem.NewArray(items), nil
}

// StringSplit is C# string.Split(separator, options) with ordinal matching,
// as neo-go does it since its C# fix (0.122.0): an empty separator leaves
// the string whole, even an empty one with removeEmpty (C# returns no parts
// then); otherwise removeEmpty drops the empty parts.
func StringSplit(str, sep string, removeEmpty bool) []string {
	if sep == "" {
		return []string{str}
	}
	parts := strings.Split(str, sep)
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

// StrLen is neo-go 0.120.0's strLen: the number of runes (code points) of
// s. C# counts text elements (extended grapheme clusters) instead, so the
// two differ for combining marks and emoji sequences ("a\u0303" is 2 here,
// 1 in C#); see docs/native.md.
func StrLen(s string) int {
	return utf8.RuneCountInString(s)
}
