package compiler

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// A generator of well-typed contract functions and an interpreter of what
// it generates: the compiled functions must compute, on every input, what
// the interpreter says Go computes (a value, or a run-time panic where the
// VM FAULTs). The programs use only what the compiler translates with Go's
// meaning: ints, bools, one []int, arithmetic by non-zero constants,
// comparisons, &&/||/!, if/else, counted for loops, calls of pure helper
// functions. Values stay below 2^40, so Go's 64-bit ints and NeoVM's big
// integers agree; an input whose evaluation leaves that range is skipped.

type gExpr interface {
	src() string
}

type (
	gLit struct{ v int64 }
	gVar struct{ name string }
	gBin struct {
		op   string
		a, b gExpr
	} // + - * / % and comparisons, && ||
	gNot   struct{ a gExpr }
	gLen   struct{}
	gIndex struct{ i gExpr }
	gCall  struct {
		fn   int
		a, b gExpr
	}
)

func (e gLit) src() string {
	if e.v < 0 {
		return fmt.Sprintf("(%d)", e.v)
	}
	return fmt.Sprint(e.v)
}
func (e gVar) src() string   { return e.name }
func (e gBin) src() string   { return "(" + e.a.src() + " " + e.op + " " + e.b.src() + ")" }
func (e gNot) src() string   { return "!(" + e.a.src() + ")" }
func (gLen) src() string     { return "len(s)" }
func (e gIndex) src() string { return "s[" + e.i.src() + "+x-x]" } // never a constant: the type checker rejects a negative one
func (e gCall) src() string  { return fmt.Sprintf("h%d(%s, %s)", e.fn, e.a.src(), e.b.src()) }

type gStmt struct {
	kind  string // "decl", "set", "add", "append", "if", "for"
	name  string // the declared, set or loop variable
	e     gExpr  // value, or the condition of "if"
	n     int    // iterations of "for"
	body  []gStmt
	other []gStmt // else branch
}

type gFunc struct {
	name   string
	params []string
	body   []gStmt // a helper's body is empty: it returns ret
	ret    gExpr
	init   []int64 // the initial elements of s (exported functions)
}

type progGen struct {
	r       *rand.Rand
	helpers []gFunc
	nextVar int
}

const gLimit = 1 << 40

// intExpr makes an int expression over the variables in scope.
func (g *progGen) intExpr(scope []string, depth int, withSlice bool) gExpr {
	n := 4
	if depth > 0 {
		n = 10
	}
	switch k := g.r.IntN(n); {
	case k == 0 || k == 1:
		return gLit{g.r.Int64N(41) - 20}
	case k == 2 || k == 3:
		return gVar{scope[g.r.IntN(len(scope))]}
	case k == 4 || k == 5:
		return gBin{[]string{"+", "-", "*"}[g.r.IntN(3)], g.intExpr(scope, depth-1, withSlice), g.intExpr(scope, depth-1, withSlice)}
	case k == 6:
		d := g.r.Int64N(9) + 1
		if g.r.IntN(2) == 0 {
			d = -d
		}
		return gBin{[]string{"/", "%"}[g.r.IntN(2)], g.intExpr(scope, depth-1, withSlice), gLit{d}}
	case k == 7 && withSlice:
		return gLen{}
	case k == 8 && withSlice:
		return gIndex{g.intExpr(scope, depth-1, withSlice)}
	case k == 9 && len(g.helpers) > 0:
		return gCall{g.r.IntN(len(g.helpers)), g.intExpr(scope, depth-1, withSlice), g.intExpr(scope, depth-1, withSlice)}
	default:
		return gVar{scope[g.r.IntN(len(scope))]}
	}
}

func (g *progGen) boolExpr(scope []string, depth int) gExpr {
	switch k := g.r.IntN(5); {
	case k < 3 || depth <= 0:
		return gBin{[]string{"==", "!=", "<", "<=", ">", ">="}[g.r.IntN(6)], g.intExpr(scope, depth-1, true), g.intExpr(scope, depth-1, true)}
	case k == 3:
		return gBin{[]string{"&&", "||"}[g.r.IntN(2)], g.boolExpr(scope, depth-1), g.boolExpr(scope, depth-1)}
	default:
		return gNot{g.boolExpr(scope, depth-1)}
	}
}

