package compiler

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// A generator of well-typed contract functions and an interpreter of what
// it generates: the compiled functions must compute, on every input, what
// the interpreter says Go computes (a value, or a run-time panic where the
// VM FAULTs). Values stay below 2^40, so Go's 64-bit ints and NeoVM's big
// integers agree; an input whose evaluation leaves that range is skipped.
//
// The programs use only what the compiler translates with Go's meaning:
// docs/compiler.md, "The program generator", lists the constructs, and "Go
// semantics neo-go does not follow" what is left out (TestInheritedSemantics
// pins those). Concatenated strings are NeoVM Buffers, which compare by
// reference and are no map keys, so == and map keys take only "clean"
// strings (literals, string(b), variables holding those); a deferred
// recover goes only in functions whose panics are panic statements outside
// range and switch bodies; defer arguments never change after the defer.

type gExpr interface {
	src() string
}

type (
	gLit struct{ v int64 }
	gVar struct{ name string } // a variable of any type
	gBin struct {
		op   string
		a, b gExpr
	} // + - * / % and comparisons, && ||, == != on strings
	gNot   struct{ a gExpr }
	gLen   struct{}
	gIndex struct{ i gExpr }
	gCall  struct {
		fn   int
		a, b gExpr
	}

	gStr     struct{ v string }   // a string literal
	gCat     struct{ a, b gExpr } // a + b on strings
	gToStr   struct{ a gExpr }    // string([]byte(a))
	gStrLen  struct{ s gExpr }    // len(s)
	gStrAt   struct{ s, i gExpr } // int(s[i])
	gBytesAt struct{ s, i gExpr } // int([]byte(s)[i])
	gMapLen  struct{ m string }   // len(m)
	gMapGet  struct {
		m string
		k gExpr
	}
	gField   struct{ f string } // t.A, t.B, t.C
	gStructH struct{ a gExpr }  // ht(t, a): t passed by value
	gHn      struct{ a gExpr }  // hn(a): named result
	gFnCall  struct {
		f string
		a gExpr
	} // f(a), f a function variable
	gFnLit struct {
		c *gClosure
		a gExpr
	} // func(p int) int {...}(a)
)

// gClosure is a function literal func(p int) int { c := 0; body; return ret + c }.
type gClosure struct {
	param, acc string
	body       []gStmt
	ret        gExpr
}

func (e gLit) src() string {
	if e.v < 0 {
		return fmt.Sprintf("(%d)", e.v)
	}
	return fmt.Sprint(e.v)
}
func (e gVar) src() string     { return e.name }
func (e gBin) src() string     { return "(" + e.a.src() + " " + e.op + " " + e.b.src() + ")" }
func (e gNot) src() string     { return "!(" + e.a.src() + ")" }
func (gLen) src() string       { return "len(s)" }
func (e gIndex) src() string   { return "s[" + e.i.src() + "+x-x]" } // never a constant: the type checker rejects a negative one
func (e gCall) src() string    { return fmt.Sprintf("h%d(%s, %s)", e.fn, e.a.src(), e.b.src()) }
func (e gStr) src() string     { return strconv.Quote(e.v) }
func (e gCat) src() string     { return "(" + e.a.src() + " + " + e.b.src() + ")" }
func (e gToStr) src() string   { return "string([]byte(" + e.a.src() + "))" }
func (e gStrLen) src() string  { return "len(" + e.s.src() + ")" }
func (e gStrAt) src() string   { return "int(" + e.s.src() + "[" + e.i.src() + "+x-x])" }
func (e gBytesAt) src() string { return "int([]byte(" + e.s.src() + ")[" + e.i.src() + "+x-x])" }
func (e gMapLen) src() string  { return "len(" + e.m + ")" }
func (e gMapGet) src() string  { return e.m + "[" + e.k.src() + "]" }
func (e gField) src() string   { return "t." + e.f }
func (e gStructH) src() string { return "ht(t, " + e.a.src() + ")" }
func (e gFnCall) src() string  { return e.f + "(" + e.a.src() + ")" }
func (e gHn) src() string      { return "hn(" + e.a.src() + ")" }
func (e gFnLit) src() string   { return e.c.src() + "(" + e.a.src() + ")" }

func (c *gClosure) src() string {
	var b strings.Builder
	fmt.Fprintf(&b, "func(%s int) int {\n%s := 0\n", c.param, c.acc)
	writeStmts(&b, c.body, "")
	fmt.Fprintf(&b, "return %s + %s\n}", c.ret.src(), c.acc)
	return b.String()
}

type gStmt struct {
	// "decl", "set", "opset", "add", "append", "if", "for", "range",
	// "switch", "break", "continue", "multi", "sdecl" (a clean string
	// variable), "bdecl" (any string), "sset", "bset", "bytes", "mset",
	// "mdel", "mok", "fset", "tptr", "fdecl", "defer", "panic"
	kind  string
	name  string // the declared, set or loop variable; the map; the field
	name2 string // the second variable of "range" and "multi"
	op    string // of "opset"; what "range" ranges over: s, str, int, m, ms
	acc   string // the accumulator of the function
	e     gExpr  // value, or the condition of "if", "panic", "break", "continue"; the tag of "switch"
	k     gExpr  // map key, byte index, second argument of "multi"
	n     int    // iterations of "for"; the byte written by "bytes"; the default clause of "switch" (-1: none)
	c     *gClosure
	body  []gStmt
	other []gStmt // else branch
	cases []gCase
	label string // of "for" and "range" (when a statement names it), of "break" and "continue"
}

// gCase is a clause of a switch: constant values (tagged switch) or a
// condition (tagless).
type gCase struct {
	vals []int64
	cond gExpr
	body []gStmt
	fall bool // ends with fallthrough
}

type gFunc struct {
	name   string
	params []string
	body   []gStmt // a helper's body is empty: it returns ret
	ret    gExpr
	init   []int64 // the initial elements of s (exported functions)
	// exported functions only
	maps    bool // m := map[int]int{...}, ms := map[string]int{...}
	mInit   map[int64]int64
	msInit  map[string]int64
	strct   *gT // t := T{...} (the literal's field values)
	tFields string
	defers  bool // defer add(...) statements; wrapped by F(x) { r := f(x); return r + g }
	recover bool // defer func() { recover() }() first
}

// gT is a value of the generated struct type T.
type gT struct {
	A, B int64
	C    string
}

// genv is what an expression or statement may use.
type genv struct {
	ints, assignable []string
	acc              string
	clean, anyStr    []string // string variables: clean ones never hold a concatenation
	funcs            []string // function variables
	x, slice, strs   bool     // x (for non-constant indexes), s, strings
	maps, strct      bool
	noPanic          bool     // no index expressions or m[k]
	panics           bool     // panic statements allowed
	deferOK          bool     // defer add(...) allowed here
	closures         int      // nesting budget for function literals
	loop, inSwitch   bool     // break (loop or switch) and continue (loop) allowed
	noBreak          bool     // inside a range over a map: nothing order-dependent
	recovering       bool     // a deferred recover: no panic where the stack holds values
	labels           []string // of the enclosing loops
}

