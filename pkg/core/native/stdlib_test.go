package native_test

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/rivo/uniseg"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

var stdHash = nativenames.StdLibHash

func TestStdLibMethods(t *testing.T) {
	c := chaintest.New(t)
	none := callflag.None
	d := config.HFDefault
	checkMethodSpecs(t, c.Natives.ByID(nativenames.StdLibID), []methodSpec{
		{"serialize", 1, 1 << 12, none, d, d},
		{"deserialize", 1, 1 << 14, none, d, d},
		{"jsonSerialize", 1, 1 << 12, none, d, d},
		{"jsonDeserialize", 1, 1 << 14, none, d, d},
		{"itoa", 1, 1 << 12, none, d, d},
		{"itoa", 2, 1 << 12, none, d, d},
		{"atoi", 1, 1 << 6, none, d, d},
		{"atoi", 2, 1 << 6, none, d, d},
		{"base64Encode", 1, 1 << 5, none, d, d},
		{"base64Decode", 1, 1 << 5, none, d, d},
		{"base64UrlEncode", 1, 1 << 5, none, config.HFEchidna, d},
		{"base64UrlDecode", 1, 1 << 5, none, config.HFEchidna, d},
		{"base58Encode", 1, 1 << 13, none, d, d},
		{"base58Decode", 1, 1 << 10, none, d, d},
		{"base58CheckEncode", 1, 1 << 16, none, d, d},
		{"base58CheckDecode", 1, 1 << 16, none, d, d},
		{"hexEncode", 1, 1 << 5, none, config.HFFaun, d},
		{"hexDecode", 1, 1 << 5, none, config.HFFaun, d},
		{"memoryCompare", 2, 1 << 5, none, d, d},
		{"memorySearch", 2, 1 << 6, none, d, d},
		{"memorySearch", 3, 1 << 6, none, d, d},
		{"memorySearch", 4, 1 << 6, none, d, d},
		{"stringSplit", 2, 1 << 8, none, d, d},
		{"stringSplit", 3, 1 << 8, none, d, d},
		{"strLen", 1, 1 << 8, none, d, d},
	})
}

// TestStdLibHardforks: base64Url* appear at Echidna, hex* at Faun (neo-go
// TestStd_HexEncodeDecodeCompat).
func TestStdLibHardforks(t *testing.T) {
	for _, tc := range []struct {
		hf       config.Hardfork
		url, hex bool
	}{
		{config.HFDefault, false, false},
		{config.HFDomovoi, false, false},
		{config.HFEchidna, true, false},
		{config.HFFaun, true, true},
	} {
		c := hfChain(t, tc.hf)
		_, fault := invoke(t, c, stdHash, "base64UrlEncode", "a")
		require.Equal(t, tc.url, fault == "", "%s: %s", tc.hf, fault)
		if !tc.url {
			require.Contains(t, fault, "method not found")
		}
		_, fault = invoke(t, c, stdHash, "hexEncode", []byte{0, 1, 2, 3})
		require.Equal(t, tc.hex, fault == "", "%s: %s", tc.hf, fault)
		if tc.hex {
			require.Equal(t, "00010203", string(itemBytes(t, mustInvoke(t, c, stdHash, "hexEncode", []byte{0, 1, 2, 3}))))
			require.Equal(t, []byte{0, 1, 2, 3}, itemBytes(t, mustInvoke(t, c, stdHash, "hexDecode", "00010203")))
		}
	}
}