// stmts makes a block; assignable lists the variables a statement may set
// (declared in this function, not loop variables).
func (g *progGen) stmts(scope, assignable []string, depth, count int) []gStmt {
	var out []gStmt
	for range count {
		switch k := g.r.IntN(6); {
		case k == 0:
			g.nextVar++
			v := fmt.Sprintf("v%d", g.nextVar)
			out = append(out, gStmt{kind: "decl", name: v, e: g.intExpr(scope, 2, true)})
			scope = append(scope[:len(scope):len(scope)], v)
			assignable = append(assignable[:len(assignable):len(assignable)], v)
		case k == 1:
			out = append(out, gStmt{kind: "set", name: assignable[g.r.IntN(len(assignable))], e: g.intExpr(scope, 2, true)})
		case k == 2:
			out = append(out, gStmt{kind: "append", e: g.intExpr(scope, 1, true)})
		case k == 3 && depth > 0:
			out = append(out, gStmt{kind: "if", e: g.boolExpr(scope, 2),
				body: g.stmts(scope, assignable, depth-1, 1+g.r.IntN(2)), other: g.stmts(scope, assignable, depth-1, g.r.IntN(2))})
		case k == 4 && depth > 0:
			g.nextVar++
			i := fmt.Sprintf("i%d", g.nextVar)
			inner := append(scope[:len(scope):len(scope)], i)
			out = append(out, gStmt{kind: "for", name: i, n: 1 + g.r.IntN(4), body: g.stmts(inner, assignable, depth-1, 1+g.r.IntN(2))})
		default:
			out = append(out, gStmt{kind: "add", e: g.intExpr(scope, 2, true)})
		}
	}
	return out
}

// genProgram makes helpers and exported functions from one seed.
func genProgram(seed uint64, helpers, funcs int) []gFunc {
	g := &progGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	var out []gFunc
	for i := range helpers {
		h := gFunc{name: fmt.Sprintf("h%d", i), params: []string{"a", "b"}}
		h.ret = g.intExpr([]string{"a", "b"}, 3, false)
		g.helpers = append(g.helpers, h)
		out = append(out, h)
	}
	for i := range funcs {
		f := gFunc{name: fmt.Sprintf("F%d", i), params: []string{"x"}}
		for range g.r.IntN(4) {
			f.init = append(f.init, g.r.Int64N(21)-10)
		}
		f.body = g.stmts([]string{"x", "acc"}, []string{"acc"}, 2, 2+g.r.IntN(4))
		f.ret = g.intExpr([]string{"x", "acc"}, 2, true)
		out = append(out, f)
	}
	return out
}

func writeStmts(b *strings.Builder, ss []gStmt, indent string) {
	for _, s := range ss {
		switch s.kind {
		case "decl":
			fmt.Fprintf(b, "%s%s := %s\n%sacc += %s\n", indent, s.name, s.e.src(), indent, s.name)
		case "set":
			fmt.Fprintf(b, "%s%s = %s\n", indent, s.name, s.e.src())
		case "add":
			fmt.Fprintf(b, "%sacc += %s\n", indent, s.e.src())
		case "append":
			fmt.Fprintf(b, "%ss = append(s, %s)\n", indent, s.e.src())
		case "if":
			fmt.Fprintf(b, "%sif %s {\n", indent, s.e.src())
			writeStmts(b, s.body, indent+"\t")
			if len(s.other) > 0 {
				fmt.Fprintf(b, "%s} else {\n", indent)
				writeStmts(b, s.other, indent+"\t")
			}
			fmt.Fprintf(b, "%s}\n", indent)
		case "for":
			fmt.Fprintf(b, "%sfor %s := 0; %s < %d; %s++ {\n", indent, s.name, s.name, s.n, s.name)
			writeStmts(b, s.body, indent+"\t")
			fmt.Fprintf(b, "%s}\n", indent)
		}
	}
}

