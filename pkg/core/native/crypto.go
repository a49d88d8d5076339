package native

import (
	"errors"
	"fmt"
	"math"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/crypto/bls12381"
	"github.com/n3node/n3node/pkg/crypto/cryptolib"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrNotBLSPoint is returned for an interop argument that is not a
// BLS12-381 value (C# "BLS12-381 type mismatch").
var ErrNotBLSPoint = errors.New("not a bls12381 point")

// errNotBLSPoints is neo-go's text of ErrNotBLSPoint for the operations of
// two points.
var errNotBLSPoints = interop.Worded(ErrNotBLSPoint, errors.New("some of the arguments are not a bls12381 point"))

// CryptoLib is the CryptoLib native contract (C# CryptoLib): hashes,
// signature checks and BLS12-381 operations. It has no storage and every
// method is safe. The primitives (pkg/crypto/cryptolib, pkg/crypto/bls12381)
// reproduce the C# methods of each hardfork; this file converts the
// arguments and picks the variant (see docs/cryptolib.md).
type CryptoLib struct {
	contractBase
}

// BLSPoint is the value of the InteropInterface items the bls12381 methods
// take and return. Its Equals makes the VM's EQUAL compare two of them by
// value, as C# compares the wrapped objects.
type BLSPoint struct {
	*bls12381.Point
}

// Equals implements the stackitem.Interop comparison hook.
func (p BLSPoint) Equals(o any) bool {
	q, ok := o.(BLSPoint)
	return ok && p.Point != nil && q.Point != nil && p.Point.Equals(q.Point)
}

func newCryptoLib(*Contracts) Contract {
	c := &CryptoLib{contractBase: newBase(nativenames.CryptoLib, config.HFDefault, nil)}
	p := NewParam
	const (
		bytesT = smartcontract.ByteArrayType
		intT   = smartcontract.IntegerType
		boolT  = smartcontract.BoolType
		ifaceT = smartcontract.InteropInterfaceType
	)
	add := func(name string, ret smartcontract.ParamType, f MethodFunc, fee int64, from, till config.Hardfork, params ...manifest.Parameter) {
		c.md.AddMethod(Method{Name: name, Params: params, ReturnType: ret, Func: f, CPUFee: fee,
			RequiredFlags: callflag.None, ActiveFrom: from, ActiveTill: till})
	}
	d := config.HFDefault
	add("sha256", bytesT, c.sha256, 1<<15, d, d, p("data", bytesT))
	add("ripemd160", bytesT, c.ripemd160, 1<<15, d, d, p("data", bytesT))
	add("murmur32", bytesT, c.murmur32, 1<<13, d, d, p("data", bytesT), p("seed", intT))
	ecdsa := func(f MethodFunc, curve string, from, till config.Hardfork) {
		add("verifyWithECDsa", boolT, f, 1<<15, from, till,
			p("message", bytesT), p("pubkey", bytesT), p("signature", bytesT), p(curve, intT))
	}
	ecdsa(c.verifyWithECDsaV0, "curve", d, config.HFCockatrice)
	ecdsa(c.verifyWithECDsaV1, "curveHash", config.HFCockatrice, config.HFGorgon)
	ecdsa(c.verifyWithECDsaV2, "curveHash", config.HFGorgon, d)
	add("bls12381Serialize", bytesT, c.bls12381Serialize, 1<<19, d, d, p("g", ifaceT))
	add("bls12381Deserialize", ifaceT, c.bls12381Deserialize, 1<<19, d, d, p("data", bytesT))
	add("bls12381Equal", boolT, c.bls12381Equal, 1<<5, d, d, p("x", ifaceT), p("y", ifaceT))
	add("bls12381Add", ifaceT, c.bls12381Add, 1<<19, d, d, p("x", ifaceT), p("y", ifaceT))
	add("bls12381Mul", ifaceT, c.bls12381Mul, 1<<21, d, d, p("x", ifaceT), p("mul", bytesT), p("neg", boolT))
	add("bls12381Pairing", ifaceT, c.bls12381Pairing, 1<<23, d, d, p("g1", ifaceT), p("g2", ifaceT))
	add("keccak256", bytesT, c.keccak256, 1<<15, config.HFCockatrice, d, p("data", bytesT))
	ed := func(f MethodFunc, from, till config.Hardfork) {
		add("verifyWithEd25519", boolT, f, 1<<15, from, till, p("message", bytesT), p("pubkey", bytesT), p("signature", bytesT))
	}
	ed(c.verifyWithEd25519V0, config.HFEchidna, config.HFGorgon)
	ed(c.verifyWithEd25519V1, config.HFGorgon, d)
	add("recoverSecp256K1", bytesT, c.recoverSecp256K1, 1<<15, config.HFEchidna, d, p("messageHash", bytesT), p("signature", bytesT))
	return c
}

func (c *CryptoLib) sha256(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	h := cryptolib.Sha256(b)
	return stackitem.NewByteString(h[:]), nil
}

func (c *CryptoLib) ripemd160(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	h := cryptolib.Ripemd160(b)
	return stackitem.NewByteString(h[:]), nil
}

func (c *CryptoLib) keccak256(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	h := cryptolib.Keccak256(b)
	return stackitem.NewByteString(h[:]), nil
}

func (c *CryptoLib) murmur32(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	seed, err := ToUint32(args[1])
	if err != nil {
		return nil, err
	}
	h := cryptolib.Murmur32(b, seed)
	return stackitem.NewByteString(h[:]), nil
}

// stackitemArg converts a byte argument of CryptoLib's verify and recover
// methods, naming it in the error as neo-go does ("invalid signature
// stackitem: invalid conversion: Null/ByteString").
func stackitemArg(it stackitem.Item, name string) ([]byte, error) {
	b, err := ToBytes(it)
	if err != nil {
		return nil, interop.Worded(err, fmt.Errorf("invalid %s stackitem: %w", name, err))
	}
	return b, nil
}

// errUnknownCurve is neo-go's error for a curveHash it does not know.
var errUnknownCurve = fmt.Errorf("%w: unknown curve/hash", errors.ErrUnsupported)

// ecdsaArgs converts message, pubkey, signature and the curve byte.
func ecdsaArgs(args []stackitem.Item) (msg, pub, sig []byte, curve cryptolib.NamedCurveHash, err error) {
	if msg, err = stackitemArg(args[0], "message"); err != nil {
		return
	}
	if pub, err = stackitemArg(args[1], "pubkey"); err != nil {
		return
	}
	if sig, err = stackitemArg(args[2], "signature"); err != nil {
		return
	}
	n, err := ToBigInt(args[3])
	switch {
	case err != nil:
	case !n.IsInt64():
		err = errors.New("not an int64")
	case n.Int64() < 0 || n.Int64() > math.MaxUint8:
		err = interop.Worded(ErrArgument, errUnknownCurve)
	}
	if err != nil {
		return nil, nil, nil, 0, interop.Worded(err, fmt.Errorf("invalid curveHash stackitem: %w", err))
	}
	return msg, pub, sig, cryptolib.NamedCurveHash(n.Int64()), nil
}

// ecdsaError words an error of cryptolib's verifyWithECDsa as neo-go does:
// the curve, then the key, then the signature length.
func ecdsaError(err error, pub, sig []byte, curve cryptolib.NamedCurveHash) error {
	switch {
	case errors.Is(err, cryptolib.ErrUnsupportedCurve):
		why := errUnknownCurve
		if curve == cryptolib.Secp256k1Keccak256 || curve == cryptolib.Secp256r1Keccak256 {
			why = fmt.Errorf("%w: keccak hash", errors.ErrUnsupported) // before Cockatrice
		}
		return interop.Worded(err, fmt.Errorf("invalid curveHash stackitem: %w", why))
	case errors.Is(err, cryptolib.ErrSignatureLength):
		return interop.Worded(err, fmt.Errorf("invalid signature length: expected %d, got %d", keys.SignatureLen, len(sig)))
	case errors.Is(err, cryptolib.ErrKeyFormat):
		// The prefix and length errors do not depend on the curve:
		// keys words them as neo-go does.
		if _, kerr := keys.NewPublicKeyFromBytes(pub); kerr != nil {
			return interop.Worded(err, fmt.Errorf("failed to decode pubkey: %w", kerr))
		}
	case errors.Is(err, cryptolib.ErrKeyNoSquareRoot), errors.Is(err, cryptolib.ErrKeyCoordinate),
		errors.Is(err, cryptolib.ErrKeyOffCurve):
	default:
		return err
	}
	return interop.Worded(err, fmt.Errorf("failed to decode pubkey: %w", err))
}

func verifyWithECDsa(args []stackitem.Item, f func(msg, pub, sig []byte, c cryptolib.NamedCurveHash) (bool, error)) (stackitem.Item, error) {
	msg, pub, sig, curve, err := ecdsaArgs(args)
	if err != nil {
		return nil, err
	}
	ok, err := f(msg, pub, sig, curve)
	if err != nil {
		return nil, ecdsaError(err, pub, sig, curve)
	}
	return stackitem.Bool(ok), nil
}

func (c *CryptoLib) verifyWithECDsaV0(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return verifyWithECDsa(args, cryptolib.VerifyWithECDsaV0)
}

func (c *CryptoLib) verifyWithECDsaV1(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return verifyWithECDsa(args, cryptolib.VerifyWithECDsaV1)
}

func (c *CryptoLib) verifyWithECDsaV2(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	return verifyWithECDsa(args, cryptolib.VerifyWithECDsaV2)
}

func ed25519Args(args []stackitem.Item) (msg, pub, sig []byte, err error) {
	if msg, err = stackitemArg(args[0], "message"); err != nil {
		return
	}
	if pub, err = stackitemArg(args[1], "pubkey"); err != nil {
		return
	}
	sig, err = stackitemArg(args[2], "signature")
	return
}

func (c *CryptoLib) verifyWithEd25519V0(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	msg, pub, sig, err := ed25519Args(args)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(cryptolib.VerifyWithEd25519V0(msg, pub, sig)), nil
}

func (c *CryptoLib) verifyWithEd25519V1(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	msg, pub, sig, err := ed25519Args(args)
	if err != nil {
		return nil, err
	}
	ok, err := cryptolib.VerifyWithEd25519V1(msg, pub, sig)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(ok), nil
}

func (c *CryptoLib) recoverSecp256K1(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := stackitemArg(args[0], "message hash")
	if err != nil {
		return nil, err
	}
	sig, err := stackitemArg(args[1], "signature")
	if err != nil {
		return nil, err
	}
	pub := cryptolib.RecoverSecp256K1(h, sig)
	if pub == nil {
		return stackitem.Null{}, nil
	}
	return stackitem.NewByteString(pub), nil
}

// toBLSInterop converts an InteropInterface argument (C# casts the item;
// Null and other item types fail).
func toBLSInterop(it stackitem.Item) (any, error) {
	i, ok := it.(*stackitem.Interop)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not an InteropInterface", ErrArgument, it.Type())
	}
	return i.Value(), nil
}

