package vm

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Integer arithmetic with an int64 fast path. Every function gives exactly
// the System.Numerics.BigInteger result; results beyond MaxIntegerSize fail
// when pushed (C# Integer constructor).

var (
	errDivideByZero = fmt.Errorf("%w: Attempted to divide by zero", ErrInvalidOperation)
	errOverflow     = fmt.Errorf("%w: Value was either too large or too small for an Int32", ErrInvalidOperation)
)

// bigOf returns the value of x as a big.Int, using operand slot slot of al
// for small values.
func bigOf(x *stackitem.Integer, al *stackitem.Allocator, slot int) *big.Int {
	if b := x.Big(); b != nil {
		return b
	}
	v, _ := x.Int64()
	return al.Operand(slot, v)
}

// finish wraps a value computed into al.Scratch(), failing if it exceeds
// 32 bytes.
func finish(al *stackitem.Allocator, z *big.Int) (stackitem.Item, error) {
	i, err := al.Finish(z)
	if err != nil {
		return nil, err
	}
	return i, nil
}

// newInt wraps a computed big.Int, failing if it exceeds 32 bytes.
func newInt(z *big.Int) (stackitem.Item, error) {
	i, err := stackitem.TryNewBigInteger(z)
	if err != nil {
		return nil, err
	}
	return i, nil
}

// toInt32 is the explicit BigInteger to int conversion of C# (OverflowException
// outside the int32 range).
func toInt32(x *stackitem.Integer) (int, error) {
	v, ok := x.Int64()
	if !ok || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, errOverflow
	}
	return int(v), nil
}

func intAdd(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok {
		s := x + y
		if (s > x) == (y > 0) {
			return al.Int(s), nil
		}
	}
	z := al.Scratch()
	return finish(al, z.Add(bigOf(a, al, 0), bigOf(b, al, 1)))
}

func intSub(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok {
		s := x - y
		if (s < x) == (y > 0) {
			return al.Int(s), nil
		}
	}
	z := al.Scratch()
	return finish(al, z.Sub(bigOf(a, al, 0), bigOf(b, al, 1)))
}

func intMul(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok {
		if p, ok := mul64(x, y); ok {
			return al.Int(p), nil
		}
	}
	z := al.Scratch()
	return finish(al, z.Mul(bigOf(a, al, 0), bigOf(b, al, 1)))
}