func TestStdLibItoa(t *testing.T) {
	c := chaintest.New(t)
	cases := []struct {
		n    string
		base int
		want string
	}{
		// C# UT_StdLib.TestItoaAtoi and neo-go TestStdLibItoaAtoi.
		{"1", 10, "1"}, {"1", 16, "1"}, {"-1", 10, "-1"}, {"-1", 16, "f"},
		{"1000000000", 16, "3b9aca00"}, {"0", 10, "0"}, {"0", 16, "0"},
		{"7", 16, "7"}, {"8", 16, "08"}, {"65535", 16, "0ffff"}, {"15", 16, "0f"},
		// .NET BigInteger.ToString("x"): the shortest two's complement.
		{"16", 16, "10"}, {"127", 16, "7f"}, {"128", 16, "080"}, {"255", 16, "0ff"}, {"256", 16, "100"},
		{"-8", 16, "8"}, {"-9", 16, "f7"}, {"-128", 16, "80"}, {"-129", 16, "f7f"}, {"-256", 16, "f00"},
		{"-2147483648", 16, "80000000"}, {"2147483648", 16, "080000000"},
		{"-12345678901234567890", 10, "-12345678901234567890"},
	}
	for _, tc := range cases {
		n, _ := new(big.Int).SetString(tc.n, 10)
		got := itemBytes(t, mustInvoke(t, c, stdHash, "itoa", n, tc.base))
		require.Equal(t, tc.want, string(got), "itoa(%s, %d)", tc.n, tc.base)
		if tc.base == 10 {
			require.Equal(t, tc.want, string(itemBytes(t, mustInvoke(t, c, stdHash, "itoa", n))))
		}
		// And back.
		back := itemInt(t, mustInvoke(t, c, stdHash, "atoi", tc.want, tc.base))
		require.Equal(t, n, back, "atoi(%q, %d)", tc.want, tc.base)
	}
	// Largest integer: 32 bytes.
	maxInt := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(1))
	require.Equal(t, "0"+strings.Repeat("7", 1)+strings.Repeat("f", 63), "0"+string(itemBytes(t, mustInvoke(t, c, stdHash, "itoa", maxInt, 16))))
	for _, base := range []any{13, 2, 0, -10, new(big.Int).Lsh(big.NewInt(1), 40)} {
		mustFault(t, c, stdHash, "itoa", 1, base)
	}
	mustFault(t, c, stdHash, "itoa", stackitem.NewArray(nil), 10)
}

func TestStdLibAtoi(t *testing.T) {
	c := chaintest.New(t)
	ok := []struct {
		s    string
		base int
		want int64
	}{
		// C# UT_StdLib.
		{"-1", 10, -1}, {"+1", 10, 1}, {"ff", 16, -1}, {"FF", 16, -1},
		// neo-go.
		{"FFF", 16, -1}, {"FFFF", 16, -1},
		// Leading zeros, "-0".
		{"007", 10, 7}, {"-0", 10, 0}, {"+0", 10, 0},
		{"8", 16, -8}, {"08", 16, 8}, {"80", 16, -128}, {"080", 16, 128}, {"F", 16, -1},
		{"0F", 16, 15}, {"7", 16, 7}, {"100", 16, 256}, {"000", 16, 0}, {"aBc", 16, -1348},
		{"0aBc", 16, 2748},
	}
	for _, tc := range ok {
		got := itemInt(t, mustInvoke(t, c, stdHash, "atoi", tc.s, tc.base))
		require.Equal(t, big.NewInt(tc.want), got, "atoi(%q, %d)", tc.s, tc.base)
		if tc.base == 10 {
			require.Equal(t, big.NewInt(tc.want), itemInt(t, mustInvoke(t, c, stdHash, "atoi", tc.s)))
		}
	}
	bad := []struct {
		s    any
		base any
	}{
		// C# UT_StdLib.
		{"a", 10}, {"g", 16}, {"a", 11},
		// neo-go.
		{"1", 13}, {"1", new(big.Int).Lsh(big.NewInt(1), 63)}, {"1_000", 10}, {" 1", 10}, {"1 ", 10},
		{"FE", 10}, {"XD", 16}, {strings.Repeat("0", native.StdMaxInputLength+1), 10},
		// Empty strings (neo-go after 0.120.0, C# BigInteger.Parse).
		{"", 10}, {"", 16},
		// No sign or white space in hex, no prefix; only one sign; NUL only
		// at the end in base 10 and never in hex.
		{"-1", 16}, {"+1", 16}, {"0x1", 16}, {" f", 16}, {"f\x00", 16}, {"+", 10}, {"-", 10},
		{"--1", 10}, {"+-1", 10}, {"1-", 10}, {"\x001", 10}, {"1\x002", 10}, {"\x00", 10},
		// Trailing NULs: neo-go 0.120.0 faults (followed); .NET's parser
		// ignores them and C# returns 12.
		{"12\x00", 10}, {"12\x00\x00\x00", 10},
		{"1.0", 10}, {"1e3", 10}, {"(1)", 10}, {"1,000", 10},
		// Only ASCII digits.
		{"\uff18", 10}, {"\u0663", 10},
		// The result must fit an Integer (32 bytes).
		{strings.Repeat("9", 80), 10}, {"0" + strings.Repeat("f", 64), 16},
		// Strict UTF-8, not null.
		{[]byte{0xff, '1'}, 10}, {nil, 10},
	}
	for _, tc := range bad {
		mustFault(t, c, stdHash, "atoi", tc.s, tc.base)
	}
	// 1024 bytes is the limit, leading zeros are fine.
	require.Equal(t, big.NewInt(1), itemInt(t, mustInvoke(t, c, stdHash, "atoi", strings.Repeat("0", native.StdMaxInputLength-1)+"1")))
	require.Equal(t, big.NewInt(-1), itemInt(t, mustInvoke(t, c, stdHash, "atoi", strings.Repeat("f", native.StdMaxInputLength), 16)))
}