// toBLSPoint converts an argument that must hold a BLS12-381 value.
func toBLSPoint(it stackitem.Item) (*bls12381.Point, error) {
	v, err := toBLSInterop(it)
	if err != nil {
		return nil, err
	}
	p, ok := v.(BLSPoint)
	if !ok || p.Point == nil {
		return nil, ErrNotBLSPoint
	}
	return p.Point, nil
}

func blsItem(p *bls12381.Point) stackitem.Item { return stackitem.NewInterop(BLSPoint{p}) }

func (c *CryptoLib) bls12381Serialize(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	p, err := toBLSPoint(args[0])
	if err != nil {
		return nil, err
	}
	b, err := bls12381.Serialize(p)
	if err != nil {
		return nil, err
	}
	return stackitem.NewByteString(b), nil
}

func (c *CryptoLib) bls12381Deserialize(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := ToBytes(args[0])
	if err != nil {
		return nil, err
	}
	p, err := bls12381.Deserialize(b)
	if err != nil {
		return nil, err
	}
	return blsItem(p), nil
}

// blsPair converts the two interop arguments of a binary operation (both
// casts happen before the type check, as in C#).
func blsPair(args []stackitem.Item) (*bls12381.Point, *bls12381.Point, error) {
	va, err := toBLSInterop(args[0])
	if err != nil {
		return nil, nil, err
	}
	vb, err := toBLSInterop(args[1])
	if err != nil {
		return nil, nil, err
	}
	a, okA := va.(BLSPoint)
	b, okB := vb.(BLSPoint)
	if !okA || !okB || a.Point == nil || b.Point == nil {
		return nil, nil, errNotBLSPoints
	}
	return a.Point, b.Point, nil
}

