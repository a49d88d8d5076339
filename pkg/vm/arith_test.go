package vm

import (
	"math/big"
	"math/rand/v2"
	"testing"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// The JSON suite does not cover ADD, SUB, MUL, DIV, MOD, ABS, MAX, MIN,
// WITHIN, NZ, BOOLAND, BOOLOR and has few boundary values, so the integer
// opcodes are checked here against a big.Int model of System.Numerics.
// BigInteger (truncating division, 32-byte results) on values around the
// int64 fast-path and 256-bit boundaries.

var (
	two255  = new(big.Int).Lsh(big.NewInt(1), 255)
	maxInt  = new(big.Int).Sub(two255, big.NewInt(1))
	minInt  = new(big.Int).Neg(two255)
	big2_63 = new(big.Int).Lsh(big.NewInt(1), 63)
)

func fits(x *big.Int) bool { return x.Cmp(maxInt) <= 0 && x.Cmp(minInt) >= 0 }

func interesting(r *rand.Rand) *big.Int {
	switch r.IntN(8) {
	case 0:
		return big.NewInt(int64(r.IntN(41) - 20))
	case 1: // near int64 limits
		x := new(big.Int).Add(big2_63, big.NewInt(int64(r.IntN(5)-2)))
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	case 2: // near 2^255
		x := new(big.Int).Sub(maxInt, big.NewInt(int64(r.IntN(3))))
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	case 3:
		return minInt
	case 4:
		return big.NewInt(int64(r.Uint64()))
	case 5:
		return big.NewInt(int64(r.Uint32()) - 1<<31)
	default:
		b := make([]byte, 1+r.IntN(32))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		x := new(big.Int).SetBytes(b)
		x.Rsh(x, 1)
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	}
}

// runOps pushes the arguments, runs the opcodes and returns the result
// item or nil on FAULT.
func runOps(t *testing.T, args []*big.Int, ops ...opcode.Opcode) stackitem.Item {
	t.Helper()
	w := nio.NewBufBinWriter()
	for _, a := range args {
		emit.BigInt(w, a)
	}
	emit.Opcodes(w, ops...)
	if w.Err != nil {
		t.Fatal(w.Err)
	}
	v := New()
	if _, err := v.LoadScript(NewScript(w.Bytes())); err != nil {
		t.Fatal(err)
	}
	if v.Execute() == vmstate.Fault {
		return nil
	}
	items := v.ResultStack().Items()
	if len(items) != 1 {
		t.Fatalf("%d results", len(items))
	}
	return items[0]
}

func wantInt(x *big.Int) stackitem.Item {
	if !fits(x) {
		return nil
	}
	return stackitem.NewBigInteger(x)
}

func refBinary(op opcode.Opcode, a, b *big.Int) stackitem.Item {
	z := new(big.Int)
	switch op {
	case opcode.ADD:
		return wantInt(z.Add(a, b))
	case opcode.SUB:
		return wantInt(z.Sub(a, b))
	case opcode.MUL:
		return wantInt(z.Mul(a, b))
	case opcode.DIV:
		if b.Sign() == 0 {
			return nil
		}
		return wantInt(z.Quo(a, b))
	case opcode.MOD:
		if b.Sign() == 0 {
			return nil
		}
		return wantInt(z.Rem(a, b))
	case opcode.AND:
		return wantInt(z.And(a, b))
	case opcode.OR:
		return wantInt(z.Or(a, b))
	case opcode.XOR:
		return wantInt(z.Xor(a, b))
	case opcode.MIN:
		if a.Cmp(b) <= 0 {
			return wantInt(a)
		}
		return wantInt(b)
	case opcode.MAX:
		if a.Cmp(b) >= 0 {
			return wantInt(a)
		}
		return wantInt(b)
	case opcode.NUMEQUAL:
		return stackitem.Bool(a.Cmp(b) == 0)
	case opcode.NUMNOTEQUAL:
		return stackitem.Bool(a.Cmp(b) != 0)
	case opcode.LT:
		return stackitem.Bool(a.Cmp(b) < 0)
	case opcode.LE:
		return stackitem.Bool(a.Cmp(b) <= 0)
	case opcode.GT:
		return stackitem.Bool(a.Cmp(b) > 0)
	case opcode.GE:
		return stackitem.Bool(a.Cmp(b) >= 0)
	case opcode.BOOLAND:
		return stackitem.Bool(a.Sign() != 0 && b.Sign() != 0)
	case opcode.BOOLOR:
		return stackitem.Bool(a.Sign() != 0 || b.Sign() != 0)
	}
	panic(op)
}

func refUnary(op opcode.Opcode, a *big.Int) stackitem.Item {
	z := new(big.Int)
	switch op {
	case opcode.ABS:
		return wantInt(z.Abs(a))
	case opcode.NEGATE:
		return wantInt(z.Neg(a))
	case opcode.INC:
		return wantInt(z.Add(a, big.NewInt(1)))
	case opcode.DEC:
		return wantInt(z.Sub(a, big.NewInt(1)))
	case opcode.SIGN:
		return stackitem.NewInt(int64(a.Sign()))
	case opcode.NZ:
		return stackitem.Bool(a.Sign() != 0)
	case opcode.NOT:
		return stackitem.Bool(a.Sign() == 0)
	case opcode.INVERT:
		return wantInt(z.Not(a))
	case opcode.SQRT:
		if a.Sign() < 0 {
			return nil
		}
		return wantInt(z.Sqrt(a))
	}
	panic(op)
}

func sameItem(a, b stackitem.Item) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Type() == b.Type() && a.Equals(b)
}

func TestIntegerOpsAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	binary := []opcode.Opcode{opcode.ADD, opcode.SUB, opcode.MUL, opcode.DIV, opcode.MOD, opcode.AND,
		opcode.OR, opcode.XOR, opcode.MIN, opcode.MAX, opcode.NUMEQUAL, opcode.NUMNOTEQUAL,
		opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.BOOLAND, opcode.BOOLOR}
	unary := []opcode.Opcode{opcode.ABS, opcode.NEGATE, opcode.INC, opcode.DEC, opcode.SIGN,
		opcode.NZ, opcode.NOT, opcode.INVERT, opcode.SQRT}
	for range 600 {
		a, b := interesting(r), interesting(r)
		if r.IntN(10) == 0 {
			b = new(big.Int).Set(a)
		}
		for _, op := range binary {
			got := runOps(t, []*big.Int{a, b}, op)
			if want := refBinary(op, a, b); !sameItem(got, want) {
				t.Fatalf("%s(%s, %s) = %v, want %v", op, a, b, got, want)
			}
		}
		for _, op := range unary {
			got := runOps(t, []*big.Int{a}, op)
			if want := refUnary(op, a); !sameItem(got, want) {
				t.Fatalf("%s(%s) = %v, want %v", op, a, got, want)
			}
		}
		// Shifts and powers with small exponents.
		n := big.NewInt(int64(r.IntN(260)))
		for _, op := range []opcode.Opcode{opcode.SHL, opcode.SHR} {
			got := runOps(t, []*big.Int{a, n}, op)
			var want stackitem.Item
			if n.Int64() <= MaxShift {
				if op == opcode.SHL {
					want = wantInt(new(big.Int).Lsh(a, uint(n.Int64())))
				} else {
					want = wantInt(new(big.Int).Rsh(a, uint(n.Int64())))
				}
			}
			if !sameItem(got, want) {
				t.Fatalf("%s(%s, %s) = %v, want %v", op, a, n, got, want)
			}
		}
		e := big.NewInt(int64(r.IntN(8)))
		got := runOps(t, []*big.Int{a, e}, opcode.POW)
		if want := wantInt(new(big.Int).Exp(a, e, nil)); !sameItem(got, want) {
			t.Fatalf("POW(%s, %s) = %v, want %v", a, e, got, want)
		}
		c := interesting(r)
		got = runOps(t, []*big.Int{a, b, c}, opcode.WITHIN)
		if want := stackitem.Bool(b.Cmp(a) <= 0 && a.Cmp(c) < 0); !sameItem(got, want) {
			t.Fatalf("WITHIN(%s, %s, %s) = %v", a, b, c, got)
		}
		if c.Sign() != 0 {
			got = runOps(t, []*big.Int{a, b, c}, opcode.MODMUL)
			p := new(big.Int).Mul(a, b)
			if want := wantInt(p.Rem(p, c)); !sameItem(got, want) {
				t.Fatalf("MODMUL(%s, %s, %s) = %v, want %v", a, b, c, got, want)
			}
		}
	}
}

