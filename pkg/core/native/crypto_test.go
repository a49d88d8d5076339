package native_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/crypto/cryptolib"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

var cryptoHash = nativenames.CryptoLibHash

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func TestCryptoLibMethods(t *testing.T) {
	c := chaintest.New(t)
	none := callflag.None
	d := config.HFDefault
	checkMethodSpecs(t, c.Natives.ByID(nativenames.CryptoLibID), []methodSpec{
		{"sha256", 1, 1 << 15, none, d, d},
		{"ripemd160", 1, 1 << 15, none, d, d},
		{"murmur32", 2, 1 << 13, none, d, d},
		{"verifyWithECDsa", 4, 1 << 15, none, d, config.HFCockatrice},
		{"verifyWithECDsa", 4, 1 << 15, none, config.HFCockatrice, config.HFGorgon},
		{"verifyWithECDsa", 4, 1 << 15, none, config.HFGorgon, d},
		{"bls12381Serialize", 1, 1 << 19, none, d, d},
		{"bls12381Deserialize", 1, 1 << 19, none, d, d},
		{"bls12381Equal", 2, 1 << 5, none, d, d},
		{"bls12381Add", 2, 1 << 19, none, d, d},
		{"bls12381Mul", 3, 1 << 21, none, d, d},
		{"bls12381Pairing", 2, 1 << 23, none, d, d},
		{"keccak256", 1, 1 << 15, none, config.HFCockatrice, d},
		{"verifyWithEd25519", 3, 1 << 15, none, config.HFEchidna, config.HFGorgon},
		{"verifyWithEd25519", 3, 1 << 15, none, config.HFGorgon, d},
		{"recoverSecp256K1", 2, 1 << 15, none, config.HFEchidna, d},
	})
	// The curve parameter is "curve" before Cockatrice, "curveHash" after.
	md := c.Natives.ByID(nativenames.CryptoLibID).Metadata()
	for hf, name := range map[config.Hardfork]string{config.HFDefault: "curve", config.HFCockatrice: "curveHash", config.HFGorgon: "curveHash"} {
		m := md.HFSpecific(hf).Manifest.ABI.GetMethod("verifyWithECDsa", 4)
		require.NotNil(t, m)
		require.Equal(t, name, m.Parameters[3].Name, hf)
	}
}

func TestCryptoLibHardforks(t *testing.T) {
	for _, tc := range []struct {
		hf             config.Hardfork
		keccak, echida bool
	}{
		{config.HFDefault, false, false},
		{config.HFBasilisk, false, false},
		{config.HFCockatrice, true, false},
		{config.HFDomovoi, true, false},
		{config.HFEchidna, true, true},
		{config.HFGorgon, true, true},
	} {
		c := hfChain(t, tc.hf)
		_, fault := invoke(t, c, cryptoHash, "keccak256", []byte("Keccak"))
		require.Equal(t, tc.keccak, fault == "", "%s: %s", tc.hf, fault)
		_, fault = invoke(t, c, cryptoHash, "recoverSecp256K1", make([]byte, 32), make([]byte, 65))
		require.Equal(t, tc.echida, fault == "", "%s: %s", tc.hf, fault)
		_, fault = invoke(t, c, cryptoHash, "verifyWithEd25519", []byte{}, unhex(t, ed25519Pub), unhex(t, ed25519Sig))
		require.Equal(t, tc.echida, fault == "", "%s: %s", tc.hf, fault)
	}
}