func extend(l []string, v string) []string { return append(l[:len(l):len(l)], v) }

type progGen struct {
	r       *rand.Rand
	helpers []gFunc
	nextVar int
	// oneLiteral allows one function literal per function (neo-go orders
	// several by map iteration, so their bytes may differ from ours).
	oneLiteral bool
	literals   int             // in the current function
	usedLabels map[string]bool // labels a break or continue names
}

// loopLabel gives a loop's body environment a label for the loop.
func (g *progGen) loopLabel(inner *genv) string {
	l := g.fresh("L")
	inner.labels = extend(inner.labels, l)
	return l
}

// labelIfUsed is the label to write before the loop.
func (g *progGen) labelIfUsed(l string) string {
	if g.usedLabels[l] {
		return l
	}
	return ""
}

// literalOK tells whether one more function literal may be made.
func (g *progGen) literalOK(e *genv) bool {
	return e.closures > 0 && (!g.oneLiteral || g.literals == 0)
}

func (g *progGen) fresh(prefix string) string {
	g.nextVar++
	return fmt.Sprintf("%s%d", prefix, g.nextVar)
}

const gLimit = 1 << 40

var strLits = []string{"", "a", "b", "ab", "ba", "xyz", "neo"}

func (g *progGen) pick(l []string) string { return l[g.r.IntN(len(l))] }

// intExpr makes an int expression.
func (g *progGen) intExpr(e *genv, depth int) gExpr {
	if depth <= 0 {
		if g.r.IntN(2) == 0 {
			return gLit{g.r.Int64N(41) - 20}
		}
		return gVar{g.pick(e.ints)}
	}
	for range 8 {
		switch k := g.r.IntN(18); {
		case k < 2:
			return gLit{g.r.Int64N(41) - 20}
		case k < 4:
			return gVar{g.pick(e.ints)}
		case k < 6:
			return gBin{[]string{"+", "-", "*"}[g.r.IntN(3)], g.intExpr(e, depth-1), g.intExpr(e, depth-1)}
		case k == 6:
			d := g.r.Int64N(9) + 1
			if g.r.IntN(2) == 0 {
				d = -d
			}
			return gBin{[]string{"/", "%"}[g.r.IntN(2)], g.intExpr(e, depth-1), gLit{d}}
		case k == 7 && e.slice:
			return gLen{}
		case k == 8 && e.slice && !e.noPanic:
			return gIndex{g.intExpr(e, depth-1)}
		case k == 9 && len(g.helpers) > 0:
			return gCall{g.r.IntN(len(g.helpers)), g.intExpr(e, depth-1), g.intExpr(e, depth-1)}
		case k == 10 && e.strs:
			return gStrLen{g.strExpr(e, depth-1, false)}
		case k == 11 && e.strs && !e.noPanic:
			if g.r.IntN(3) == 0 {
				return gBytesAt{g.strExpr(e, depth-1, false), g.intExpr(e, depth-1)}
			}
			return gStrAt{g.strExpr(e, depth-1, false), g.intExpr(e, depth-1)}
		case k == 12 && e.maps:
			return gMapLen{g.pick([]string{"m", "ms"})}
		case k == 13 && e.maps && !e.noPanic:
			if g.r.IntN(2) == 0 {
				return gMapGet{"m", g.intKey(e)}
			}
			return gMapGet{"ms", g.strExpr(e, 0, true)}
		case k == 14 && e.strct:
			if g.r.IntN(3) == 0 {
				return gStructH{g.intExpr(e, depth-1)}
			}
			return gField{"A"}
		case k == 15 && len(e.funcs) > 0:
			return gFnCall{g.pick(e.funcs), g.intExpr(e, depth-1)}
		case k == 16 && g.literalOK(e):
			return gFnLit{g.closure(e), g.intExpr(e, depth-1)}
		case k == 17:
			return gHn{g.intExpr(e, depth-1)}
		}
	}
	return gVar{g.pick(e.ints)}
}

// intKey is a map key: mostly a small constant, so keys repeat.
func (g *progGen) intKey(e *genv) gExpr {
	if g.r.IntN(3) > 0 {
		return gLit{g.r.Int64N(6)}
	}
	return g.intExpr(e, 1)
}

// strExpr makes a string expression; a clean one is never a concatenation.
func (g *progGen) strExpr(e *genv, depth int, clean bool) gExpr {
	k := g.r.IntN(7)
	switch {
	case k == 0 && depth > 0 && !clean:
		return gCat{g.strExpr(e, depth-1, false), g.strExpr(e, depth-1, false)}
	case k == 1 && depth > 0:
		return gToStr{g.strExpr(e, depth-1, false)}
	case k == 2 && len(e.clean) > 0:
		return gVar{g.pick(e.clean)}
	case k == 3 && len(e.anyStr) > 0 && !clean:
		return gVar{g.pick(e.anyStr)}
	case k == 4 && e.strct:
		return gField{"C"}
	}
	return gStr{g.pick(strLits)}
}

func (g *progGen) boolExpr(e *genv, depth int) gExpr {
	switch k := g.r.IntN(8); {
	case k < 3 || depth <= 0:
		return gBin{[]string{"==", "!=", "<", "<=", ">", ">="}[g.r.IntN(6)], g.intExpr(e, depth-1), g.intExpr(e, depth-1)}
	case k == 3:
		return gBin{[]string{"&&", "||"}[g.r.IntN(2)], g.boolExpr(e, depth-1), g.boolExpr(e, depth-1)}
	case k == 4 && e.strs:
		return gBin{[]string{"==", "!="}[g.r.IntN(2)], g.strExpr(e, depth-1, true), g.strExpr(e, depth-1, true)}
	case k == 5 && e.strct:
		return gField{"B"}
	default:
		return gNot{g.boolExpr(e, depth-1)}
	}
}

// closure makes a function literal that uses only its parameter and its
// own locals.
func (g *progGen) closure(outer *genv) *gClosure {
	g.literals++
	p, c := g.fresh("p"), g.fresh("c")
	e := &genv{ints: []string{p, c}, assignable: []string{c}, acc: c, closures: outer.closures - 1, noPanic: true}
	return &gClosure{param: p, acc: c, body: g.stmts(e, 1, 1+g.r.IntN(2)), ret: g.intExpr(e, 2)}
}

// stmts makes a block in environment e (which it extends for the
// statements that follow a declaration, not for the caller).
func (g *progGen) stmts(e *genv, depth, count int) []gStmt {
	e0 := *e
	e = &e0
	var out []gStmt
	for range count {
		s, ok := g.stmt(e, depth)
		if ok {
			out = append(out, s)
		}
	}
	return out
}