func TestIntegerEdgeCases(t *testing.T) {
	bi := func(v int64) *big.Int { return big.NewInt(v) }
	cases := []struct {
		args []*big.Int
		op   opcode.Opcode
		want stackitem.Item
	}{
		{[]*big.Int{bi(-7), bi(2)}, opcode.DIV, stackitem.NewInt(-3)},
		{[]*big.Int{bi(-7), bi(2)}, opcode.MOD, stackitem.NewInt(-1)},
		{[]*big.Int{bi(7), bi(-2)}, opcode.MOD, stackitem.NewInt(1)},
		{[]*big.Int{bi(1), bi(0)}, opcode.DIV, nil},
		{[]*big.Int{bi(1), bi(0)}, opcode.MOD, nil},
		{[]*big.Int{minInt, bi(-1)}, opcode.DIV, nil},
		{[]*big.Int{minInt, bi(-1)}, opcode.MOD, stackitem.NewInt(0)},
		{[]*big.Int{minInt}, opcode.ABS, nil},
		{[]*big.Int{maxInt}, opcode.INC, nil},
		{[]*big.Int{bi(2), bi(257)}, opcode.POW, nil},
		{[]*big.Int{bi(2), bi(-1)}, opcode.POW, nil},
		{[]*big.Int{bi(0), bi(0)}, opcode.POW, stackitem.NewInt(1)},
		{[]*big.Int{bi(2), bi(-1)}, opcode.SHL, nil},
		{[]*big.Int{bi(-1), bi(256)}, opcode.SHR, stackitem.NewInt(-1)},
		{[]*big.Int{bi(1), bi(255)}, opcode.SHL, nil},
		{[]*big.Int{bi(-1), bi(255)}, opcode.SHL, stackitem.NewBigInteger(minInt)},
		{[]*big.Int{bi(-1)}, opcode.SQRT, nil},
		{[]*big.Int{bi(9007199254740993)}, opcode.SQRT, stackitem.NewInt(94906265)},
		{[]*big.Int{bi(3), bi(-1), bi(11)}, opcode.MODPOW, stackitem.NewInt(4)},
		{[]*big.Int{bi(2), bi(-1), bi(4)}, opcode.MODPOW, nil},
		{[]*big.Int{bi(0), bi(-1), bi(4)}, opcode.MODPOW, nil},
		{[]*big.Int{bi(3), bi(-1), bi(1)}, opcode.MODPOW, nil},
		{[]*big.Int{bi(-3), bi(3), bi(5)}, opcode.MODPOW, stackitem.NewInt(-2)},
		{[]*big.Int{bi(-3), bi(2), bi(5)}, opcode.MODPOW, stackitem.NewInt(4)},
		{[]*big.Int{bi(3), bi(2), bi(-5)}, opcode.MODPOW, stackitem.NewInt(4)},
		{[]*big.Int{bi(5), bi(0), bi(1)}, opcode.MODPOW, stackitem.NewInt(0)},
		{[]*big.Int{bi(5), bi(0), bi(7)}, opcode.MODPOW, stackitem.NewInt(1)},
		{[]*big.Int{bi(5), bi(-2), bi(7)}, opcode.MODPOW, nil},
		{[]*big.Int{bi(5), bi(1), bi(0)}, opcode.MODPOW, nil},
		{[]*big.Int{bi(-7), bi(3), bi(5)}, opcode.MODMUL, stackitem.NewInt(-1)},
	}
	for _, c := range cases {
		if got := runOps(t, c.args, c.op); !sameItem(got, c.want) {
			t.Errorf("%s%v = %v, want %v", c.op, c.args, got, c.want)
		}
	}
	// PUSHF and boolean ops on non-integers.
	s := []byte{byte(opcode.PUSHF), byte(opcode.PUSHT), byte(opcode.BOOLOR), byte(opcode.NOT)}
	v := New()
	_, _ = v.LoadScript(NewScript(s))
	if v.Execute() != vmstate.Halt || !sameItem(v.ResultStack().Items()[0], stackitem.Bool(false)) {
		t.Errorf("PUSHF PUSHT BOOLOR NOT: %v", v.ResultStack().Items())
	}
}
