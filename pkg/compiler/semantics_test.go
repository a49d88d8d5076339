package compiler

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// semanticsSource holds one function per place where the translation
// (neo-go 0.120.0's, so ours) does not compute what Go does; the program
// generator (genprog_test.go) avoids each of them. docs/compiler.md, "Go
// semantics neo-go does not follow", lists them.
const semanticsSource = `package sem

type T struct {
	A int
	C string
}

func (t T) Set(n int) {
	t.A = n
}

func copyArg(t T) int {
	t.A = 9
	return t.A
}

var g int

func add(v int) {
	g = g*10 + v
}

func f9(x int) int {
	return 2
}

func StructAssign(x int) int {
	t := T{A: 1}
	u := t
	u.A = 5
	return t.A
}

func ValueReceiver(x int) int {
	t := T{A: 1}
	t.Set(x)
	return t.A
}

func StructArg(x int) int {
	t := T{A: 1}
	copyArg(t)
	return t.A
}

func MissingKey(x int) int {
	m := map[int]int{1: 2}
	return m[x]
}

func MissingKeyOk(x int) int {
	m := map[int]int{1: 2}
	v, ok := m[x]
	if ok {
		return -1
	}
	return v
}

func ConcatEq(x int) bool {
	a := "a"
	b := a + "b"
	return b == "ab"
}

func ConcatConvEq(x int) bool {
	a := "a"
	b := string([]byte(a + "b"))
	return b == "ab"
}

func ConcatBytes(x int) string {
	a := "a"
	s := a + "bc"
	b := []byte(s)
	b[0] = 'z'
	return s
}

func ConcatKey(x int) int {
	a := "a"
	m := map[string]int{}
	m[a+"b"] = 1
	return len(m)
}

func StringLess(x int) bool {
	a, b := "ab", "b"
	return a < b
}

func DeferArgs(x int) int {
	deferArgs(x)
	return g
}

func deferArgs(x int) int {
	y := 1
	defer add(y)
	y = 5
	return y
}

func DeferNoRecover(x int) int {
	return deferNoRecover(x)*100 + g
}

func deferNoRecover(x int) int {
	defer add(2)
	if x > 0 {
		panic("p")
	}
	return 1
}

func DeferRecoverTwo(x int) int {
	return deferRecoverTwo(x)*100 + g
}

func deferRecoverTwo(x int) int {
	defer add(2)
	defer func() {
		recover()
	}()
	if x > 0 {
		panic("p")
	}
	return 1
}

func RecoverInExpr(x int) int {
	return recoverInExpr(x)
}

func recoverInExpr(x int) int {
	defer func() {
		recover()
	}()
	s := []int{}
	y := 1 + s[x]
	return y
}

func ShadowedFunc(x int) int {
	f9 := func(a int) int {
		return 1
	}
	return f9(x)
}

func EarlyDefault(x int) int {
	switch {
	default:
		return 0
	case x > 0:
		return 1
	case x > 1:
		return 2
	}
}

func LiteralArgs(x int) int {
	return func(a, b int) int {
		return a - b
	}(10, x)
}
`

// TestInheritedSemantics pins what the translation computes where Go
// computes something else (each run with x = 3).
func TestInheritedSemantics(t *testing.T) {
	ensureInterop(t)
	dir := corpusModule(t, "sem.go", semanticsSource)
	nf, m, _, err := Compile(dir, Options{Config: Config{Name: "sem"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, want, goWant string
	}{
		{"structAssign", "5", "1"},          // u := t shares t
		{"valueReceiver", "3", "1"},         // a value receiver is not copied
		{"structArg", "1", "1"},             // an argument is (as in Go)
		{"missingKey", "FAULT", "0"},        // PICKITEM of a missing key
		{"missingKeyOk", "0", "0"},          // v, ok := m[k] gives the zero value
		{"concatEq", "false", "true"},       // a + b is a Buffer: EQUAL compares references
		{"concatConvEq", "true", "true"},    // string(b) is a ByteString
		{"concatBytes", "zbc", "abc"},       // []byte of a Buffer is the same Buffer
		{"concatKey", "FAULT", "1"},         // a Buffer is no map key
		{"stringLess", "false", "true"},     // < on strings compares them as integers
		{"deferArgs", "5", "1"},             // deferred arguments are evaluated at the call
		{"deferNoRecover", "2", "panic"},    // a function with a defer returns zero on panic
		{"deferRecoverTwo", "FAULT", "2"},   // a recovered panic with two defers loses the result
		{"recoverInExpr", "2 results", "0"}, // a recovered panic leaves the pending operand
		{"shadowedFunc", "2", "1"},          // the package function wins over the local variable
		{"earlyDefault", "2", "1"},          // a default not last swaps with the last clause: its case is tested first
		{"literalArgs", "-7", "7"},          // arguments of a literal called at once arrive reversed
	} {
		t.Run(c.method, func(t *testing.T) {
			md := m.ABI.GetMethod(c.method, 1)
			if md == nil {
				t.Fatalf("no method %s", c.method)
			}
			v := runCompiled(t, nf.Script, m, md, 3)
			var got string
			switch res := v.ResultStack(); {
			case v.HasFailed():
				got = "FAULT"
			case res.Len() != 1:
				got = fmt.Sprintf("%d results", res.Len())
			default:
				item, _ := res.Pop()
				if b, ok := item.Value().([]byte); ok {
					got = string(b)
				} else {
					got = fmt.Sprint(item.Value())
				}
			}
			if got != c.want {
				t.Errorf("got %s, want %s (Go: %s)", got, c.want, c.goWant)
			}
		})
	}
}

// TestNeoGoInheritedSemantics checks that neo-go 0.120.0 compiles the
// program of TestInheritedSemantics to the same bytes (so the results
// pinned there are neo-go's; `make compiler-diff`).
func TestNeoGoInheritedSemantics(t *testing.T) {
	bin := neoGoBinary(t)
	dir := corpusModule(t, "sem.go", semanticsSource)
	cfg := filepath.Join(dir, "sem.yml")
	must(t, os.WriteFile(cfg, []byte("name: sem\n"), 0o644))
	want, err := theirsFlags(t, bin, dir, cfg, true)
	if err != nil {
		t.Fatalf("neo-go: %v: %s", err, neoGoStderr(err))
	}
	got, err := oursOpts(dir, Options{Config: Config{Name: "sem"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := compareOutputs(want, got); d != "" {
		t.Fatal(d)
	}
}