func (g *progGen) stmt(e *genv, depth int) (gStmt, bool) {
	for range 8 {
		switch k := g.r.IntN(26); {
		case k < 2:
			v := g.fresh("v")
			s := gStmt{kind: "decl", name: v, acc: e.acc, e: g.intExpr(e, 2)}
			e.ints, e.assignable = extend(e.ints, v), extend(e.assignable, v)
			return s, true
		case k < 4:
			return gStmt{kind: "set", name: g.pick(e.assignable), e: g.intExpr(e, 2)}, true
		case k == 4 && e.slice:
			return gStmt{kind: "append", e: g.intExpr(e, 1)}, true
		case k == 5 && depth > 0:
			inner := block(e, e.loop, e.inSwitch)
			return gStmt{kind: "if", e: g.boolExpr(e, 2),
				body: g.stmts(inner, depth-1, 1+g.r.IntN(2)), other: g.stmts(inner, depth-1, g.r.IntN(2))}, true
		case k == 6 && depth > 0:
			i := g.fresh("i")
			inner := block(e, true, false)
			inner.ints = extend(e.ints, i)
			l := g.loopLabel(inner)
			s := gStmt{kind: "for", name: i, n: 1 + g.r.IntN(4), body: g.stmts(inner, depth-1, 1+g.r.IntN(2))}
			s.label = g.labelIfUsed(l)
			return s, true
		case k == 7 && e.strs:
			v := g.fresh("s")
			s := gStmt{kind: "sdecl", name: v, acc: e.acc, e: g.strExpr(e, 2, true)}
			e.clean = extend(e.clean, v)
			return s, true
		case k == 8 && e.strs:
			v := g.fresh("b")
			s := gStmt{kind: "bdecl", name: v, acc: e.acc, e: g.strExpr(e, 2, false)}
			e.anyStr = extend(e.anyStr, v)
			return s, true
		case k == 9 && len(e.clean) > 0:
			return gStmt{kind: "sset", name: g.pick(e.clean), e: g.strExpr(e, 2, true)}, true
		case k == 10 && len(e.anyStr) > 0:
			return gStmt{kind: "bset", name: g.pick(e.anyStr), e: g.strExpr(e, 2, false)}, true
		case k == 11 && e.strs && !e.noPanic:
			v := g.fresh("s")
			s := gStmt{kind: "bytes", name: v, acc: e.acc, e: g.strExpr(e, 1, true), k: g.intExpr(e, 1), n: 'a' + g.r.IntN(26)}
			e.clean = extend(e.clean, v)
			return s, true
		case k == 12 && e.maps:
			if g.r.IntN(2) == 0 {
				return gStmt{kind: "mset", name: "m", k: g.intKey(e), e: g.intExpr(e, 1)}, true
			}
			return gStmt{kind: "mset", name: "ms", k: g.strExpr(e, 1, true), e: g.intExpr(e, 1)}, true
		case k == 13 && e.maps:
			if g.r.IntN(2) == 0 {
				return gStmt{kind: "mdel", name: "m", k: g.intKey(e)}, true
			}
			return gStmt{kind: "mdel", name: "ms", k: g.strExpr(e, 1, true)}, true
		case k == 14 && e.maps:
			v := g.fresh("ok")
			if g.r.IntN(2) == 0 {
				return gStmt{kind: "mok", name: "m", acc: e.acc, e: gVar{v}, k: g.intKey(e)}, true
			}
			return gStmt{kind: "mok", name: "ms", acc: e.acc, e: gVar{v}, k: g.strExpr(e, 1, true)}, true
		case k == 15 && e.strct:
			switch g.r.IntN(3) {
			case 0:
				return gStmt{kind: "fset", name: "A", e: g.intExpr(e, 2)}, true
			case 1:
				return gStmt{kind: "fset", name: "B", e: g.boolExpr(e, 2)}, true
			}
			return gStmt{kind: "fset", name: "C", e: g.strExpr(e, 1, true)}, true
		case k == 16 && e.strct:
			return gStmt{kind: "tptr", e: g.intExpr(e, 1)}, true
		case k == 17 && g.literalOK(e):
			v := g.fresh("fv")
			s := gStmt{kind: "fdecl", name: v, acc: e.acc, c: g.closure(e), e: g.intExpr(e, 1)}
			e.funcs = extend(e.funcs, v)
			return s, true
		case k == 18 && e.deferOK:
			// Arguments over x and constants only: they are evaluated
			// when the deferred call runs.
			return gStmt{kind: "defer", e: g.intExpr(&genv{ints: []string{"x"}}, 2)}, true
		case k == 19 && e.panics && depth > 0:
			return gStmt{kind: "panic", e: g.boolExpr(e, 2)}, true
		case k == 20:
			return gStmt{kind: "add", acc: e.acc, e: g.intExpr(e, 2)}, true
		case k == 21:
			op := []string{"+=", "-=", "*=", "/=", "%=", "++", "--"}[g.r.IntN(7)]
			var v gExpr
			switch op {
			case "/=", "%=":
				v = gLit{g.r.Int64N(9) + 1}
			case "+=", "-=", "*=":
				v = g.intExpr(e, 1)
			}
			return gStmt{kind: "opset", name: g.pick(e.assignable), op: op, e: v}, true
		case k == 22 && depth > 0:
			return g.switchStmt(e, depth), true
		case k == 23 && depth > 0:
			return g.rangeStmt(e, depth)
		case k == 24 && (e.loop || e.inSwitch) && !e.noBreak:
			kind := "break"
			if e.loop && g.r.IntN(2) == 0 {
				kind = "continue"
			}
			s := gStmt{kind: kind, e: g.boolExpr(e, 1)}
			if len(e.labels) > 0 && g.r.IntN(3) == 0 {
				s.label = g.pick(e.labels)
				g.usedLabels[s.label] = true
			}
			return s, true
		case k == 25:
			a, b := g.fresh("q"), g.fresh("q")
			s := gStmt{kind: "multi", name: a, name2: b, acc: e.acc, e: g.intExpr(e, 1), k: g.intExpr(e, 1)}
			e.ints, e.assignable = extend(extend(e.ints, a), b), extend(extend(e.assignable, a), b)
			return s, true
		}
	}
	return gStmt{}, false
}

// block is a nested block's environment: closures limited, loop and switch
// as given.
func block(e *genv, loop, inSwitch bool) *genv {
	inner := *e
	inner.closures = min(inner.closures, 1)
	inner.loop, inner.inSwitch = loop, inSwitch
	if loop {
		inner.deferOK = false
	}
	return &inner
}