func TestStdLibBase64(t *testing.T) {
	c := chaintest.New(t)
	enc := func(b []byte) string { return string(itemBytes(t, mustInvoke(t, c, stdHash, "base64Encode", b))) }
	dec := func(s string) []byte { return itemBytes(t, mustInvoke(t, c, stdHash, "base64Decode", s)) }
	// C# UT_StdLib.TestBinary.
	require.Equal(t, "", enc([]byte{}))
	require.Equal(t, []byte{}, dec(""))
	require.Equal(t, []byte{1, 2, 3}, dec(enc([]byte{1, 2, 3})))
	require.Equal(t, []byte{1, 2, 3}, dec("A \r Q \t I \n D"))
	require.Equal(t, "AQIDBA==", enc([]byte{1, 2, 3, 4}))
	// neo-go #3926: mainnet tx 9891b55c... with a leading space.
	in := " enIC6PJKUGGHR56RZ4PXXJizdmIHXDWlU75cQkOMK0pdQenvQphcuL/u0Borm4hecvZX3lNRxqxcnAjfU7HhVQ=="
	want, err := native.Base64Decode(in[1:])
	require.NoError(t, err)
	require.Len(t, want, 64)
	require.Equal(t, want, dec(in))
	require.Equal(t, []byte("my pretty string"), dec("bXkgcHJldHR5IHN0cmluZw=="))
	for _, s := range []any{"bXkgcHJldHR5IHN0cmluZw==%", "AQI", "AQ=", "A===", "AQ==AQ==", "-_==", stackitem.NewMap(), nil} {
		mustFault(t, c, stdHash, "base64Decode", s)
	}
	mustFault(t, c, stdHash, "base64Encode", make([]byte, native.StdMaxInputLength+1))
	mustFault(t, c, stdHash, "base64Decode", strings.Repeat("A", native.StdMaxInputLength+4))
	require.Len(t, dec(strings.Repeat("A", native.StdMaxInputLength)), 768)
}

func TestStdLibBase64Url(t *testing.T) {
	c := chaintest.New(t)
	enc := func(s any) string { return string(itemBytes(t, mustInvoke(t, c, stdHash, "base64UrlEncode", s))) }
	dec := func(s string) string { return string(itemBytes(t, mustInvoke(t, c, stdHash, "base64UrlDecode", s))) }
	// C# UT_StdLib.TestBase64Url (neo-go and C# agree on it).
	const orig = "Subject=test@example.com&Issuer=https://example.com"
	const encoded = "U3ViamVjdD10ZXN0QGV4YW1wbGUuY29tJklzc3Vlcj1odHRwczovL2V4YW1wbGUuY29t"
	require.Equal(t, encoded, enc(orig))
	require.Equal(t, orig, dec(encoded))
	require.Equal(t, orig, dec("U 3 \t V \n \riamVjdD10ZXN0QGV4YW1wbGUuY29tJklzc3Vlcj1odHRwczovL2V4YW1wbGUuY29t"))
	// neo-go 0.120.0 (followed) pads; C# Base64UrlEncoder does not ("YQ",
	// "YWI") and accepts unpadded input.
	require.Equal(t, "YQ==", enc("a"))
	require.Equal(t, "YWI=", enc("ab"))
	require.Equal(t, "", enc(""))
	require.Equal(t, "Pz8_", enc("???"))
	require.Equal(t, "Pj4-", enc(">>>"))
	require.Equal(t, "a", dec("YQ=="))
	require.Equal(t, "ab", dec("YWI="))
	require.Equal(t, "???", dec("Pz8_"))
	require.Equal(t, ">>>", dec("Pj4-"))
	require.Equal(t, "", dec(""))
	// neo-go takes and returns raw bytes (C#: the argument must be UTF-8
	// and invalid UTF-8 in the result becomes U+FFFD).
	require.Equal(t, "_w==", enc([]byte{0xff}))
	require.Equal(t, "\xff", dec("_w=="))
	require.Equal(t, "\xe2\x82A", dec("4oJB"))
	// Unpadded (C# accepts), the standard alphabet (C# accepts), bad
	// characters and lengths.
	for _, s := range []any{"YQ", "YWI", "Pz8/", "Pz8+", "Y", "YQ=", "Y Q", "YQ%", encoded + "%", "!!!!", stackitem.NewMap()} {
		mustFault(t, c, stdHash, "base64UrlDecode", s)
	}
	mustFault(t, c, stdHash, "base64UrlEncode", strings.Repeat("6", native.StdMaxInputLength+1))
	mustFault(t, c, stdHash, "base64UrlDecode", strings.Repeat("6", native.StdMaxInputLength+4))
}