func TestCryptoLibHashes(t *testing.T) {
	c := chaintest.New(t)
	hash := func(m string, args ...any) string {
		return hex.EncodeToString(itemBytes(t, mustInvoke(t, c, cryptoHash, m, args...)))
	}
	require.Equal(t, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hash("sha256", []byte{}))
	require.Equal(t, "9c1185a5c5e9fc54612808977ee8f548b2258d31", hash("ripemd160", []byte{}))
	sum := sha256.Sum256([]byte("abc"))
	require.Equal(t, hex.EncodeToString(sum[:]), hash("sha256", "abc"))
	// C# UT_Murmur32.TestHashToUInt32: 378574820 as 4 little-endian bytes.
	want := make([]byte, 4)
	binary.LittleEndian.PutUint32(want, 378574820)
	require.Equal(t, hex.EncodeToString(want), hash("murmur32", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1}, 10))
	for _, seed := range []any{-1, int64(1) << 32, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6}} {
		mustFault(t, c, cryptoHash, "murmur32", []byte{1}, seed)
	}
	require.Len(t, itemBytes(t, mustInvoke(t, c, cryptoHash, "murmur32", []byte{1}, uint32(0xffffffff))), 4)
	// C# UT_CryptoLib Keccak256 tests.
	for in, out := range map[string]string{
		"Hello, World!": "acaf3289d7b601cbd114fb36c4d29c85bbfd5e133f14cb355c3fd8d99367964f",
		"Keccak":        "868c016b666c7d3698636ee1bd023f3f065621514ab61bf26f062c175fdbe7f2",
		"Cryptography":  "53d49d225dd2cfe77d8c5e2112bcc9efe77bea1c7aa5e5ede5798a36e99e2d29",
		"Testing123":    "3f82db7b16b0818a1c6b2c6152e265f682d5ebcf497c9aad776ad38bc39cb6ca",
		"This is a longer string for Keccak256 testing purposes.": "24115e5c2359f85f6840b42acd2f7ea47bc239583e576d766fa173bf711bdd2f",
		"": "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
	} {
		require.Equal(t, out, hash("keccak256", []byte(in)), in)
	}
	for _, m := range []string{"sha256", "ripemd160", "keccak256"} {
		mustFault(t, c, cryptoHash, m, stackitem.NewArray(nil))
		mustFault(t, c, cryptoHash, m, nil)
	}
	// Buffers are read like byte strings.
	require.Equal(t, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hash("sha256", stackitem.NewBuffer([]byte{})))
}

// ecdsaVectors are the keys of C# UT_CryptoLib.TestVerifyWithECDsa.
var (
	privR1 = "6e63fda41e9e3aba9bb5696d58a75731f044a9bdc48fe546da571543b2fa460e"
	pubR1  = "04cae768e1cf58d50260cab808da8d6d83d5d3ab91eac41cdce577ce5862d736413643bdecd6d21c3b66f122ab080f9219204b10aa8bbceb86c1896974768648f3"
	privK1 = "0b5fb3a050385196b327be7d86cbce6e40a04c8832445af83ad19c82103b3ed9"
	pubK1  = "04b6363b353c3ee1620c5af58594458aa00abf43a6d134d7c4cb2d901dc0f474fd74c94740bd7169aa0b1ef7bc657e824b1d7f4283c547e7ec18c8576acf84418a"
)

func signR1(t testing.TB, msg []byte, keccak bool) []byte {
	k, err := keys.NewPrivateKeyFromHex(privR1)
	require.NoError(t, err)
	if keccak {
		h := cryptolib.Keccak256(msg)
		return k.SignHash(h[:])
	}
	return k.Sign(msg)
}

func signK1(t testing.TB, msg []byte, keccak bool) []byte {
	k := secp256k1.PrivKeyFromBytes(unhex(t, privK1))
	var h [32]byte
	if keccak {
		h = cryptolib.Keccak256(msg)
	} else {
		h = sha256.Sum256(msg)
	}
	return ecdsa.SignCompact(k, h[:], false)[1:]
}