// switchStmt makes a tagged switch on an int or a tagless one; a default
// clause that is not last (tagged only) comes without fallthrough (neo-go
// swaps it with the last clause).
func (g *progGen) switchStmt(e *genv, depth int) gStmt {
	n := 1 + g.r.IntN(3)
	s := gStmt{kind: "switch", n: -1}
	if g.r.IntN(3) > 0 {
		s.e = g.intExpr(e, 1)
	}
	// A default that is not last changes the order in which a tagless
	// switch tests its conditions (the last clause takes its place).
	def := -1
	if g.r.IntN(2) == 0 {
		def = n
		if s.e != nil {
			def = g.r.IntN(n + 1)
		}
	}
	used := map[int64]bool{}
	inner := block(e, e.loop, true)
	if e.recovering {
		inner.panics = false // the switch's tag is on the stack
	}
	for i := range n + 1 {
		if i == def {
			s.n = len(s.cases)
			s.cases = append(s.cases, gCase{body: g.stmts(inner, depth-1, g.r.IntN(2))})
			continue
		}
		if i == n {
			break
		}
		var c gCase
		if s.e != nil {
			for range 1 + g.r.IntN(2) {
				if v := g.r.Int64N(9) - 4; !used[v] {
					used[v] = true
					c.vals = append(c.vals, v)
				}
			}
			if len(c.vals) == 0 {
				continue
			}
		} else {
			c.cond = g.boolExpr(e, 1)
		}
		c.body = g.stmts(inner, depth-1, 1+g.r.IntN(2)) // after the values: a skipped case leaves no used label behind
		s.cases = append(s.cases, c)
	}
	lastDefault := s.n < 0 || s.n == len(s.cases)-1
	for i := range s.cases {
		if lastDefault && i < len(s.cases)-1 && g.r.IntN(3) == 0 {
			s.cases[i].fall = true
		}
	}
	return s
}

// rangeStmt makes a range loop over s, a string, an int or a map (with a
// body whose result does not depend on the order).
func (g *progGen) rangeStmt(e *genv, depth int) (gStmt, bool) {
	i, v := g.fresh("i"), g.fresh("e")
	s := gStmt{kind: "range", name: i, name2: v, acc: e.acc}
	switch k := g.r.IntN(5); {
	case k == 0 && e.slice:
		s.op = "s"
	case k == 1 && e.strs:
		s.op, s.e = "str", g.strExpr(e, 1, false)
	case k == 2 && e.maps:
		s.op, s.n = "m", g.r.IntN(5)
		return s, true
	case k == 3 && e.maps:
		s.op, s.n = "ms", g.r.IntN(5)
		return s, true
	default:
		s.op, s.n, s.name2 = "int", g.r.IntN(4), ""
	}
	inner := block(e, true, false)
	inner.ints = extend(inner.ints, i)
	if e.recovering {
		inner.panics = false // the loop's state is on the stack
	}
	if s.name2 != "" {
		inner.ints = extend(inner.ints, v)
	}
	l := g.loopLabel(inner)
	s.body = g.stmts(inner, depth-1, 1+g.r.IntN(2))
	s.label = g.labelIfUsed(l)
	return s, true
}

// genProgram makes helpers and exported functions from one seed.
func genProgram(seed uint64, helpers, funcs int, oneLiteral bool) []gFunc {
	g := &progGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), oneLiteral: oneLiteral, usedLabels: map[string]bool{}}
	var out []gFunc
	for i := range helpers {
		h := gFunc{name: fmt.Sprintf("h%d", i), params: []string{"a", "b"}}
		h.ret = g.intExpr(&genv{ints: []string{"a", "b"}}, 3)
		g.helpers = append(g.helpers, h)
		out = append(out, h)
	}
	for i := range funcs {
		f := gFunc{name: fmt.Sprintf("F%d", i), params: []string{"x"}}
		for range g.r.IntN(4) {
			f.init = append(f.init, g.r.Int64N(21)-10)
		}
		e := &genv{ints: []string{"x", "acc"}, assignable: []string{"acc"}, acc: "acc", x: true, slice: true,
			strs: g.r.IntN(2) == 0, maps: g.r.IntN(3) == 0, closures: g.r.IntN(3)}
		if e.maps {
			f.maps, f.mInit, f.msInit = true, map[int64]int64{}, map[string]int64{}
			for range g.r.IntN(4) {
				f.mInit[g.r.Int64N(6)] = g.r.Int64N(21) - 10
			}
			for range g.r.IntN(4) {
				f.msInit[g.pick(strLits)] = g.r.Int64N(21) - 10
			}
		}
		if g.r.IntN(3) == 0 {
			e.strct = true
			f.strct = &gT{}
			var fields []string
			if g.r.IntN(2) == 0 {
				f.strct.A = g.r.Int64N(21) - 10
				fields = append(fields, fmt.Sprintf("A: %d", f.strct.A))
			}
			if g.r.IntN(2) == 0 {
				f.strct.B = 1
				fields = append(fields, "B: true")
			}
			if g.r.IntN(2) == 0 {
				f.strct.C = g.pick(strLits)
				fields = append(fields, "C: "+strconv.Quote(f.strct.C))
			}
			f.tFields = strings.Join(fields, ", ")
		}
		switch g.r.IntN(5) {
		case 0: // defers: nothing may panic
			f.defers, e.deferOK, e.noPanic = true, true, true
		case 1: // one deferred recover: panics (statements only) return zero
			f.defers, f.recover, e.noPanic, e.panics, e.recovering = true, true, true, true, true
		default:
			e.panics = true
		}
		g.literals = 0
		if f.recover {
			g.literals = 1
		}
		f.body = g.stmts(e, 2, 2+g.r.IntN(4))
		// The result uses the names declared before the body only; it never
		// panics in a function that recovers (neo-go does not support that).
		re := &genv{ints: []string{"x", "acc"}, x: true, slice: true, maps: e.maps, strct: e.strct,
			strs: e.strs, noPanic: e.noPanic}
		f.ret = g.intExpr(re, 2)
		out = append(out, f)
	}
	return out
}