func TestStdLibBase58(t *testing.T) {
	c := chaintest.New(t)
	enc := func(m string, b []byte) string { return string(itemBytes(t, mustInvoke(t, c, stdHash, m, b))) }
	dec := func(m, s string) []byte { return itemBytes(t, mustInvoke(t, c, stdHash, m, s)) }
	// C# UT_StdLib.TestBinary and CheckDecodeEncode.
	require.Equal(t, "", enc("base58Encode", []byte{}))
	// C# decodes "" to no bytes; neo-go 0.120.0 (followed) faults.
	mustFault(t, c, stdHash, "base58Decode", "")
	require.Equal(t, []byte{1, 2, 3}, dec("base58Decode", enc("base58Encode", []byte{1, 2, 3})))
	require.Equal(t, "2VfUX", enc("base58Encode", []byte{1, 2, 3, 4}))
	require.Equal(t, "3DUz7ncyT", enc("base58CheckEncode", []byte{1, 2, 3}))
	require.Equal(t, []byte{1, 2, 3}, dec("base58CheckDecode", "3DUz7ncyT"))
	mustFault(t, c, stdHash, "base58CheckDecode", "AA")
	mustFault(t, c, stdHash, "base58CheckDecode", nil)
	// Leading zero bytes are '1's.
	require.Equal(t, "111", enc("base58Encode", []byte{0, 0, 0}))
	require.Equal(t, []byte{0, 0, 0, 1}, dec("base58Decode", "1112"))
	// C# Base58CheckDecode accepts an empty payload (4 checksum bytes);
	// neo-go 0.120.0 (followed) wants at least one payload byte.
	empty := enc("base58CheckEncode", []byte{})
	mustFault(t, c, stdHash, "base58CheckDecode", empty)
	require.Equal(t, []byte{0}, dec("base58CheckDecode", enc("base58CheckEncode", []byte{0})))
	require.Equal(t, []byte("my pretty string"), dec("base58CheckDecode", enc("base58CheckEncode", []byte("my pretty string"))))
	for _, s := range []any{"0", "O", "I", "l", "12 3", "2VfUX%", "\u00e9", stackitem.NewMap(), ""} {
		if s == "" {
			mustFault(t, c, stdHash, "base58CheckDecode", s)
			continue
		}
		mustFault(t, c, stdHash, "base58Decode", s)
		mustFault(t, c, stdHash, "base58CheckDecode", s)
	}
	bad := []byte(enc("base58CheckEncode", []byte{1, 2, 3}))
	bad[len(bad)-1]++
	mustFault(t, c, stdHash, "base58CheckDecode", string(bad))
	big := make([]byte, native.StdMaxInputLength+1)
	mustFault(t, c, stdHash, "base58Encode", big)
	mustFault(t, c, stdHash, "base58CheckEncode", big)
	mustFault(t, c, stdHash, "base58Decode", strings.Repeat("6", native.StdMaxInputLength+1))
	mustFault(t, c, stdHash, "base58CheckDecode", strings.Repeat("6", native.StdMaxInputLength+1))
}