// programSource is the Go source of the contract package.
func programSource(fs []gFunc) string {
	var b strings.Builder
	b.WriteString("package gen\n")
	for _, f := range fs {
		if len(f.params) == 2 {
			fmt.Fprintf(&b, "\nfunc %s(a, b int) int {\n\treturn %s\n}\n", f.name, f.ret.src())
			continue
		}
		init := make([]string, len(f.init))
		for i, v := range f.init {
			init[i] = fmt.Sprint(v)
		}
		fmt.Fprintf(&b, "\nfunc %s(x int) int {\n\tacc := 0\n\ts := []int{%s}\n", f.name, strings.Join(init, ", "))
		writeStmts(&b, f.body, "\t")
		fmt.Fprintf(&b, "\treturn %s + len(s) + acc\n}\n", f.ret.src())
	}
	return b.String()
}

// Outcomes of the interpreter.
var (
	errGoPanic   = errors.New("run-time panic")    // the VM must FAULT
	errOutOfSpan = errors.New("value beyond 2^40") // not compared
)

type interp struct {
	helpers []gFunc
	vars    map[string]int64
	s       []int64
}

func checked(v int64) (int64, error) {
	if v > gLimit || v < -gLimit {
		return 0, errOutOfSpan
	}
	return v, nil
}

func (in *interp) eval(e gExpr) (int64, error) {
	switch e := e.(type) {
	case gLit:
		return e.v, nil
	case gVar:
		return in.vars[e.name], nil
	case gLen:
		return int64(len(in.s)), nil
	case gIndex:
		i, err := in.eval(e.i)
		if err != nil {
			return 0, err
		}
		if i < 0 || i >= int64(len(in.s)) {
			return 0, errGoPanic
		}
		return in.s[i], nil
	case gCall:
		a, err := in.eval(e.a)
		if err != nil {
			return 0, err
		}
		b, err := in.eval(e.b)
		if err != nil {
			return 0, err
		}
		sub := &interp{helpers: in.helpers, vars: map[string]int64{"a": a, "b": b}}
		return sub.eval(in.helpers[e.fn].ret)
	case gNot:
		v, err := in.eval(e.a)
		return 1 - v, err
	case gBin:
		a, err := in.eval(e.a)
		if err != nil {
			return 0, err
		}
		if e.op == "&&" && a == 0 || e.op == "||" && a == 1 {
			return a, nil // short circuit
		}
		b, err := in.eval(e.b)
		if err != nil {
			return 0, err
		}
		bool01 := func(c bool) (int64, error) {
			if c {
				return 1, nil
			}
			return 0, nil
		}
		switch e.op {
		case "+":
			return checked(a + b)
		case "-":
			return checked(a - b)
		case "*":
			if p := a * b; b != 0 && p/b != a {
				return 0, errOutOfSpan // wrapped around
			}
			return checked(a * b)
		case "/":
			return a / b, nil
		case "%":
			return a % b, nil
		case "&&", "||":
			return b, nil
		case "==":
			return bool01(a == b)
		case "!=":
			return bool01(a != b)
		case "<":
			return bool01(a < b)
		case "<=":
			return bool01(a <= b)
		case ">":
			return bool01(a > b)
		case ">=":
			return bool01(a >= b)
		}
	}
	panic(fmt.Sprintf("interp: unknown expression %T", e))
}