func writeStmts(b *strings.Builder, ss []gStmt, indent string) {
	for _, s := range ss {
		if s.label != "" && (s.kind == "for" || s.kind == "range") {
			fmt.Fprintf(b, "%s%s:\n", indent, s.label)
		}
		switch s.kind {
		case "decl":
			fmt.Fprintf(b, "%s%s := %s\n%s%s += %s\n", indent, s.name, s.e.src(), indent, s.acc, s.name)
		case "set", "sset", "bset":
			fmt.Fprintf(b, "%s%s = %s\n", indent, s.name, s.e.src())
		case "add":
			fmt.Fprintf(b, "%s%s += %s\n", indent, s.acc, s.e.src())
		case "append":
			fmt.Fprintf(b, "%ss = append(s, %s)\n", indent, s.e.src())
		case "sdecl", "bdecl":
			fmt.Fprintf(b, "%s%s := %s\n%s%s += len(%s)\n", indent, s.name, s.e.src(), indent, s.acc, s.name)
		case "bytes":
			y := "y" + s.name[1:]
			fmt.Fprintf(b, "%s%s := []byte(%s)\n%s%s[%s+x-x] = %q\n%s%s := string(%s)\n%s%s += len(%s)\n",
				indent, y, s.e.src(), indent, y, s.k.src(), rune(s.n), indent, s.name, y, indent, s.acc, s.name)
		case "mset":
			fmt.Fprintf(b, "%s%s[%s] = %s\n", indent, s.name, s.k.src(), s.e.src())
		case "mdel":
			fmt.Fprintf(b, "%sdelete(%s, %s)\n", indent, s.name, s.k.src())
		case "mok":
			ok := s.e.src()
			v := "w" + ok[2:]
			fmt.Fprintf(b, "%sif %s, %s := %s[%s]; %s {\n%s\t%s += %s\n%s} else {\n%s\t%s += %s + 1\n%s}\n",
				indent, v, ok, s.name, s.k.src(), ok, indent, s.acc, v, indent, indent, s.acc, v, indent)
		case "fset":
			fmt.Fprintf(b, "%st.%s = %s\n", indent, s.name, s.e.src())
		case "tptr":
			fmt.Fprintf(b, "%st.P(%s)\n", indent, s.e.src())
		case "fdecl":
			fmt.Fprintf(b, "%s%s := %s\n%s%s += %s(%s)\n", indent, s.name, s.c.src(), indent, s.acc, s.name, s.e.src())
		case "defer":
			fmt.Fprintf(b, "%sdefer add(%s)\n", indent, s.e.src())
		case "opset":
			if s.e == nil {
				fmt.Fprintf(b, "%s%s%s\n", indent, s.name, s.op)
			} else {
				fmt.Fprintf(b, "%s%s %s %s\n", indent, s.name, s.op, s.e.src())
			}
		case "break", "continue":
			fmt.Fprintf(b, "%sif %s {\n%s\t%s\n%s}\n", indent, s.e.src(), indent, strings.TrimSpace(s.kind+" "+s.label), indent)
		case "multi":
			fmt.Fprintf(b, "%s%s, %s := hm(%s, %s)\n%s%s += %s*3 + %s\n", indent, s.name, s.name2, s.e.src(), s.k.src(), indent, s.acc, s.name, s.name2)
		case "switch":
			tag := ""
			if s.e != nil {
				tag = " " + s.e.src()
			}
			fmt.Fprintf(b, "%sswitch%s {\n", indent, tag)
			for i, c := range s.cases {
				switch {
				case i == s.n:
					fmt.Fprintf(b, "%sdefault:\n", indent)
				case c.cond != nil:
					fmt.Fprintf(b, "%scase %s:\n", indent, c.cond.src())
				default:
					vals := make([]string, len(c.vals))
					for j, v := range c.vals {
						vals[j] = gLit{v}.src()
					}
					fmt.Fprintf(b, "%scase %s:\n", indent, strings.Join(vals, ", "))
				}
				writeStmts(b, c.body, indent+"\t")
				if c.fall {
					fmt.Fprintf(b, "%s\tfallthrough\n", indent)
				}
			}
			fmt.Fprintf(b, "%s}\n", indent)
		case "range":
			switch s.op {
			case "s":
				fmt.Fprintf(b, "%sfor %s, %s := range s {\n%s\t%s += %s*2 + %s\n", indent, s.name, s.name2, indent, s.acc, s.name, s.name2)
			case "str":
				fmt.Fprintf(b, "%sfor %s, %s_ := range %s {\n%s\t%s := int(%s_)\n%s\t%s += %s*2 + %s\n",
					indent, s.name, s.name2, s.e.src(), indent, s.name2, s.name2, indent, s.acc, s.name, s.name2)
			case "int":
				fmt.Fprintf(b, "%sfor %s := range %d {\n%s\t%s += %s\n", indent, s.name, s.n, indent, s.acc, s.name)
			case "m":
				fmt.Fprintf(b, "%sfor %s, %s := range m {\n%s\t%s += %s*%d + %s\n%s}\n", indent, s.name, s.name2, indent, s.acc, s.name, s.n, s.name2, indent)
				continue
			case "ms":
				fmt.Fprintf(b, "%sfor %s, %s := range ms {\n%s\t%s += len(%s)*%d + %s\n%s}\n", indent, s.name, s.name2, indent, s.acc, s.name, s.n, s.name2, indent)
				continue
			}
			writeStmts(b, s.body, indent+"\t")
			fmt.Fprintf(b, "%s}\n", indent)
		case "panic":
			fmt.Fprintf(b, "%sif %s {\n%s\tpanic(\"p\")\n%s}\n", indent, s.e.src(), indent, indent)
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

// programPrelude declares what every generated program may use.
const programPrelude = `package gen

type T struct {
	A int
	B bool
	C string
}

// P changes the caller's struct.
func (t *T) P(n int) {
	t.A += n
}

// ht changes its own copy of t.
func ht(t T, n int) int {
	t.A = t.A + n
	t.C = "h"
	return t.A * 2
}

// hm has two results.
func hm(a, b int) (int, int) {
	return a + b, a - b
}

// hn has a named result and a bare return.
func hn(a int) (r int) {
	r = a * 2
	if a > 3 {
		return
	}
	r++
	return
}

var g int

func add(v int) {
	g = g*3 + v
}
`

// programSource is the Go source of the contract package.
func programSource(fs []gFunc) string {
	var b strings.Builder
	b.WriteString(programPrelude)
	for _, f := range fs {
		if len(f.params) == 2 {
			fmt.Fprintf(&b, "\nfunc %s(a, b int) int {\n\treturn %s\n}\n", f.name, f.ret.src())
			continue
		}
		name := f.name
		if f.defers {
			name = "f" + f.name[1:]
			fmt.Fprintf(&b, "\nfunc %s(x int) int {\n\tr := %s(x)\n\treturn r + g\n}\n", f.name, name)
		}
		init := make([]string, len(f.init))
		for i, v := range f.init {
			init[i] = fmt.Sprint(v)
		}
		fmt.Fprintf(&b, "\nfunc %s(x int) int {\n", name)
		if f.recover {
			b.WriteString("\tdefer func() {\n\t\trecover()\n\t}()\n")
		}
		fmt.Fprintf(&b, "\tacc := 0\n\ts := []int{%s}\n", strings.Join(init, ", "))
		ret := f.ret.src() + " + len(s) + acc"
		if f.maps {
			var kv []string
			for _, k := range slices.Sorted(maps.Keys(f.mInit)) {
				kv = append(kv, fmt.Sprintf("%d: %d", k, f.mInit[k]))
			}
			fmt.Fprintf(&b, "\tm := map[int]int{%s}\n", strings.Join(kv, ", "))
			kv = kv[:0]
			for _, k := range slices.Sorted(maps.Keys(f.msInit)) {
				kv = append(kv, fmt.Sprintf("%q: %d", k, f.msInit[k]))
			}
			fmt.Fprintf(&b, "\tms := map[string]int{%s}\n", strings.Join(kv, ", "))
			ret += " + len(m) + len(ms)"
		}
		if f.strct != nil {
			fmt.Fprintf(&b, "\tt := T{%s}\n", f.tFields)
			ret += " + t.A"
		}
		writeStmts(&b, f.body, "\t")
		fmt.Fprintf(&b, "\treturn %s\n}\n", ret)
	}
	return b.String()
}

// Outcomes of the interpreter.
var (
	errGoPanic   = errors.New("run-time panic")    // the VM must FAULT
	errOutOfSpan = errors.New("value beyond 2^40") // not compared
	// errMissingKey is m[k] of a missing key: Go gives the zero value,
	// neo-go's translation (PICKITEM) FAULTs; the VM must FAULT.
	errMissingKey = errors.New("missing map key")
)

// loopCtl is a break or continue unwinding to its loop (or switch).
type loopCtl struct{ kind, label string }

func (c *loopCtl) Error() string { return c.kind + " " + c.label }

type interp struct {
	helpers []gFunc
	vars    map[string]any
	s       []int64
	defers  []int64 // arguments of deferred add calls
	goMaps  bool    // m[k] of a missing key is zero (Go), not errMissingKey
}

func checked(v int64) (int64, error) {
	if v > gLimit || v < -gLimit {
		return 0, errOutOfSpan
	}
	return v, nil
}

func (in *interp) evalS(e gExpr) (string, error) {
	switch e := e.(type) {
	case gStr:
		return e.v, nil
	case gVar:
		return in.vars[e.name].(string), nil
	case gField:
		return in.vars["t"].(*gT).C, nil
	case gCat:
		a, err := in.evalS(e.a)
		if err != nil {
			return "", err
		}
		b, err := in.evalS(e.b)
		return a + b, err
	case gToStr:
		return in.evalS(e.a)
	}
	panic(fmt.Sprintf("interp: unknown string expression %T", e))
}

// index is s[i] for a string or bytes expression.
func (in *interp) index(se, ie gExpr) (int64, error) {
	s, err := in.evalS(se)
	if err != nil {
		return 0, err
	}
	i, err := in.eval(ie)
	if err != nil {
		return 0, err
	}
	if i < 0 || i >= int64(len(s)) {
		return 0, errGoPanic
	}
	return int64(s[i]), nil
}

// evalPair evaluates a and b in order.
func (in *interp) evalPair(a, b gExpr) (int64, int64, error) {
	x, err := in.eval(a)
	if err != nil {
		return 0, 0, err
	}
	y, err := in.eval(b)
	return x, y, err
}

func (in *interp) eval(e gExpr) (int64, error) {
	switch e := e.(type) {
	case gLit:
		return e.v, nil
	case gVar:
		return in.vars[e.name].(int64), nil
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
		a, b, err := in.evalPair(e.a, e.b)
		if err != nil {
			return 0, err
		}
		sub := &interp{helpers: in.helpers, vars: map[string]any{"a": a, "b": b}}
		return sub.eval(in.helpers[e.fn].ret)
	case gStrLen:
		s, err := in.evalS(e.s)
		return int64(len(s)), err
	case gStrAt:
		return in.index(e.s, e.i)
	case gBytesAt:
		return in.index(e.s, e.i)
	case gMapLen:
		if e.m == "m" {
			return int64(len(in.vars["m"].(map[int64]int64))), nil
		}
		return int64(len(in.vars["ms"].(map[string]int64))), nil
	case gMapGet:
		var v int64
		var ok bool
		if e.m == "m" {
			k, err := in.eval(e.k)
			if err != nil {
				return 0, err
			}
			v, ok = in.vars["m"].(map[int64]int64)[k]
		} else {
			k, err := in.evalS(e.k)
			if err != nil {
				return 0, err
			}
			v, ok = in.vars["ms"].(map[string]int64)[k]
		}
		if !ok && !in.goMaps {
			return 0, errMissingKey
		}
		return v, nil
	case gField:
		t := in.vars["t"].(*gT)
		if e.f == "B" {
			return t.B, nil
		}
		return t.A, nil
	case gStructH:
		n, err := in.eval(e.a)
		if err != nil {
			return 0, err
		}
		a, err := checked(in.vars["t"].(*gT).A + n)
		if err != nil {
			return 0, err
		}
		return checked(2 * a)
	case gFnCall:
		a, err := in.eval(e.a)
		if err != nil {
			return 0, err
		}
		return in.callClosure(in.vars[e.f].(*gClosure), a)
	case gFnLit:
		a, err := in.eval(e.a)
		if err != nil {
			return 0, err
		}
		return in.callClosure(e.c, a)
	case gHn:
		a, err := in.eval(e.a)
		if err != nil {
			return 0, err
		}
		if a > 3 {
			return checked(2 * a)
		}
		return checked(2*a + 1)
	case gNot:
		v, err := in.eval(e.a)
		return 1 - v, err
	case gBin:
		if isStrExpr(e.a) {
			a, err := in.evalS(e.a)
			if err != nil {
				return 0, err
			}
			b, err := in.evalS(e.b)
			if err != nil {
				return 0, err
			}
			return bool01(a == b == (e.op == "=="))
		}
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

func bool01(c bool) (int64, error) {
	if c {
		return 1, nil
	}
	return 0, nil
}

// isStrExpr tells string operands of == and != from int ones.
func isStrExpr(e gExpr) bool {
	switch e := e.(type) {
	case gStr, gCat, gToStr:
		return true
	case gField:
		return e.f == "C"
	case gVar: // s1, b2; not the helpers' parameter b
		return len(e.name) > 1 && (e.name[0] == 's' || e.name[0] == 'b') && e.name[1] >= '0' && e.name[1] <= '9'
	}
	return false
}

func (in *interp) callClosure(c *gClosure, a int64) (int64, error) {
	sub := &interp{helpers: in.helpers, vars: map[string]any{c.param: a, c.acc: int64(0)}}
	if err := sub.run(c.body); err != nil {
		return 0, err
	}
	v, err := sub.eval(c.ret)
	if err != nil {
		return 0, err
	}
	return checked(v + sub.vars[c.acc].(int64))
}

// addTo adds v to the accumulator acc.
func (in *interp) addTo(acc string, v int64) error {
	r, err := checked(in.vars[acc].(int64) + v)
	in.vars[acc] = r
	return err
}

func (in *interp) run(ss []gStmt) error {
	for _, s := range ss {
		if err := in.step(s); err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) step(s gStmt) error {
	switch s.kind {
	case "decl", "set", "add", "append", "defer", "tptr":
		v, err := in.eval(s.e)
		if err != nil {
			return err
		}
		switch s.kind {
		case "decl":
			in.vars[s.name] = v
			return in.addTo(s.acc, v)
		case "set":
			in.vars[s.name] = v
		case "add":
			return in.addTo(s.acc, v)
		case "append":
			in.s = append(in.s, v)
		case "defer":
			in.defers = append(in.defers, v)
		case "tptr":
			t := in.vars["t"].(*gT)
			t.A, err = checked(t.A + v)
			return err
		}
	case "sdecl", "bdecl", "sset", "bset":
		v, err := in.evalS(s.e)
		if err != nil {
			return err
		}
		in.vars[s.name] = v
		if s.kind == "sdecl" || s.kind == "bdecl" {
			return in.addTo(s.acc, int64(len(v)))
		}
	case "bytes":
		v, err := in.evalS(s.e)
		if err != nil {
			return err
		}
		i, err := in.eval(s.k)
		if err != nil {
			return err
		}
		if i < 0 || i >= int64(len(v)) {
			return errGoPanic
		}
		b := []byte(v)
		b[i] = byte(s.n)
		in.vars[s.name] = string(b)
		return in.addTo(s.acc, int64(len(b)))
	case "mset", "mdel", "mok":
		var (
			v   int64
			ik  int64
			sk  string
			err error
		)
		if s.name == "m" {
			ik, err = in.eval(s.k)
		} else {
			sk, err = in.evalS(s.k)
		}
		if err != nil {
			return err
		}
		if s.kind == "mset" {
			if v, err = in.eval(s.e); err != nil {
				return err
			}
		}
		m, ms := in.vars["m"].(map[int64]int64), in.vars["ms"].(map[string]int64)
		switch {
		case s.kind == "mset" && s.name == "m":
			m[ik] = v
		case s.kind == "mset":
			ms[sk] = v
		case s.kind == "mdel" && s.name == "m":
			delete(m, ik)
		case s.kind == "mdel":
			delete(ms, sk)
		default:
			var ok bool
			if s.name == "m" {
				v, ok = m[ik]
			} else {
				v, ok = ms[sk]
			}
			if !ok {
				v++
			}
			return in.addTo(s.acc, v)
		}
	case "fset":
		t := in.vars["t"].(*gT)
		if s.name == "C" {
			v, err := in.evalS(s.e)
			t.C = v
			return err
		}
		v, err := in.eval(s.e)
		if s.name == "A" {
			t.A = v
		} else {
			t.B = v
		}
		return err
	case "fdecl":
		in.vars[s.name] = s.c
		a, err := in.eval(s.e)
		if err != nil {
			return err
		}
		v, err := in.callClosure(s.c, a)
		if err != nil {
			return err
		}
		return in.addTo(s.acc, v)
	case "panic":
		c, err := in.eval(s.e)
		if err != nil {
			return err
		}
		if c == 1 {
			return errGoPanic
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
		return in.run(body)
	case "for":
		for i := range s.n {
			in.vars[s.name] = int64(i)
			if stop, err := loopBody(in.run(s.body), s.label); stop {
				return err
			}
		}
	case "opset":
		return in.opset(s)
	case "break", "continue":
		c, err := in.eval(s.e)
		if err != nil || c == 0 {
			return err
		}
		return &loopCtl{s.kind, s.label}
	case "multi":
		a, b, err := in.evalPair(s.e, s.k)
		if err != nil {
			return err
		}
		if in.vars[s.name], err = checked(a + b); err != nil {
			return err
		}
		if in.vars[s.name2], err = checked(a - b); err != nil {
			return err
		}
		return in.addTo(s.acc, 3*in.vars[s.name].(int64)+in.vars[s.name2].(int64))
	case "switch":
		return in.runSwitch(s)
	case "range":
		return in.runRange(s)
	}
	return nil
}

// loopBody tells what the error of a loop body means to the loop labelled
// label: stop (with err, nil after its own break) or go on.
func loopBody(err error, label string) (stop bool, _ error) {
	var c *loopCtl
	if errors.As(err, &c) && (c.label == "" || c.label == label) {
		return c.kind == "break", nil
	}
	return err != nil, err
}

func (in *interp) opset(s gStmt) error {
	cur := in.vars[s.name].(int64)
	var v int64
	if s.e != nil {
		var err error
		if v, err = in.eval(s.e); err != nil {
			return err
		}
	}
	var (
		r   int64
		err error
	)
	switch s.op {
	case "++":
		r, err = checked(cur + 1)
	case "--":
		r, err = checked(cur - 1)
	case "+=":
		r, err = checked(cur + v)
	case "-=":
		r, err = checked(cur - v)
	case "*=":
		if p := cur * v; v != 0 && p/v != cur {
			return errOutOfSpan
		}
		r, err = checked(cur * v)
	case "/=":
		r = cur / v
	case "%=":
		r = cur % v
	}
	in.vars[s.name] = r
	return err
}

// runSwitch runs the first matching clause (the default if none), then
// the clauses it falls through to; break ends the switch.
func (in *interp) runSwitch(s gStmt) error {
	var tag int64
	if s.e != nil {
		var err error
		if tag, err = in.eval(s.e); err != nil {
			return err
		}
	}
	match := s.n
	for i, c := range s.cases {
		if i == s.n {
			continue
		}
		if c.cond != nil {
			v, err := in.eval(c.cond)
			if err != nil {
				return err
			}
			if v == 1 {
				match = i
				break
			}
			continue
		}
		if slices.Contains(c.vals, tag) {
			match = i
			break
		}
	}
	for i := match; i >= 0 && i < len(s.cases); i++ {
		err := in.run(s.cases[i].body)
		if c, ok := err.(*loopCtl); ok && c.kind == "break" && c.label == "" {
			return nil
		}
		if err != nil || !s.cases[i].fall {
			return err
		}
	}
	return nil
}

func (in *interp) runRange(s gStmt) error {
	switch s.op {
	case "m", "ms":
		if s.op == "m" {
			for k, v := range in.vars["m"].(map[int64]int64) {
				if err := in.addTo(s.acc, k*int64(s.n)+v); err != nil {
					return err
				}
			}
			return nil
		}
		for k, v := range in.vars["ms"].(map[string]int64) {
			if err := in.addTo(s.acc, int64(len(k)*s.n)+v); err != nil {
				return err
			}
		}
		return nil
	}
	var elems []int64 // the values ranged over, fixed before the first iteration
	switch s.op {
	case "s":
		elems = slices.Clone(in.s)
	case "str":
		str, err := in.evalS(s.e)
		if err != nil {
			return err
		}
		for _, c := range []byte(str) {
			elems = append(elems, int64(c))
		}
	case "int":
		elems = make([]int64, s.n)
	}
	for i, v := range elems {
		in.vars[s.name] = int64(i)
		add := int64(i)
		if s.name2 != "" {
			in.vars[s.name2] = v
			add = 2*int64(i) + v
		}
		if err := in.addTo(s.acc, add); err != nil {
			return err
		}
		if stop, err := loopBody(in.run(s.body), s.label); stop {
			return err
		}
	}
	return nil
}

// call runs exported function f on x as Go would (goMaps) or as the
// translation does (a missing key in m[k] is errMissingKey).
func (f *gFunc) call(helpers []gFunc, x int64, goMaps bool) (int64, error) {
	var g int64
	in := &interp{helpers: helpers, vars: map[string]any{"x": x, "acc": int64(0)}, s: append([]int64(nil), f.init...), goMaps: goMaps}
	if f.maps {
		m, ms := map[int64]int64{}, map[string]int64{}
		for k, v := range f.mInit {
			m[k] = v
		}
		for k, v := range f.msInit {
			ms[k] = v
		}
		in.vars["m"], in.vars["ms"] = m, ms
	}
	if f.strct != nil {
		t := *f.strct
		in.vars["t"] = &t
	}
	r, err := in.result(f)
	if errors.Is(err, errGoPanic) && f.recover {
		r, err = 0, nil
	}
	if err != nil {
		return 0, err
	}
	for i := len(in.defers) - 1; i >= 0; i-- {
		if g, err = checked(g*3 + in.defers[i]); err != nil {
			return 0, err
		}
	}
	return checked(r + g)
}

// result runs f's body and evaluates its result expression.
func (in *interp) result(f *gFunc) (int64, error) {
	if err := in.run(f.body); err != nil {
		return 0, err
	}
	v, err := in.eval(f.ret)
	if err != nil {
		return 0, err
	}
	v += int64(len(in.s)) + in.vars["acc"].(int64)
	if f.maps {
		v += int64(len(in.vars["m"].(map[int64]int64)) + len(in.vars["ms"].(map[string]int64)))
	}
	if f.strct != nil {
		v += in.vars["t"].(*gT).A
	}
	return checked(v)
}

// genOutcome counts what checkGenerated compared.
type genOutcome struct {
	values, faults, missing, skipped int // missing: FAULTs of m[k] with a missing key
}

// checkGenerated compiles the program of seed and compares every exported
// function on a few inputs with the interpreter.
func checkGenerated(t *testing.T, seed uint64, funcs int) genOutcome {
	t.Helper()
	var out genOutcome
	fs := genProgram(seed, 2, funcs, false)
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
			want, werr := f.call(helpers, x, false)
			if errors.Is(werr, errOutOfSpan) {
				out.skipped++
				continue
			}
			v := runCompiled(t, nf.Script, m, md, x)
			switch {
			case werr != nil && !v.HasFailed():
				t.Fatalf("seed %d, %s(%d): Go: %v, the VM returned\n%s", seed, f.name, x, werr, src)
			case werr != nil:
				if errors.Is(werr, errMissingKey) {
					out.missing++
				} else {
					out.faults++
				}
			case werr == nil && v.HasFailed():
				t.Fatalf("seed %d, %s(%d): want %d, VM FAULT: %v\n%s", seed, f.name, x, want, v.FaultError(), src)
			case werr == nil:
				res := v.ResultStack()
				item, _ := res.Pop()
				got, err := item.TryInteger()
				if err != nil || res.Len() != 0 || !got.IsInt64() || got.Int64() != want {
					t.Fatalf("seed %d, %s(%d): want %d, got %v (%v, %d more results)\n%s", seed, f.name, x, want, item, err, res.Len(), src)
				}
				out.values++
			}
		}
	}
	return out
}

// runCompiled runs method md of a compiled contract on arg (after
// _initialize, as a contract call does) to its end.
func runCompiled(t *testing.T, script []byte, m *manifest.Manifest, md *manifest.Method, arg int64) *vm.VM {
	t.Helper()
	v := vm.New()
	v.SetGasLimit(100_0000_0000)
	if _, err := v.LoadScriptWith(vm.NewScript(script), vm.LoadParams{RVCount: -1, Offset: md.Offset}); err != nil {
		t.Fatal(err)
	}
	v.Push(stackitem.NewInt(arg))
	if init := m.ABI.GetMethod("_initialize", 0); init != nil {
		if _, err := v.Call(init.Offset); err != nil {
			t.Fatal(err)
		}
	}
	v.Execute()
	return v
}

// genSeeds is the number of seeds to run: the environment variable env
// if it holds one, else def.
func genSeeds(env string, def uint64) uint64 {
	if n, err := strconv.ParseUint(os.Getenv(env), 10, 64); err == nil {
		return n
	}
	return def
}

// TestGeneratedPrograms runs a few seeds in the default suite (one
// compilation each; the loader dominates).
func TestGeneratedPrograms(t *testing.T) {
	ensureInterop(t)
	seeds := genSeeds("N3NODE_GENPROG_SEEDS", 40)
	var sum genOutcome
	for seed := uint64(1); seed <= seeds; seed++ {
		o := checkGenerated(t, seed, 12)
		sum.values, sum.faults, sum.missing, sum.skipped = sum.values+o.values, sum.faults+o.faults, sum.missing+o.missing, sum.skipped+o.skipped
	}
	t.Logf("%d seeds: %d results equal, %d panics and %d missing map keys that FAULTed, %d inputs beyond 2^40 skipped",
		seeds, sum.values, sum.faults, sum.missing, sum.skipped)
}

// FuzzGeneratedPrograms is the same property over any seed (`make fuzz`;
// seeds in testdata/fuzz/FuzzGeneratedPrograms).
func FuzzGeneratedPrograms(f *testing.F) {
	f.Add(uint64(100))
	ensureInterop(f)
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkGenerated(t, seed, 6)
	})
}

// TestGeneratedCoverage checks that the seeds TestGeneratedPrograms runs
// use every construct the generator knows (so a change of the generator
// cannot drop one unnoticed).
func TestGeneratedCoverage(t *testing.T) {
	var all strings.Builder
	for seed := uint64(1); seed <= 40; seed++ {
		all.WriteString(programSource(genProgram(seed, 2, 12, false)))
	}
	src := all.String()
	for _, c := range []string{
		"s = append(s, ", "len(s)", "+x-x]", "h0(", "hm(", "hn(", "++\n", "*= ", "%= ",
		"for i", ":= range s {", ":= range m {", ":= range ms {", "_ := range ", ":= range 2 {",
		"switch {", "switch ", "fallthrough", "default:", "\tbreak\n", "\tcontinue\n", "break L", "continue L",
		" + \"", "string([]byte(", "int([]byte(", "int(\"", ":= []byte(", " == \"", "len(b",
		"map[int]int{", "map[string]int{", "delete(m, ", "delete(ms, ", "ms[\"", "; ok", "len(m)",
		"t := T{", "t.A = ", "t.B", "t.C = ", "t.P(", "ht(t, ",
		"fv", "}(", "defer add(", "recover()", "panic(\"p\")",
	} {
		if !strings.Contains(src, c) {
			t.Errorf("no generated program has %q", c)
		}
	}
}