func TestCryptoLibVerifyWithECDsa(t *testing.T) {
	msg := []byte("HelloWorld")
	r1 := unhex(t, pubR1)
	k1 := unhex(t, pubK1)
	chains := map[string]*chaintest.Chain{
		"V0": hfChain(t, config.HFBasilisk),
		"V1": hfChain(t, config.HFFaun),
		"V2": hfChain(t, config.HFGorgon),
	}
	type result int
	const (
		isTrue result = iota
		isFalse
		faults
	)
	check := func(ver string, want result, args ...any) {
		t.Helper()
		it, fault := invoke(t, chains[ver], cryptoHash, "verifyWithECDsa", args...)
		switch want {
		case faults:
			require.NotEmpty(t, fault, "%s: %v", ver, it)
		default:
			require.Empty(t, fault, ver)
			require.Equal(t, want == isTrue, itemBool(t, it), ver)
		}
	}
	sigR1 := signR1(t, msg, false)
	sigR1K := signR1(t, msg, true)
	sigK1 := signK1(t, msg, false)
	sigK1K := signK1(t, msg, true)
	for _, ver := range []string{"V0", "V1", "V2"} {
		// C# TestVerifyWithECDsa: SHA-256 on both curves, compressed and
		// uncompressed keys.
		check(ver, isTrue, msg, r1, sigR1, 23)
		check(ver, isTrue, msg, compressed(t, r1), sigR1, 23)
		check(ver, isTrue, msg, k1, sigK1, 22)
		check(ver, isFalse, []byte("different message"), r1, sigR1, 23)
		// Wrong curve for the key (C# ArgumentException from key loading in
		// V2, the uncompressed point is off the curve).
		check(ver, faults, msg, r1, sigR1, 22)
		// Unknown curve/hash ids, a curve that is not a byte.
		check(ver, faults, msg, r1, sigR1, 99)
		check(ver, faults, msg, r1, sigR1, 256+23)
		check(ver, faults, msg, r1, sigR1, -1)
		// Keys: empty, bad prefix, compressed x with no point.
		check(ver, faults, msg, []byte{}, sigR1, 23)
		check(ver, faults, msg, []byte{1}, sigR1, 23)
		check(ver, faults, msg, append([]byte{3}, bytesRepeat(3, 32)...), sigR1, 22)
	}
	// Keccak appears at Cockatrice (V0 refuses 122/123).
	check("V0", faults, msg, r1, sigR1K, 123)
	check("V0", faults, msg, k1, sigK1K, 122)
	for _, ver := range []string{"V1", "V2"} {
		check(ver, isTrue, msg, r1, sigR1K, 123)
		check(ver, isTrue, msg, k1, sigK1K, 122)
		check(ver, isFalse, msg, k1, sigK1, 122)
	}
	// A signature that is not 64 bytes: false before Gorgon, a fault after.
	check("V0", isFalse, msg, r1, sigR1[:63], 23)
	check("V1", isFalse, msg, r1, sigR1[:63], 23)
	check("V2", faults, msg, r1, sigR1[:63], 23)
	check("V1", isFalse, msg, r1, []byte{}, 23)
	check("V2", faults, msg, r1, []byte{}, 23)
	// Null arguments fault.
	for _, ver := range []string{"V0", "V1", "V2"} {
		check(ver, faults, nil, r1, sigR1, 23)
		check(ver, faults, msg, r1, nil, 23)
	}
	// C# TestVerifyWithECDsaInvalidParameters: an empty message signs fine.
	check("V2", isTrue, []byte{}, r1[:], signR1(t, []byte{}, false), 23)
}

func compressed(t testing.TB, uncompressed []byte) []byte {
	k, err := keys.NewPublicKeyFromBytes(uncompressed)
	require.NoError(t, err)
	return k.Bytes()
}

func bytesRepeat(b byte, n int) []byte {
	res := make([]byte, n)
	for i := range res {
		res[i] = b
	}
	return res
}

// RFC 8032 test 1 (C# UT_CryptoLib.TestVerifyWithEd25519, neo-go
// TestCryptoLib_VerifyWithED25519_Compat).
const (
	ed25519Pub = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
	ed25519Sig = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)

