package vm

// The NeoVM JSON conformance suite from neo-project/neo-vm (see
// testdata/neovm/README.md), run with the checks of the C# harness
// (VMJsonTestBase.cs):
//
//   - state, compared case-insensitively; on FAULT only the exception
//     message (where given) is checked further;
//   - the invocation stack (top first), which must be empty when absent;
//     per context the IP, the opcode byte at IP (RET past the end), the
//     evaluation stack when given, and the argument, local and static slots
//     (absent = empty or no slot);
//   - the result stack when given; the reference count when given.
//
// Items are compared in a canonical text form: integers as decimal, byte
// values as hex, map entries in insertion order keyed by the hex of the key
// bytes, Array and Struct told apart, Buffer and ByteString told apart.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

type jsonFile struct {
	Category string     `json:"category"`
	Name     string     `json:"name"`
	Tests    []jsonTest `json:"tests"`
}

type jsonTest struct {
	Name   string          `json:"name"`
	Script json.RawMessage `json:"script"`
	Steps  []jsonStep      `json:"steps"`
}

type jsonStep struct {
	Name    string     `json:"name"`
	Actions []string   `json:"actions"`
	Result  jsonResult `json:"result"`
}

type jsonResult struct {
	State            string        `json:"state"`
	InvocationStack  []jsonContext `json:"invocationStack"`
	ResultStack      []jsonItem    `json:"resultStack"`
	Refs             *int          `json:"refs"`
	ExceptionMessage *string       `json:"exceptionMessage"`
}

type jsonContext struct {
	InstructionPointer int        `json:"instructionPointer"`
	NextInstruction    string     `json:"nextInstruction"`
	EvaluationStack    []jsonItem `json:"evaluationStack"`
	StaticFields       []jsonItem `json:"staticFields"`
	Arguments          []jsonItem `json:"arguments"`
	LocalVariables     []jsonItem `json:"localVariables"`
}

type jsonItem struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// decodeScript builds a script from mnemonics and "0x" hex strings.
func decodeScript(raw json.RawMessage) ([]byte, error) {
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		var s string
		if err2 := json.Unmarshal(raw, &s); err2 != nil {
			return nil, err
		}
		parts = []string{s}
	}
	var b []byte
	for _, p := range parts {
		if strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X") {
			h, err := hex.DecodeString(p[2:])
			if err != nil {
				return nil, fmt.Errorf("bad hex %q: %w", p, err)
			}
			b = append(b, h...)
			continue
		}
		op, err := opcode.FromString(p)
		if err != nil {
			return nil, err
		}
		b = append(b, byte(op))
	}
	return b, nil
}

// canonExpected renders an expected item in the canonical form.
func canonExpected(it jsonItem) (string, error) {
	str := func() (string, error) {
		var s string
		err := json.Unmarshal(it.Value, &s)
		return s, err
	}
	hexVal := func() (string, error) {
		s, err := str()
		if err != nil {
			return "", err
		}
		if s != "" && !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
			return "", fmt.Errorf("'0x' prefix required for value: %q", s)
		}
		if len(s) >= 2 {
			s = s[2:]
		}
		b, err := hex.DecodeString(s)
		return hex.EncodeToString(b), err
	}
	switch strings.ToLower(it.Type) {
	case "null", "any":
		return "null", nil
	case "boolean":
		var b bool
		if err := json.Unmarshal(it.Value, &b); err != nil {
			return "", err
		}
		return fmt.Sprintf("bool:%v", b), nil
	case "integer":
		d := json.NewDecoder(bytes.NewReader(it.Value))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return "", err
		}
		var s string
		switch x := v.(type) {
		case json.Number:
			s = x.String()
		case string:
			s = x
		default:
			return "", fmt.Errorf("bad integer %s", it.Value)
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return "", fmt.Errorf("bad integer %q", s)
		}
		return "int:" + n.String(), nil
	case "bytestring":
		h, err := hexVal()
		return "bytes:" + h, err
	case "string":
		s, err := str()
		return "bytes:" + hex.EncodeToString([]byte(s)), err
	case "buffer":
		h, err := hexVal()
		return "buffer:" + h, err
	case "pointer":
		var p int
		err := json.Unmarshal(it.Value, &p)
		return fmt.Sprintf("ptr:%d", p), err
	case "interop", "interopinterface":
		return "interop", nil
	case "array", "struct":
		var items []jsonItem
		if err := json.Unmarshal(it.Value, &items); err != nil {
			return "", err
		}
		parts := make([]string, len(items))
		for i := range items {
			s, err := canonExpected(items[i])
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return strings.ToLower(it.Type) + "[" + strings.Join(parts, ",") + "]", nil
	case "map":
		d := json.NewDecoder(bytes.NewReader(it.Value))
		tok, err := d.Token()
		if err != nil || tok != json.Delim('{') {
			return "", fmt.Errorf("bad map %s", it.Value)
		}
		var parts []string
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return "", err
			}
			var v jsonItem
			if err := d.Decode(&v); err != nil {
				return "", err
			}
			s, err := canonExpected(v)
			if err != nil {
				return "", err
			}
			key := strings.TrimPrefix(strings.ToLower(k.(string)), "0x")
			parts = append(parts, key+"="+s)
		}
		return "map{" + strings.Join(parts, ",") + "}", nil
	}
	return "", fmt.Errorf("unknown item type %q", it.Type)
}