func (c *CryptoLib) bls12381Equal(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	a, b, err := blsPair(args)
	if err != nil {
		return nil, err
	}
	eq, err := bls12381.Equal(a, b)
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(eq), nil
}

func (c *CryptoLib) bls12381Add(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	a, b, err := blsPair(args)
	if err != nil {
		return nil, err
	}
	r, err := bls12381.Add(a, b)
	if err != nil {
		return nil, err
	}
	return blsItem(r), nil
}

func (c *CryptoLib) bls12381Mul(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := toBLSInterop(args[0])
	if err != nil {
		return nil, err
	}
	mul, err := ToBytes(args[1])
	if err != nil {
		return nil, interop.Worded(err, fmt.Errorf("invalid multiplier: %w", err))
	}
	neg, err := interop.ItemBool(args[2])
	if err != nil {
		return nil, interop.Worded(err, fmt.Errorf("invalid negative argument: %w", err))
	}
	// C# makes the scalar before it looks at the point.
	if _, err := bls12381.Scalar(mul, neg); err != nil {
		if len(mul) != bls12381.ScalarSize {
			err = interop.Worded(err, fmt.Errorf("invalid multiplier: %d-bytes scalar is expected, got %d", bls12381.ScalarSize, len(mul)))
		}
		return nil, err
	}
	p, ok := v.(BLSPoint)
	if !ok || p.Point == nil {
		return nil, interop.Worded(ErrNotBLSPoint, errors.New("multiplier is not a bls12381 point"))
	}
	r, err := bls12381.Mul(p.Point, mul, neg)
	if err != nil {
		return nil, err
	}
	return blsItem(r), nil
}

func (c *CryptoLib) bls12381Pairing(_ *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	a, b, err := blsPair(args)
	if err != nil {
		return nil, err
	}
	r, err := bls12381.Pairing(a, b)
	if err != nil {
		return nil, err
	}
	return blsItem(r), nil
}