// mul64 multiplies with overflow detection.
func mul64(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	neg := (x < 0) != (y < 0)
	ux, uy := absU64(x), absU64(y)
	hi, lo := bits.Mul64(ux, uy)
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return -int64(lo), true
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

func absU64(x int64) uint64 {
	if x < 0 {
		return uint64(-x) // MinInt64 wraps to 1<<63, which is right
	}
	return uint64(x)
}

func intDiv(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if b.Sign() == 0 {
		return nil, errDivideByZero
	}
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok && !(x == math.MinInt64 && y == -1) {
		return al.Int(x / y), nil
	}
	z := al.Scratch()
	return finish(al, z.Quo(bigOf(a, al, 0), bigOf(b, al, 1)))
}

func intMod(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if b.Sign() == 0 {
		return nil, errDivideByZero
	}
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok {
		if y == -1 {
			return al.Int(0), nil
		}
		return al.Int(x % y), nil
	}
	z := al.Scratch()
	return finish(al, z.Rem(bigOf(a, al, 0), bigOf(b, al, 1)))
}

func intNeg(a *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if x, ok := a.Int64(); ok && x != math.MinInt64 {
		return al.Int(-x), nil
	}
	z := al.Scratch()
	return finish(al, z.Neg(bigOf(a, al, 0)))
}

func intAbs(a *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if a.Sign() >= 0 {
		return a, nil
	}
	return intNeg(a, al)
}

func intInc(a *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if x, ok := a.Int64(); ok && x != math.MaxInt64 {
		return al.Int(x + 1), nil
	}
	z := al.Scratch()
	return finish(al, z.Add(bigOf(a, al, 0), big.NewInt(1)))
}

func intDec(a *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if x, ok := a.Int64(); ok && x != math.MinInt64 {
		return al.Int(x - 1), nil
	}
	z := al.Scratch()
	return finish(al, z.Sub(bigOf(a, al, 0), big.NewInt(1)))
}

func intAnd(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok {
		return al.Int(x & y), nil
	}
	z := al.Scratch()
	return finish(al, z.And(bigOf(a, al, 0), bigOf(b, al, 1)))
}

func intOr(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok {
		return al.Int(x | y), nil
	}
	z := al.Scratch()
	return finish(al, z.Or(bigOf(a, al, 0), bigOf(b, al, 1)))
}

func intXor(a, b *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	x, xok := a.Int64()
	y, yok := b.Int64()
	if xok && yok {
		return al.Int(x ^ y), nil
	}
	z := al.Scratch()
	return finish(al, z.Xor(bigOf(a, al, 0), bigOf(b, al, 1)))
}

func intNot(a *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if x, ok := a.Int64(); ok {
		return al.Int(^x), nil
	}
	z := al.Scratch()
	return finish(al, z.Not(bigOf(a, al, 0)))
}

func intShl(a *stackitem.Integer, n int, al *stackitem.Allocator) (stackitem.Item, error) {
	if x, ok := a.Int64(); ok && n < 63 {
		if x == 0 {
			return a, nil
		}
		r := x << uint(n)
		if r>>uint(n) == x {
			return al.Int(r), nil
		}
	}
	z := al.Scratch()
	return finish(al, z.Lsh(bigOf(a, al, 0), uint(n)))
}

func intShr(a *stackitem.Integer, n int, al *stackitem.Allocator) (stackitem.Item, error) {
	if x, ok := a.Int64(); ok {
		if n > 63 {
			n = 63
		}
		return al.Int(x >> uint(n)), nil
	}
	z := al.Scratch()
	return finish(al, z.Rsh(bigOf(a, al, 0), uint(n)))
}

func intPow(a *stackitem.Integer, e int, al *stackitem.Allocator) (stackitem.Item, error) {
	if x, ok := a.Int64(); ok {
		r, ok := int64(1), true
		base := x
		for k := e; k > 0 && ok; k >>= 1 {
			if k&1 == 1 {
				r, ok = mul64(r, base)
			}
			if k > 1 && ok {
				base, ok = mul64(base, base)
			}
		}
		if ok {
			return al.Int(r), nil
		}
	}
	z := al.Scratch()
	return finish(al, z.Exp(bigOf(a, al, 0), big.NewInt(int64(e)), nil))
}

func intSqrt(a *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if a.Sign() < 0 {
		return nil, fmt.Errorf("%w: value can not be negative", ErrInvalidOperation)
	}
	if x, ok := a.Int64(); ok {
		r := int64(math.Sqrt(float64(x)))
		// Correct the floating-point estimate to the exact floor.
		for r > 0 && r > x/r {
			r--
		}
		for (r + 1) <= x/(r+1) {
			r++
		}
		return al.Int(r), nil
	}
	z := al.Scratch()
	return finish(al, z.Sqrt(bigOf(a, al, 0)))
}

// intModMul is x1 * x2 % modulus with the sign of the dividend.
func intModMul(x1, x2, m *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	if m.Sign() == 0 {
		return nil, errDivideByZero
	}
	p := new(big.Int).Mul(bigOf(x1, al, 0), bigOf(x2, al, 1))
	return newInt(p.Rem(p, bigOf(m, al, 2)))
}

// intModPow is BigInteger.ModPow, or Utility.ModInverse for exponent -1.
func intModPow(value, exponent, modulus *stackitem.Integer, al *stackitem.Allocator) (stackitem.Item, error) {
	v, e, m := bigOf(value, al, 0), bigOf(exponent, al, 1), bigOf(modulus, al, 2)
	if exponent.Sign() < 0 {
		if x, ok := exponent.Int64(); !ok || x != -1 {
			return nil, fmt.Errorf("%w: exponent must be non-negative", ErrInvalidOperation)
		}
		if v.Sign() <= 0 {
			return nil, fmt.Errorf("%w: value must be positive", ErrInvalidOperation)
		}
		if m.Cmp(big.NewInt(2)) < 0 {
			return nil, fmt.Errorf("%w: modulus must be at least 2", ErrInvalidOperation)
		}
		r := new(big.Int).ModInverse(v, m)
		if r == nil {
			return nil, fmt.Errorf("%w: no modular inverse", ErrInvalidOperation)
		}
		return newInt(r)
	}
	if m.Sign() == 0 {
		return nil, errDivideByZero
	}
	am := new(big.Int).Abs(m)
	if am.Cmp(big.NewInt(1)) == 0 {
		return al.Int(0), nil
	}
	av := new(big.Int).Abs(v)
	r := new(big.Int).Exp(av, e, am)
	// .NET: the remainder takes the sign of value**exponent.
	if v.Sign() < 0 && e.Bit(0) == 1 {
		r.Neg(r)
	}
	return newInt(r)
}