// canonActual renders an actual item in the canonical form.
func canonActual(item stackitem.Item, depth int) string {
	if depth > 64 {
		return "…"
	}
	switch x := item.(type) {
	case stackitem.Null:
		return "null"
	case stackitem.Bool:
		return fmt.Sprintf("bool:%v", bool(x))
	case *stackitem.Integer:
		return "int:" + x.String()
	case *stackitem.ByteString:
		return "bytes:" + hex.EncodeToString(x.Bytes())
	case *stackitem.Buffer:
		return "buffer:" + hex.EncodeToString(x.Bytes())
	case *stackitem.Pointer:
		return fmt.Sprintf("ptr:%d", x.Position())
	case *stackitem.Interop:
		return "interop"
	case *stackitem.Array:
		parts := make([]string, x.Len())
		for i, e := range x.Items() {
			parts[i] = canonActual(e, depth+1)
		}
		name := "array"
		if x.IsStruct() {
			name = "struct"
		}
		return name + "[" + strings.Join(parts, ",") + "]"
	case *stackitem.Map:
		var parts []string
		for _, e := range x.Elements() {
			kb, _ := e.Key.TryBytes()
			parts = append(parts, hex.EncodeToString(kb)+"="+canonActual(e.Value, depth+1))
		}
		return "map{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("unknown:%T", item)
}

func compareItems(what string, expected []jsonItem, actual []stackitem.Item) error {
	if len(expected) != len(actual) {
		return fmt.Errorf("%s: length %d, want %d", what, len(actual), len(expected))
	}
	for i := range expected {
		want, err := canonExpected(expected[i])
		if err != nil {
			return fmt.Errorf("%s #%d: %w", what, i, err)
		}
		if got := canonActual(actual[i], 0); got != want {
			return fmt.Errorf("%s #%d: got %s, want %s", what, i, got, want)
		}
	}
	return nil
}

// topFirst returns the stack items with the top at index 0.
func topFirst(items []stackitem.Item) []stackitem.Item {
	res := make([]stackitem.Item, len(items))
	for i, it := range items {
		res[len(items)-1-i] = it
	}
	return res
}

// jsonTestSyscall is the SYSCALL handler of the C# TestEngine.
func jsonTestSyscall(v *VM, id uint32) error {
	switch id {
	case 0x77777777:
		v.Push(stackitem.NewInterop(new(struct{ x int })))
		return nil
	case 0xaddeadde:
		return v.Throw(stackitem.NewByteString([]byte("error")))
	}
	return fmt.Errorf("%w: unknown syscall %08x", ErrNoHandler, id)
}

func checkResult(v *VM, want jsonResult) error {
	if !strings.EqualFold(v.State().String(), want.State) {
		return fmt.Errorf("state %s, want %s (fault: %v)", v.State(), want.State, v.FaultError())
	}
	if v.State() == vmstate.Fault {
		if want.ExceptionMessage != nil {
			f, ok := v.FaultError().(*Fault)
			if !ok {
				return fmt.Errorf("fault error %v is not a *Fault", v.FaultError())
			}
			if got := f.Err.Error(); got != *want.ExceptionMessage {
				return fmt.Errorf("exception message %q, want %q", got, *want.ExceptionMessage)
			}
		}
		return nil
	}
	is := v.InvocationStack()
	if len(is) != len(want.InvocationStack) {
		return fmt.Errorf("invocation stack length %d, want %d", len(is), len(want.InvocationStack))
	}
	for x, wc := range want.InvocationStack {
		ctx := is[len(is)-1-x]
		op := opcode.RET
		if b := ctx.Script().Bytes(); ctx.IP() < len(b) {
			op = opcode.Opcode(b[ctx.IP()])
		}
		if op.String() != wc.NextInstruction {
			return fmt.Errorf("context %d: next instruction %s, want %s", x, op, wc.NextInstruction)
		}
		if ctx.IP() != wc.InstructionPointer {
			return fmt.Errorf("context %d: IP %d, want %d", x, ctx.IP(), wc.InstructionPointer)
		}
		if wc.EvaluationStack != nil {
			if err := compareItems(fmt.Sprintf("context %d evaluation stack", x), wc.EvaluationStack, topFirst(ctx.Estack().Items())); err != nil {
				return err
			}
		}
		if err := compareItems(fmt.Sprintf("context %d arguments", x), wc.Arguments, ctx.Arguments()); err != nil {
			return err
		}
		if err := compareItems(fmt.Sprintf("context %d locals", x), wc.LocalVariables, ctx.LocalVariables()); err != nil {
			return err
		}
		if err := compareItems(fmt.Sprintf("context %d statics", x), wc.StaticFields, ctx.StaticFields()); err != nil {
			return err
		}
	}
	if want.ResultStack != nil {
		if err := compareItems("result stack", want.ResultStack, topFirst(v.ResultStack().Items())); err != nil {
			return err
		}
	}
	if want.Refs != nil && v.Refs() != *want.Refs {
		return fmt.Errorf("refs %d, want %d", v.Refs(), *want.Refs)
	}
	return nil
}

func runJSONTest(t *testing.T, test jsonTest) int {
	script, err := decodeScript(test.Script)
	if err != nil {
		t.Fatalf("script: %v", err)
	}
	v := New()
	v.SetHooks(Hooks{Syscall: jsonTestSyscall})
	if len(script) > 0 {
		if _, err := v.LoadScript(NewScript(script)); err != nil {
			t.Fatal(err)
		}
	}
	for i, step := range test.Steps {
		for _, a := range step.Actions {
			switch strings.ToLower(a) {
			case "execute":
				v.Run()
			case "stepinto":
				v.StepInto()
			case "stepover":
				v.StepOver()
			case "stepout":
				v.StepOut()
			default:
				t.Fatalf("unknown action %q", a)
			}
		}
		if err := checkResult(v, step.Result); err != nil {
			t.Errorf("step %d %q: %v", i, step.Name, err)
		}
	}
	return len(test.Steps)
}

func TestJSONSuite(t *testing.T) {
	root := filepath.Join("testdata", "neovm")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var nFiles, nTests, nSteps int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		var jf jsonFile
		if err := json.Unmarshal(data, &jf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		nFiles++
		rel, _ := filepath.Rel(root, f)
		for i, test := range jf.Tests {
			nTests++
			t.Run(fmt.Sprintf("%s/%d_%s", rel, i, test.Name), func(t *testing.T) {
				nSteps += runJSONTest(t, test)
			})
		}
	}
	t.Logf("NeoVM JSON suite: %d files, %d tests, %d steps", nFiles, nTests, nSteps)
	if nFiles == 0 {
		t.Fatal("no test files found")
	}
	if nFiles != 163 || nTests != 782 || nSteps != 1521 {
		t.Errorf("ran %d files, %d tests, %d steps; want 163, 782, 1521", nFiles, nTests, nSteps)
	}
}