func TestCryptoLibVerifyWithEd25519(t *testing.T) {
	// C# UT_CryptoLib.TestVerifyWithEd25519 (RFC 8032 test 1), neo-go
	// TestCryptoLib_VerifyWithED25519_Compat/_Gorgon.
	pub, sig := unhex(t, ed25519Pub), unhex(t, ed25519Sig)
	v0 := hfChain(t, config.HFFaun)
	v1 := hfChain(t, config.HFGorgon)
	for _, c := range []*chaintest.Chain{v0, v1} {
		require.True(t, itemBool(t, mustInvoke(t, c, cryptoHash, "verifyWithEd25519", []byte{}, pub, sig)))
		require.False(t, itemBool(t, mustInvoke(t, c, cryptoHash, "verifyWithEd25519", []byte{1}, pub, sig)))
	}
	// A key that does not decode (C# TestVerifyWithEd25519: one bit
	// flipped): false before Gorgon, a fault after.
	bad := append([]byte{}, pub...)
	bad[0] ^= 1
	require.False(t, itemBool(t, mustInvoke(t, v0, cryptoHash, "verifyWithEd25519", []byte{}, bad, sig)))
	mustFault(t, v1, cryptoHash, "verifyWithEd25519", []byte{}, bad, sig)
	for _, args := range [][]any{
		{[]byte{}, pub, []byte{1, 2, 3}}, {[]byte{}, pub, sig[:63]}, {[]byte{}, pub[:31], sig}, {[]byte{}, []byte{}, sig},
	} {
		require.False(t, itemBool(t, mustInvoke(t, v0, cryptoHash, "verifyWithEd25519", args...)))
		mustFault(t, v1, cryptoHash, "verifyWithEd25519", args...)
	}
	mustFault(t, v0, cryptoHash, "verifyWithEd25519", nil, pub, sig)
}

func TestCryptoLibRecoverSecp256K1(t *testing.T) {
	c := hfChain(t, config.HFEchidna)
	recover := func(h, sig []byte) stackitem.Item { return mustInvoke(t, c, cryptoHash, "recoverSecp256K1", h, sig) }
	// neo-go TestCryptoLib_RecoverSecp256K1_Compat (C# UT_Crypto).
	for _, tc := range []struct{ h, sig, want string }{
		{"586052916fb6f746e1d417766cceffbe1baf95579bab67ad49addaaa6e798862",
			"4e0ea79d4a476276e4b067facdec7460d2c98c8a65326a6e5c998fd7c65061140e45aea5034af973410e65cf97651b3f2b976e3fc79c6a93065ed7cb69a2ab5a01",
			"02dbf1f4092deb3cfd4246b2011f7b24840bc5dbedae02f28471ce5b3bfbf06e71"},
		{"c36d0ecf4bfd178835c97aae7585f6a87de7dfa23cc927944f99a8d60feff68b",
			"f25b86e1d8a11d72475b3ed273b0781c7d7f6f9e1dae0dd5d3ee9b84f3fab89163d9c4e1391de077244583e9a6e3d8e8e1f236a3bf5963735353b93b1a3ba93500",
			"03414549fd05bfb7803ae507ff86b99becd36f8d66037a7f5ba612792841d42eb9"},
	} {
		require.Equal(t, tc.want, hex.EncodeToString(itemBytes(t, recover(unhex(t, tc.h), unhex(t, tc.sig)))))
	}
	// EIP-2098 test cases (65-byte and compact 64-byte forms).
	priv := secp256k1.PrivKeyFromBytes(unhex(t, "1234567890123456789012345678901234567890123456789012345678901234"))
	pub := hex.EncodeToString(priv.PubKey().SerializeCompressed())
	for _, tc := range []struct {
		msg, r, s, yParityAndS string
		v                      byte
	}{
		{"Hello World", "68a020a209d3d56c46f38cc50a33f704f4a9a10a59377f8dd762ac66910e9b90",
			"7e865ad05c4035ab5792787d4a0297a43617ae897930a6fe4d822b8faea52064",
			"7e865ad05c4035ab5792787d4a0297a43617ae897930a6fe4d822b8faea52064", 27},
		{"It's a small(er) world", "9328da16089fcba9bececa81663203989f2df5fe1faa6291a45381c81bd17f76",
			"139c6d6b623b42da56557e5e734a43dc83345ddfadec52cbe24d0cc64f550793",
			"939c6d6b623b42da56557e5e734a43dc83345ddfadec52cbe24d0cc64f550793", 28},
	} {
		h := cryptolib.Keccak256(fmt.Appendf([]byte{0x19}, "Ethereum Signed Message:\n%d%s", len(tc.msg), tc.msg))
		full := append(append(unhex(t, tc.r), unhex(t, tc.s)...), tc.v)
		compact := append(unhex(t, tc.r), unhex(t, tc.yParityAndS)...)
		require.Equal(t, pub, hex.EncodeToString(itemBytes(t, recover(h[:], full))), tc.msg)
		require.Equal(t, pub, hex.EncodeToString(itemBytes(t, recover(h[:], compact))), tc.msg)
		// v = 0/1 is accepted as 27/28; "compressed" codes 31.. are not
		// (C#; neo-go accepted them before 0.122.0).
		full[64] = tc.v - 27
		require.Equal(t, pub, hex.EncodeToString(itemBytes(t, recover(h[:], full))), tc.msg)
		full[64] = tc.v + 4
		require.Equal(t, stackitem.Null{}, recover(h[:], full))
	}
	// Wrong lengths give Null, never a fault.
	require.Equal(t, stackitem.Null{}, recover(make([]byte, 31), make([]byte, 65)))
	require.Equal(t, stackitem.Null{}, recover(make([]byte, 32), make([]byte, 63)))
	require.Equal(t, stackitem.Null{}, recover(make([]byte, 32), make([]byte, 66)))
	mustFault(t, c, cryptoHash, "recoverSecp256K1", nil, make([]byte, 65))
}