func TestStdLibHex(t *testing.T) {
	c := chaintest.New(t)
	require.Equal(t, "616263", string(itemBytes(t, mustInvoke(t, c, stdHash, "hexEncode", []byte("abc")))))
	require.Equal(t, "", string(itemBytes(t, mustInvoke(t, c, stdHash, "hexEncode", []byte{}))))
	require.Equal(t, []byte("abc"), itemBytes(t, mustInvoke(t, c, stdHash, "hexDecode", "616263")))
	require.Equal(t, []byte{0xab, 0xcd}, itemBytes(t, mustInvoke(t, c, stdHash, "hexDecode", "AbCd")))
	require.Equal(t, []byte{}, itemBytes(t, mustInvoke(t, c, stdHash, "hexDecode", "")))
	for _, s := range []any{"zz", "abc", "0x00", " 00", "00 ", stackitem.NewMap(), nil} {
		mustFault(t, c, stdHash, "hexDecode", s)
	}
	mustFault(t, c, stdHash, "hexEncode", make([]byte, native.StdMaxInputLength+1))
	mustFault(t, c, stdHash, "hexDecode", strings.Repeat("00", native.StdMaxInputLength/2+1))
	require.Len(t, itemBytes(t, mustInvoke(t, c, stdHash, "hexEncode", make([]byte, native.StdMaxInputLength))), 2048)
}

func TestStdLibMemoryCompare(t *testing.T) {
	c := chaintest.New(t)
	cmp := func(a, b string) int64 { return itemInt(t, mustInvoke(t, c, stdHash, "memoryCompare", a, b)).Int64() }
	// C# UT_StdLib.MemoryCompare.
	require.EqualValues(t, -1, cmp("abc", "c"))
	require.EqualValues(t, -1, cmp("abc", "d"))
	require.EqualValues(t, 0, cmp("abc", "abc"))
	require.EqualValues(t, -1, cmp("abc", "abcd"))
	// neo-go.
	require.EqualValues(t, -1, cmp("a", "ab"))
	require.EqualValues(t, 1, cmp("ab", "a"))
	require.EqualValues(t, -1, cmp("", "a"))
	require.EqualValues(t, 0, cmp("", ""))
	require.EqualValues(t, 1, cmp("\xff", "\x00\x00"))
	long := strings.Repeat("x", native.StdMaxInputLength+1)
	mustFault(t, c, stdHash, "memoryCompare", long, "xxx")
	mustFault(t, c, stdHash, "memoryCompare", "xxx", long)
}

func TestStdLibMemorySearch(t *testing.T) {
	c := chaintest.New(t)
	search := func(args ...any) int64 { return itemInt(t, mustInvoke(t, c, stdHash, "memorySearch", args...)).Int64() }
	// C# UT_StdLib.MemorySearch.
	for _, tc := range []struct {
		args []any
		want int64
	}{
		{[]any{"abc", "c", 0}, 2}, {[]any{"abc", "c", 1}, 2}, {[]any{"abc", "c", 2}, 2},
		{[]any{"abc", "c", 3}, -1}, {[]any{"abc", "d", 0}, -1},
		{[]any{"abc", "c", 0, false}, 2}, {[]any{"abc", "c", 1, false}, 2}, {[]any{"abc", "c", 2, false}, 2},
		{[]any{"abc", "c", 3, false}, -1}, {[]any{"abc", "d", 0, false}, -1},
		{[]any{"abc", "c", 0, true}, -1}, {[]any{"abc", "c", 1, true}, -1}, {[]any{"abc", "c", 2, true}, -1},
		{[]any{"abc", "c", 3, true}, 2}, {[]any{"abc", "d", 0, true}, -1},
		// C# UT_StdLib.TestMemorySearch.
		{[]any{[]byte{0, 1, 2, 3}, []byte{3}, 0, false}, 3},
		{[]any{[]byte{0, 1, 2, 3}, []byte{3}, 3, false}, 3},
		{[]any{[]byte{0, 1, 2, 3}, []byte{3}, 4, true}, 3},
		{[]any{"abcabc", "bc"}, 1}, {[]any{"abcabc", "bc", 2}, 4}, {[]any{"abcabc", "bc", 6, true}, 4},
		{[]any{"abcabc", "bc", 4, true}, 1},
		// An empty value is found at start (.NET IndexOf/LastIndexOf of an
		// empty span).
		{[]any{"abc", ""}, 0}, {[]any{"abc", "", 2}, 2}, {[]any{"abc", "", 3}, 3},
		{[]any{"abc", "", 2, true}, 2}, {[]any{"abc", "", 0, true}, 0},
	} {
		require.Equal(t, tc.want, search(tc.args...), "%v", tc.args)
	}
	long := strings.Repeat("x", native.StdMaxInputLength+1)
	mustFault(t, c, stdHash, "memorySearch", long, "x")
	mustFault(t, c, stdHash, "memorySearch", long, "x", 0)
	mustFault(t, c, stdHash, "memorySearch", long, "x", 0, false)
	// neo-go 0.120.0 (followed) limits value too; C# returns -1.
	mustFault(t, c, stdHash, "memorySearch", "xxx", long)
	mustFault(t, c, stdHash, "memorySearch", "xxx", long, 0)
	mustFault(t, c, stdHash, "memorySearch", "xxx", long, 0, true)
	for _, start := range []any{-1, 4, int64(1) << 32} {
		mustFault(t, c, stdHash, "memorySearch", "aaa", "a", start)
		mustFault(t, c, stdHash, "memorySearch", "aaa", "a", start, true)
	}
	mustFault(t, c, stdHash, "memorySearch", "aaa", "a", 0, make([]byte, 33)) // GetBoolean of > 32 bytes
}