func (in *interp) run(ss []gStmt) error {
	for _, s := range ss {
		switch s.kind {
		case "decl", "set", "add", "append":
			v, err := in.eval(s.e)
			if err != nil {
				return err
			}
			switch s.kind {
			case "decl":
				in.vars[s.name] = v
				if in.vars["acc"], err = checked(in.vars["acc"] + v); err != nil {
					return err
				}
			case "set":
				in.vars[s.name] = v
			case "add":
				if in.vars["acc"], err = checked(in.vars["acc"] + v); err != nil {
					return err
				}
			case "append":
				in.s = append(in.s, v)
			}
		case "if":
			c, err := in.eval(s.e)
			if err != nil {
				return err
			}
			body := s.other
			if c == 1 {
				body = s.body
			}
			if err := in.run(body); err != nil {
				return err
			}
		case "for":
			for i := range s.n {
				in.vars[s.name] = int64(i)
				if err := in.run(s.body); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// call runs exported function f on x as Go would.
func (f *gFunc) call(helpers []gFunc, x int64) (int64, error) {
	in := &interp{helpers: helpers, vars: map[string]int64{"x": x, "acc": 0}, s: append([]int64(nil), f.init...)}
	if err := in.run(f.body); err != nil {
		return 0, err
	}
	v, err := in.eval(f.ret)
	if err != nil {
		return 0, err
	}
	return checked(v + int64(len(in.s)) + in.vars["acc"])
}

// checkGenerated compiles the program of seed and compares every exported
// function on a few inputs with the interpreter.
func checkGenerated(t *testing.T, seed uint64, funcs int) (values, faults, skipped int) {
	t.Helper()
	fs := genProgram(seed, 2, funcs)
	src := programSource(fs)
	dir := corpusModule(t, "gen.go", src)
	nf, m, _, err := Compile(dir, Options{Config: Config{Name: "gen"}})
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, src)
	}
	helpers := fs[:2]
	for _, f := range fs[2:] {
		md := m.ABI.GetMethod(strings.ToLower(f.name[:1])+f.name[1:], 1)
		if md == nil {
			t.Fatalf("seed %d: no method %s", seed, f.name)
		}
		for _, x := range []int64{0, 1, -3, 7} {
			want, werr := f.call(helpers, x)
			if errors.Is(werr, errOutOfSpan) {
				skipped++
				continue
			}
			v := vm.New()
			v.SetGasLimit(100_0000_0000)
			if _, err := v.LoadScriptWith(vm.NewScript(nf.Script), vm.LoadParams{RVCount: -1, Offset: md.Offset}); err != nil {
				t.Fatal(err)
			}
			v.Push(stackitem.NewInt(x))
			v.Execute()
			switch {
			case werr != nil && !v.HasFailed():
				t.Fatalf("seed %d, %s(%d): Go panics, the VM returned\n%s", seed, f.name, x, src)
			case werr != nil:
				faults++
			case werr == nil && v.HasFailed():
				t.Fatalf("seed %d, %s(%d): want %d, VM FAULT: %v\n%s", seed, f.name, x, want, v.FaultError(), src)
			case werr == nil:
				res := v.ResultStack()
				item, _ := res.Pop()
				got, err := item.TryInteger()
				if err != nil || res.Len() != 0 || !got.IsInt64() || got.Int64() != want {
					t.Fatalf("seed %d, %s(%d): want %d, got %v (%v)\n%s", seed, f.name, x, want, item, err, src)
				}
				values++
			}
		}
	}
	return values, faults, skipped
}

// TestGeneratedPrograms runs a few seeds in the default suite (one
// compilation each; the loader dominates).
func TestGeneratedPrograms(t *testing.T) {
	ensureInterop(t)
	seeds := uint64(40)
	if n, err := strconv.ParseUint(os.Getenv("N3NODE_GENPROG_SEEDS"), 10, 64); err == nil {
		seeds = n
	}
	var values, faults, skipped int
	for seed := uint64(1); seed <= seeds; seed++ {
		v, f, s := checkGenerated(t, seed, 12)
		values, faults, skipped = values+v, faults+f, skipped+s
	}
	t.Logf("%d seeds: %d results equal, %d panics that FAULTed, %d inputs beyond 2^40 skipped", seeds, values, faults, skipped)
}

// FuzzGeneratedPrograms is the same property over any seed (`make fuzz`).
func FuzzGeneratedPrograms(f *testing.F) {
	f.Add(uint64(100))
	ensureInterop(f)
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkGenerated(t, seed, 6)
	})
}