// blsVectors are the BLS12-381 vectors of C# UT_CryptoLib and neo-go
// (pkg/crypto/bls12381/testdata, see its README).
type blsVectors struct {
	G1          string   `json:"g1"`
	G2          string   `json:"g2"`
	GT          string   `json:"gt"`
	NotG1       string   `json:"not_g1"`
	NotG2       string   `json:"not_g2"`
	AddGTGT     string   `json:"add_gt_gt"`
	MulGT3      []string `json:"mul_gt_3"`
	PairingG1G2 string   `json:"pairing_g1_g2"`
	MulCompat   []struct {
		Name     string `json:"name"`
		Point    string `json:"point"`
		Mul      string `json:"mul"`
		Neg      bool   `json:"neg"`
		Expected string `json:"expected"`
	} `json:"mul_compat"`
	G2Other string `json:"g2_other"`
}

func loadBLSVectors(t testing.TB) *blsVectors {
	raw, err := os.ReadFile(filepath.Join("..", "..", "crypto", "bls12381", "testdata", "vectors.json"))
	require.NoError(t, err)
	v := new(blsVectors)
	require.NoError(t, json.Unmarshal(raw, v))
	require.Len(t, v.MulCompat, 11)
	return v
}

// blsScript builds a script from steps that push one item each (in
// argument order) and calls method with them.
type blsArg func(w *nio.BinWriter)

func blsDeser(b []byte) blsArg {
	return func(w *nio.BinWriter) { emit.AppCall(w, cryptoHash, "bls12381Deserialize", callflag.All, b) }
}

func blsPush(v any) blsArg { return func(w *nio.BinWriter) { emit.Any(w, v) } }