func TestStdLibStringSplit(t *testing.T) {
	c := chaintest.New(t)
	split := func(args ...any) []string {
		arr, ok := mustInvoke(t, c, stdHash, "stringSplit", args...).(*stackitem.Array)
		require.True(t, ok)
		res := []string{}
		for _, it := range arr.Items() {
			res = append(res, string(itemBytes(t, it)))
		}
		return res
	}
	// C# UT_StdLib.StringSplit.
	require.Equal(t, []string{"a", "b"}, split("a,b", ","))
	// neo-go TestStringSplit (with the C# result for an empty separator,
	// neo-go after 0.120.0).
	require.Equal(t, []string{"abc"}, split("abc", ""))
	require.Equal(t, []string{"abc"}, split("abc", "", true))
	require.Equal(t, []string{"a", "c", "", "", "d"}, split("abcbbbd", "b"))
	require.Equal(t, []string{"a", "c", "", "", "d"}, split("abcbbbd", "b", false))
	require.Equal(t, []string{"a", "c", "d"}, split("abcbbbd", "b", true))
	require.Equal(t, []string{""}, split("", "abc"))
	require.Equal(t, []string{}, split("", "abc", true))
	// An empty string split by an empty separator: neo-go's fix returns it
	// whole even with removeEmptyEntries (C# returns no parts then).
	require.Equal(t, []string{""}, split("", ""))
	require.Equal(t, []string{""}, split("", "", true))
	require.Equal(t, []string{"", ""}, split(",", ","))
	require.Equal(t, []string{"a", "", "b"}, split("a::::b", "::"))
	require.Equal(t, []string{"\u00e3", "\U0001f986"}, split("\u00e3|\U0001f986", "|"))
	// Only str is limited.
	require.Equal(t, []string{"ab"}, split("ab", strings.Repeat("x", native.StdMaxInputLength+1)))
	mustFault(t, c, stdHash, "stringSplit", strings.Repeat("x", native.StdMaxInputLength+1), "x")
	mustFault(t, c, stdHash, "stringSplit", "abc", nil)
	mustFault(t, c, stdHash, "stringSplit", "abc", []byte{0xff})
	mustFault(t, c, stdHash, "stringSplit", "abc", "b", make([]byte, 33))
}

// TestStdLibStrLen: neo-go 0.120.0 counts runes (followed); C# counts text
// elements (extended grapheme clusters, .NET StringInfo). The csharp column
// is what C# returns, computed here with rivo/uniseg (Unicode 15.0 UAX #29
// rules, the ones .NET's state machine implements), to pin the difference.
func TestStdLibStrLen(t *testing.T) {
	c := chaintest.New(t)
	strLen := func(s any) int64 { return itemInt(t, mustInvoke(t, c, stdHash, "strLen", s)).Int64() }
	cases := []struct {
		s             string
		neogo, csharp int
	}{
		// C# UT_StdLib.StringElementLength and TestInvalidUtf8Sequence.
		{"🦆", 1, 1}, {"ã", 1, 1}, {"a", 1, 1}, {"\u00ff", 1, 1}, {"\u00ffab", 3, 3},
		{"", 0, 0},
		// Combining marks.
		{"a\u0303", 2, 1}, {"e\u0301\u0301\u0301", 4, 1}, {"\u0303", 1, 1}, {"\u0303a", 2, 2},
		{"ma\u0303e\u0303", 5, 3},
		// Emoji: modifiers, ZWJ sequences, flags, keycaps, presentation
		// selectors.
		{"👍🏽", 2, 1}, {"👨\u200d👩\u200d👧\u200d👦", 7, 1}, {"👩\u200d❤\ufe0f\u200d👨", 6, 1},
		{"🇺🇸", 2, 1}, {"🇺🇸🇫🇷", 4, 2}, {"🇺🇸🇫", 3, 2}, {"🇺", 1, 1}, {"1\ufe0f\u20e3", 3, 1}, {"❤\ufe0f", 2, 1},
		{"a\u200d👍", 3, 2}, {"👍\u200d", 2, 1},
		// CR LF, controls.
		{"\r\n", 2, 1}, {"\n\r", 2, 2}, {"a\r\nb", 4, 3}, {"\x00\u0301", 2, 2}, {"\t\t", 2, 2},
		// Hangul syllables and jamo sequences.
		{"한국어", 3, 3}, {"\u1100\u1161\u11a8", 3, 1}, {"\u1100\u1100\u1161", 3, 1}, {"\uac00\u11a8", 2, 1},
		// Prepend (U+0600 ARABIC NUMBER SIGN), SpacingMark (Devanagari,
		// Thai); "क्षि" is two elements without Unicode 15.1's GB9c rule,
		// which .NET's state machine does not have.
		{"\u0600\u0661", 2, 1}, {"\u0600\r", 2, 2}, {"\u0915\u093f", 2, 1}, {"\u0915\u094d\u0937\u093f", 4, 2},
		{"\u0e01\u0e33", 2, 1},
	}
	for _, tc := range cases {
		require.EqualValues(t, tc.neogo, strLen(tc.s), "%q", tc.s)
		require.Equal(t, tc.neogo, native.StrLen(tc.s), "%q", tc.s)
		require.Equal(t, tc.csharp, uniseg.GraphemeClusterCount(tc.s), "C# text elements of %q", tc.s)
	}
	require.EqualValues(t, native.StdMaxInputLength, strLen(strings.Repeat("a", native.StdMaxInputLength)))
	require.EqualValues(t, native.StdMaxInputLength/4, strLen(strings.Repeat("🦆", native.StdMaxInputLength/4)))
	mustFault(t, c, stdHash, "strLen", strings.Repeat("a", native.StdMaxInputLength+1))
	mustFault(t, c, stdHash, "strLen", []byte{0xff})
	mustFault(t, c, stdHash, "strLen", []byte{0xed, 0xa0, 0x80}) // UTF-8 encoded surrogate
	mustFault(t, c, stdHash, "strLen", nil)
}

func TestStdLibSerialize(t *testing.T) {
	c := chaintest.New(t)
	ser := func(v any) string { return hex.EncodeToString(itemBytes(t, mustInvoke(t, c, stdHash, "serialize", v))) }
	// C# UT_StdLib.TestRuntime_Serialize/Deserialize.
	require.Equal(t, "210164", ser(100))
	require.Equal(t, "280474657374", ser("test"))
	require.Equal(t, big.NewInt(100), itemInt(t, mustInvoke(t, c, stdHash, "deserialize", []byte{0x21, 0x01, 0x64})))
	require.Equal(t, []byte("test"), itemBytes(t, mustInvoke(t, c, stdHash, "deserialize", []byte("\x28\x04test"))))
	// neo-go TestStdLibSerializeDeserialize MapCompat.
	m := stackitem.NewMap()
	require.NoError(t, m.Set(stackitem.NewByteString([]byte("key")), stackitem.NewByteString([]byte("value"))))
	require.Equal(t, "480128036b6579280576616c7565", ser(m))
	// Round trips.
	for _, it := range []stackitem.Item{
		stackitem.Bool(true), stackitem.NewByteString([]byte{1, 2, 3}), stackitem.NewInt(48),
		stackitem.NewArray([]stackitem.Item{stackitem.Bool(true), stackitem.NewInt(123), stackitem.NewMap()}),
		stackitem.NewStruct([]stackitem.Item{stackitem.Bool(true), stackitem.NewInt(123), stackitem.NewMap()}),
		stackitem.NewBuffer([]byte{1, 2}), stackitem.Null{},
	} {
		data := itemBytes(t, mustInvoke(t, c, stdHash, "serialize", it))
		want, err := stackitem.Serialize(it)
		require.NoError(t, err)
		require.Equal(t, want, data)
		back := mustInvoke(t, c, stdHash, "deserialize", data)
		again, err := stackitem.Serialize(back)
		require.NoError(t, err)
		require.Equal(t, want, again)
	}
	// Too big (C# MaxItemSize), interop, the same compound twice (C#), bad
	// type byte, truncated data.
	mustFault(t, c, stdHash, "serialize", make([]byte, stackitem.MaxSize))
	mustFault(t, c, stdHash, "deserialize", []byte{0xff, 0x01, 0x7b})
	mustFault(t, c, stdHash, "deserialize", []byte{0x28, 0x05, 't'})
	mustFault(t, c, stdHash, "deserialize", []byte{})
	mustFault(t, c, stdHash, "deserialize", stackitem.NewMap())
}