func blsCall(method string, args ...blsArg) blsArg {
	return func(w *nio.BinWriter) {
		for i := len(args) - 1; i >= 0; i-- {
			args[i](w)
		}
		emit.Int(w, int64(len(args)))
		emit.Opcodes(w, opcode.PACK)
		emit.Int(w, int64(callflag.All))
		emit.String(w, method)
		emit.Bytes(w, cryptoHash[:])
		emit.Syscall(w, interop.SystemContractCall)
	}
}

func blsScript(t testing.TB, step blsArg, tail ...opcode.Opcode) []byte {
	script, err := emit.Script(func(w *nio.BinWriter) {
		step(w)
		emit.Opcodes(w, tail...)
	})
	require.NoError(t, err)
	return script
}

func runBLS(t *testing.T, c *chaintest.Chain, step blsArg, tail ...opcode.Opcode) (stackitem.Item, string) {
	t.Helper()
	aer, _ := c.TestInvoke(blsScript(t, step, tail...), 100_0000_0000)
	if aer.VMState != vmstate.Halt {
		return nil, aer.FaultException
	}
	require.Len(t, aer.Stack, 1)
	return aer.Stack[0], ""
}

// serialized runs step and serializes its result.
func serialized(t *testing.T, c *chaintest.Chain, step blsArg) string {
	t.Helper()
	it, fault := runBLS(t, c, blsCall("bls12381Serialize", step))
	require.Empty(t, fault)
	return hex.EncodeToString(itemBytes(t, it))
}