func TestStdLibJSON(t *testing.T) {
	c := chaintest.New(t)
	ser := func(v any) string { return string(itemBytes(t, mustInvoke(t, c, stdHash, "jsonSerialize", v))) }
	// C# UT_StdLib.Json_Serialize.
	require.Equal(t, "5", ser(5))
	require.Equal(t, "true", ser(true))
	require.Equal(t, `"test"`, ser("test"))
	require.Equal(t, "null", ser(nil))
	m := stackitem.NewMap()
	require.NoError(t, m.Set(stackitem.NewByteString([]byte("key")), stackitem.NewByteString([]byte("value"))))
	require.Equal(t, `{"key":"value"}`, ser(m))
	require.Equal(t, "42", ser(42))
	// Too big: two halves of MaxSize (neo-go).
	mustFault(t, c, stdHash, "jsonSerialize", stackitem.NewArray([]stackitem.Item{
		stackitem.NewByteString(make([]byte, stackitem.MaxSize/2)), stackitem.NewByteString(make([]byte, stackitem.MaxSize/2)),
	}))

	// C# UT_StdLib.Json_Deserialize.
	require.Equal(t, big.NewInt(123), itemInt(t, mustInvoke(t, c, stdHash, "jsonDeserialize", "123")))
	require.Equal(t, stackitem.Null{}, mustInvoke(t, c, stdHash, "jsonDeserialize", "null"))
	for _, s := range []any{"***", "123.45", "{]", stackitem.NewMap()} {
		mustFault(t, c, stdHash, "jsonDeserialize", s)
	}
	require.Equal(t, big.NewInt(42), itemInt(t, mustInvoke(t, c, stdHash, "jsonDeserialize", "42")))

	// neo-go #4381 (C# behaviour from HF_Basilisk: the double's shortest
	// round-trip decimal form parsed as an integer).
	basilisk := []struct{ in, want string }{
		{"4.389364916666667e+34", "43893649166666670000000000000000000"},
		{"2.2218116666666666e+21", "2221811666666666600000"},
		{"11039175000000000000", "11039175000000000000"},
		{"9.07199254740993e+34", "90719925474099300000000000000000000"},
		{"9.007199254740993e+34", "90071992547409940000000000000000000"},
		{"9007199254740993e+34", "90071992547409930000000000000000000000000000000000"},
	}
	pre := hfChain(t, config.HFAspidochelone)
	for _, tc := range basilisk {
		require.Equal(t, tc.want, itemInt(t, mustInvoke(t, c, stdHash, "jsonDeserialize", tc.in)).String(), tc.in)
		// Before Basilisk the double's exact binary value.
		f, err := strconv.ParseFloat(tc.in, 64)
		require.NoError(t, err)
		exact, _ := new(big.Float).SetFloat64(f).Int(nil)
		require.Equal(t, exact.String(), itemInt(t, mustInvoke(t, pre, stdHash, "jsonDeserialize", tc.in)).String(), tc.in)
	}
}

func TestStdLibFuncs(t *testing.T) {
	// The exported helpers agree with the natives for the edge cases the
	// fuzz targets start from.
	n, err := native.Atoi("-12", 10)
	require.NoError(t, err)
	require.EqualValues(t, -12, n.Int64())
	_, err = native.Atoi("12\x00", 10)
	require.ErrorIs(t, err, native.ErrInvalidFormat)
	s, err := native.Itoa(big.NewInt(-129), 16)
	require.NoError(t, err)
	require.Equal(t, "f7f", s)
	_, err = native.Itoa(big.NewInt(1), 2)
	require.ErrorIs(t, err, native.ErrInvalidBase)
	_, err = native.Atoi("", 16)
	require.ErrorIs(t, err, native.ErrInvalidFormat)
	i, err := native.MemorySearch([]byte("abc"), []byte("c"), 3, true)
	require.NoError(t, err)
	require.Equal(t, 2, i)
	_, err = native.MemorySearch([]byte("abc"), []byte("c"), 4, true)
	require.Error(t, err)
	require.Equal(t, []string{"a", "b"}, native.StringSplit("a,,b", ",", true))
}