func TestCryptoLibBLS12381(t *testing.T) {
	v := loadBLSVectors(t)
	c := chaintest.New(t)
	g1, g2, gt := unhex(t, v.G1), unhex(t, v.G2), unhex(t, v.GT)

	// C# TestG1/TestG2, round trips.
	require.Equal(t, v.G1, serialized(t, c, blsDeser(g1)))
	require.Equal(t, v.G2, serialized(t, c, blsDeser(g2)))
	require.Equal(t, v.GT, serialized(t, c, blsDeser(gt)))
	it := mustInvoke(t, c, cryptoHash, "bls12381Deserialize", g1)
	require.Equal(t, stackitem.InteropT, it.Type())
	require.IsType(t, native.BLSPoint{}, it.Value())
	// C# TestNotG1/TestNotG2; other lengths fault (C#, neo-go 0.122.0).
	for _, b := range [][]byte{unhex(t, v.NotG1), unhex(t, v.NotG2), {}, g1[:47], append(g1, 0), make([]byte, 577)} {
		mustFault(t, c, cryptoHash, "bls12381Deserialize", b)
	}
	// C# TestBls12381Add, TestBls12381Mul, TestBls12381Pairing.
	require.Equal(t, v.AddGTGT, serialized(t, c, blsCall("bls12381Add", blsDeser(gt), blsDeser(gt))))
	three := make([]byte, 32)
	three[0] = 3
	require.Equal(t, v.MulGT3[0], serialized(t, c, blsCall("bls12381Mul", blsDeser(gt), blsPush(three), blsPush(false))))
	require.Equal(t, v.MulGT3[1], serialized(t, c, blsCall("bls12381Mul", blsDeser(gt), blsPush(three), blsPush(true))))
	require.Equal(t, v.PairingG1G2, serialized(t, c, blsCall("bls12381Pairing", blsDeser(g1), blsDeser(g2))))
	// neo-go TestCryptolib_TestBls12381Mul_CompatCustom (C# TestBls12381ScalarMul_Compat).
	for _, tc := range v.MulCompat {
		got := serialized(t, c, blsCall("bls12381Mul", blsDeser(unhex(t, tc.Point)), blsPush(unhex(t, tc.Mul)), blsPush(tc.Neg)))
		require.Equal(t, tc.Expected, got, tc.Name)
	}

	// bls12381Equal (C# Bls12381Equal) and the VM's EQUAL (neo-go
	// TestCryptolib_Bls12381PointsEQUAL*): values compare by value.
	eq := func(a, b blsArg) bool {
		it, fault := runBLS(t, c, blsCall("bls12381Equal", a, b))
		require.Empty(t, fault)
		return itemBool(t, it)
	}
	opEq := func(a, b blsArg) bool {
		it, fault := runBLS(t, c, func(w *nio.BinWriter) { a(w); b(w) }, opcode.EQUAL)
		require.Empty(t, fault)
		return itemBool(t, it)
	}
	g2o := unhex(t, v.G2Other)
	for _, f := range []func(a, b blsArg) bool{eq, opEq} {
		require.True(t, f(blsDeser(gt), blsDeser(gt)))
		require.True(t, f(blsDeser(g1), blsDeser(g1)))
		require.True(t, f(blsDeser(g2o), blsDeser(g2o)))
		require.False(t, f(blsDeser(g2o), blsDeser(g2)))
		require.False(t, f(blsDeser(unhex(t, v.AddGTGT)), blsDeser(gt)))
	}
	dup, fault := runBLS(t, c, blsDeser(g1), opcode.DUP, opcode.EQUAL)
	require.Empty(t, fault)
	require.True(t, itemBool(t, dup))
	// EQUAL of different kinds is false, bls12381Equal of different kinds
	// faults (C# type mismatch), also affine against projective.
	require.False(t, opEq(blsDeser(g1), blsDeser(g2)))
	one := make([]byte, 32)
	one[0] = 1
	g1Proj := blsCall("bls12381Mul", blsDeser(g1), blsPush(one), blsPush(false))
	require.Equal(t, v.G1, serialized(t, c, g1Proj))
	for i, pair := range [][2]blsArg{{blsDeser(g1), blsDeser(g2)}, {blsDeser(gt), blsDeser(g1)}, {blsDeser(g1), g1Proj}} {
		_, fault := runBLS(t, c, blsCall("bls12381Equal", pair[0], pair[1]))
		require.NotEmpty(t, fault)
		if i < 2 {
			_, fault = runBLS(t, c, blsCall("bls12381Add", pair[0], pair[1]))
			require.NotEmpty(t, fault)
		}
	}
	// Mixed affine/projective addition is fine.
	require.Equal(t, serialized(t, c, blsCall("bls12381Mul", blsDeser(g1), blsPush(append([]byte{2}, make([]byte, 31)...)), blsPush(false))),
		serialized(t, c, blsCall("bls12381Add", blsDeser(g1), g1Proj)))
	// Pairing takes G1 then G2.
	_, fault = runBLS(t, c, blsCall("bls12381Pairing", blsDeser(g2), blsDeser(g1)))
	require.NotEmpty(t, fault)
	// Bad scalars: not 32 bytes, not below r; bad neg.
	for _, mul := range [][]byte{make([]byte, 31), make([]byte, 33), bytesRepeat(0xff, 32)} {
		_, fault := runBLS(t, c, blsCall("bls12381Mul", blsDeser(g1), blsPush(mul), blsPush(false)))
		require.NotEmpty(t, fault)
	}
	_, fault = runBLS(t, c, blsCall("bls12381Mul", blsDeser(g1), blsPush(one), blsPush(make([]byte, 33))))
	require.NotEmpty(t, fault)
	// Arguments that are not interop items.
	for _, m := range []string{"bls12381Serialize", "bls12381Equal", "bls12381Add", "bls12381Pairing"} {
		args := []blsArg{blsPush(g1)}
		if m != "bls12381Serialize" {
			args = append(args, blsDeser(g2))
		}
		_, fault := runBLS(t, c, blsCall(m, args...))
		require.NotEmpty(t, fault, m)
	}
	_, fault = runBLS(t, c, blsCall("bls12381Mul", blsPush(g1), blsPush(one), blsPush(false)))
	require.NotEmpty(t, fault)
	_, fault = runBLS(t, c, blsCall("bls12381Serialize", blsPush(nil)))
	require.NotEmpty(t, fault)
}
