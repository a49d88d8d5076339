package vm

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/interopid"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

func build(t *testing.T, f func(w *nio.BinWriter)) []byte {
	t.Helper()
	b, err := emit.Script(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tryCatch builds TRY { body } CATCH { catch } (the exception is on the
// stack when catch starts).
func tryCatch(t *testing.T, body, catch func(w *nio.BinWriter)) []byte {
	t.Helper()
	inner, handler := build(t, body), build(t, catch)
	return build(t, func(w *nio.BinWriter) {
		emit.Try(w, int32(3+len(inner)+2), 0)
		w.WriteBytes(inner)
		emit.Jmp(w, opcode.ENDTRY, int32(2+len(handler)+2))
		w.WriteBytes(handler)
		emit.Jmp(w, opcode.ENDTRY, 2)
	})
}

func run(t *testing.T, v *VM, script []byte) vmstate.State {
	t.Helper()
	if _, err := v.LoadScript(NewScript(script)); err != nil {
		t.Fatal(err)
	}
	return v.Execute()
}

func TestGas(t *testing.T) {
	// PUSH1 PUSH2 ADD = 1 + 1 + 8 units; the implicit RET is free.
	script := []byte{byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.ADD)}
	v := New()
	v.SetExecFeeFactor(30 * FeeFactor)
	v.SetGasLimit(300)
	if st := run(t, v, script); st != vmstate.Halt {
		t.Fatalf("state %s: %v", st, v.FaultError())
	}
	if v.GasConsumed() != 300 || v.GasLeft() != 0 {
		t.Errorf("consumed %d left %d", v.GasConsumed(), v.GasLeft())
	}

	v = New()
	v.SetExecFeeFactor(30 * FeeFactor)
	v.SetGasLimit(299)
	if st := run(t, v, script); st != vmstate.Fault || !errors.Is(v.FaultError(), ErrGasLimit) {
		t.Fatalf("state %s: %v", st, v.FaultError())
	}
	// The failing instruction stays charged, as in C# AddFee.
	if v.GasConsumed() != 300 {
		t.Errorf("consumed %d", v.GasConsumed())
	}

	// picoGAS factors (HF_Faun): FeeConsumed rounds up.
	v = New()
	v.SetExecFeeFactor(12345)
	if st := run(t, v, script); st != vmstate.Halt {
		t.Fatal(st)
	}
	if v.PicoGasConsumed() != 123450 || v.GasConsumed() != 13 {
		t.Errorf("pico %d datoshi %d", v.PicoGasConsumed(), v.GasConsumed())
	}
	if err := v.AddGas(7); err != nil || v.PicoGasConsumed() != 193450 {
		t.Errorf("AddGas: %v %d", err, v.PicoGasConsumed())
	}

	// A fee-exempt invocation runs for free.
	v = New()
	v.SetExecFeeFactor(30 * FeeFactor)
	v.SetGasLimit(0)
	if _, err := v.LoadScriptWith(NewScript(script), LoadParams{RVCount: -1, FeeExempt: true}); err != nil {
		t.Fatal(err)
	}
	if v.Execute() != vmstate.Halt || v.GasConsumed() != 0 {
		t.Errorf("exempt: %s %d %v", v.State(), v.GasConsumed(), v.FaultError())
	}
}

// invoke emulates a contract call made by a syscall: it loads callee with a
// return-value count of 1 and the caller's hash.
const callID = 0x01020304

func TestHooksAndInvocations(t *testing.T) {
	callee := build(t, func(w *nio.BinWriter) {
		emit.Int(w, 42)
		emit.Int(w, 7)
		emit.Opcodes(w, opcode.DROP)
	})
	thrower := build(t, func(w *nio.BinWriter) {
		emit.Int(w, 1)
		emit.Int(w, 2) // left on the callee's stack when it throws
		emit.String(w, "boom")
		emit.Opcodes(w, opcode.THROW)
	})
	type unload struct {
		hash   hash.Uint160
		normal bool
	}
	var unloads []unload
	var loaded int
	hooks := Hooks{
		Syscall: func(v *VM, id uint32) error {
			item, err := v.Pop()
			if err != nil {
				return err
			}
			which, _ := item.TryInteger()
			script, h := callee, hash.Uint160{1}
			if which.Int64() == 2 {
				script, h = thrower, hash.Uint160{2}
			}
			_, err = v.LoadScriptWith(NewScript(script), LoadParams{
				RVCount: 1, ScriptHash: h, CallingScriptHash: v.Context().ScriptHash(), Data: "x",
			})
			return err
		},
		Loaded: func(*VM, *Context) { loaded++ },
		Unloaded: func(v *VM, ctx *Context, normal bool) error {
			unloads = append(unloads, unload{ctx.ScriptHash(), normal})
			if ctx.Data() != nil && ctx.Data() != "x" {
				return errors.New("bad data")
			}
			return nil
		},
	}

	// main: call callee, then call thrower inside TRY/CATCH.
	main := build(t, func(w *nio.BinWriter) {
		emit.Int(w, 1)
		emit.SyscallID(w, callID)
		emit.Try(w, 11, 0) // at 6, catch at 17
		emit.Int(w, 2)
		emit.SyscallID(w, callID)     // at 10
		emit.Jmp(w, opcode.ENDTRY, 4) // at 15, to the end (19)
		// catch: the exception is on the stack
		emit.Jmp(w, opcode.ENDTRY, 2)
	})
	v := New()
	v.SetHooks(hooks)
	if st := run(t, v, main); st != vmstate.Halt {
		t.Fatalf("state %s: %v", st, v.FaultError())
	}
	res := v.ResultStack().Items()
	if len(res) != 2 || !sameItem(res[0], stackitem.NewInt(42)) || string(res[1].(*stackitem.ByteString).Bytes()) != "boom" {
		t.Fatalf("results %v", res)
	}
	want := []unload{{hash.Uint160{1}, true}, {hash.Uint160{2}, false}, {hash.Uint160{}, true}}
	if len(unloads) != len(want) {
		t.Fatalf("unloads %v", unloads)
	}
	for i := range want {
		if unloads[i] != want[i] {
			t.Errorf("unload %d = %v, want %v", i, unloads[i], want[i])
		}
	}
	if loaded != 3 {
		t.Errorf("loaded %d", loaded)
	}
	// The thrower's two integers stay counted (C# does not clear the stack
	// of a context unwound by an exception): 2 results + 2 leftovers.
	if v.Refs() != 4 {
		t.Errorf("refs %d, want 4", v.Refs())
	}

	// A wrong return-value count faults.
	bad := build(t, func(w *nio.BinWriter) { emit.Opcodes(w, opcode.PUSH1, opcode.PUSH2) })
	v = New()
	v.SetHooks(Hooks{Syscall: func(v *VM, id uint32) error {
		_, err := v.LoadScriptWith(NewScript(bad), LoadParams{RVCount: 1})
		return err
	}})
	if st := run(t, v, build(t, func(w *nio.BinWriter) { emit.SyscallID(w, 1) })); st != vmstate.Fault {
		t.Errorf("rvcount mismatch: %s", st)
	}

	// An unloaded hook error faults the VM.
	v = New()
	v.SetHooks(Hooks{Unloaded: func(*VM, *Context, bool) error { return errors.New("no") }})
	if st := run(t, v, []byte{byte(opcode.PUSH1)}); st != vmstate.Fault {
		t.Errorf("unload error: %s", st)
	}
}

func TestSyscallAndCallT(t *testing.T) {
	v := New()
	if st := run(t, v, build(t, func(w *nio.BinWriter) { emit.Syscall(w, "System.Runtime.Log") })); st != vmstate.Fault || !errors.Is(v.FaultError(), ErrNoHandler) {
		t.Errorf("no hook: %s %v", st, v.FaultError())
	}
	var got uint32
	var token uint16
	v = New()
	v.SetHooks(Hooks{
		Syscall: func(v *VM, id uint32) error { got = id; return nil },
		CallT:   func(v *VM, t uint16) error { token = t; v.Push(stackitem.NewInt(int64(t))); return nil },
	})
	script := build(t, func(w *nio.BinWriter) {
		emit.Syscall(w, "System.Runtime.Log")
		emit.Instruction(w, opcode.CALLT, []byte{0x34, 0x12})
	})
	if st := run(t, v, script); st != vmstate.Halt {
		t.Fatal(st, v.FaultError())
	}
	if got != interopid.FromName("System.Runtime.Log") || token != 0x1234 {
		t.Errorf("id %08x token %x", got, token)
	}
}

func TestPointersAcrossInvocations(t *testing.T) {
	// A pointer made by one invocation can't be called from another, even of
	// the same script bytes.
	var ptr stackitem.Item
	script := build(t, func(w *nio.BinWriter) {
		emit.Instruction(w, opcode.PUSHA, []byte{0, 0, 0, 0})
	})
	v := New()
	run(t, v, script)
	ptr = v.ResultStack().Items()[0]
	v2 := New()
	v2.SetHooks(Hooks{Syscall: func(v *VM, _ uint32) error { v.Push(ptr); return nil }})
	st := run(t, v2, build(t, func(w *nio.BinWriter) {
		emit.SyscallID(w, 1)
		emit.Opcodes(w, opcode.CALLA)
	}))
	if st != vmstate.Fault {
		t.Errorf("foreign pointer: %s", st)
	}
	// Within one invocation, CALLA works, also from a CALL clone.
	st = run(t, New(), build(t, func(w *nio.BinWriter) {
		emit.Instruction(w, opcode.PUSHA, []byte{7, 0, 0, 0}) // points at PUSH5
		emit.Opcodes(w, opcode.CALLA, opcode.RET, opcode.PUSH5, opcode.RET)
	}))
	if st != vmstate.Halt {
		t.Errorf("CALLA: %s", st)
	}
}

func TestHardforkVariants(t *testing.T) {
	type result struct {
		state vmstate.State
		top   stackitem.Item
	}
	exec := func(rules Rules, script []byte) result {
		v := New()
		v.SetRules(rules)
		if _, err := v.LoadScript(NewScript(script)); err != nil {
			t.Fatal(err)
		}
		st := v.Execute()
		var top stackitem.Item
		if st == vmstate.Halt && v.ResultStack().Len() > 0 {
			top = v.ResultStack().Items()[v.ResultStack().Len()-1]
		}
		return result{st, top}
	}
	pre := Rules{}
	preGorgon := Rules{Echidna: true}
	latest := LatestRules()
	caught := func(body func(w *nio.BinWriter)) []byte {
		return tryCatch(t, body, func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.DROP)
			emit.String(w, "caught")
		})
	}
	bigIndex := new(big.Int).Lsh(big.NewInt(1), 40)
	cases := []struct {
		name      string
		script    []byte
		old, newR result
	}{
		{
			name:   "SHL by 0 keeps the operand",
			script: build(t, func(w *nio.BinWriter) { emit.String(w, "ab"); emit.Int(w, 0); emit.Opcodes(w, opcode.SHL) }),
			old:    result{vmstate.Halt, stackitem.NewByteString([]byte("ab"))},
			newR:   result{vmstate.Halt, stackitem.NewInt(0x6261)},
		},
		{
			name:   "SHR by 0 of a Map",
			script: build(t, func(w *nio.BinWriter) { emit.Opcodes(w, opcode.NEWMAP, opcode.PUSH0, opcode.SHR, opcode.SIZE) }),
			old:    result{vmstate.Halt, stackitem.NewInt(0)},
			newR:   result{vmstate.Fault, nil},
		},
		{
			name: "HASKEY beyond MaxItemSize",
			script: build(t, func(w *nio.BinWriter) {
				emit.Opcodes(w, opcode.NEWARRAY0)
				emit.Int(w, MaxItemSize)
				emit.Opcodes(w, opcode.HASKEY)
			}),
			old:  result{vmstate.Halt, stackitem.Bool(false)},
			newR: result{vmstate.Fault, nil},
		},
		{
			name: "HASKEY beyond int32",
			script: build(t, func(w *nio.BinWriter) {
				emit.Opcodes(w, opcode.NEWARRAY0)
				emit.BigInt(w, bigIndex)
				emit.Opcodes(w, opcode.HASKEY)
			}),
			old:  result{vmstate.Fault, nil},
			newR: result{vmstate.Fault, nil},
		},
		{
			name: "PICKITEM beyond int32 is catchable after Gorgon",
			script: caught(func(w *nio.BinWriter) {
				emit.Opcodes(w, opcode.NEWARRAY0)
				emit.BigInt(w, bigIndex)
				emit.Opcodes(w, opcode.PICKITEM)
			}),
			old:  result{vmstate.Fault, nil},
			newR: result{vmstate.Halt, stackitem.NewByteString([]byte("caught"))},
		},
		{
			name: "PICKITEM out of range is catchable before Gorgon too",
			script: caught(func(w *nio.BinWriter) {
				emit.Opcodes(w, opcode.NEWARRAY0)
				emit.Int(w, 5)
				emit.Opcodes(w, opcode.PICKITEM)
			}),
			old:  result{vmstate.Halt, stackitem.NewByteString([]byte("caught"))},
			newR: result{vmstate.Halt, stackitem.NewByteString([]byte("caught"))},
		},
		{
			name: "SETITEM beyond int32 is catchable after Gorgon",
			script: caught(func(w *nio.BinWriter) {
				emit.Opcodes(w, opcode.NEWARRAY0)
				emit.BigInt(w, bigIndex)
				emit.Int(w, 1)
				emit.Opcodes(w, opcode.SETITEM)
			}),
			old:  result{vmstate.Fault, nil},
			newR: result{vmstate.Halt, stackitem.NewByteString([]byte("caught"))},
		},
		{
			name: "SETITEM -1 into a Buffer",
			script: build(t, func(w *nio.BinWriter) {
				emit.Int(w, 1)
				emit.Opcodes(w, opcode.NEWBUFFER, opcode.DUP, opcode.PUSH0, opcode.PUSHM1, opcode.SETITEM)
			}),
			old:  result{vmstate.Halt, stackitem.NewBuffer([]byte{0xff})},
			newR: result{vmstate.Fault, nil},
		},
		{
			name: "REMOVE beyond int32 faults either way",
			script: build(t, func(w *nio.BinWriter) {
				emit.Opcodes(w, opcode.NEWARRAY0)
				emit.BigInt(w, bigIndex)
				emit.Opcodes(w, opcode.REMOVE)
			}),
			old:  result{vmstate.Fault, nil},
			newR: result{vmstate.Fault, nil},
		},
	}
	same := func(a, b result) bool {
		if a.state != b.state {
			return false
		}
		if a.top == nil || b.top == nil {
			return a.top == nil && b.top == nil
		}
		if a.top.Type() == stackitem.BufferT {
			return b.top.Type() == stackitem.BufferT && string(a.top.(*stackitem.Buffer).Bytes()) == string(b.top.(*stackitem.Buffer).Bytes())
		}
		return sameItem(a.top, b.top)
	}
	for _, c := range cases {
		for _, r := range []Rules{pre, preGorgon} {
			if got := exec(r, c.script); !same(got, c.old) {
				t.Errorf("%s, %+v: got %s %v, want %s %v", c.name, r, got.state, got.top, c.old.state, c.old.top)
			}
		}
		if got := exec(latest, c.script); !same(got, c.newR) {
			t.Errorf("%s, latest: got %s %v, want %s %v", c.name, got.state, got.top, c.newR.state, c.newR.top)
		}
	}
	// SUBSTR: index+count beyond int32 faults before and after Echidna.
	sub := build(t, func(w *nio.BinWriter) {
		emit.String(w, "abc")
		emit.Int(w, 1)
		emit.Int(w, 1<<31-1)
		emit.Opcodes(w, opcode.SUBSTR)
	})
	for _, r := range []Rules{pre, preGorgon, latest} {
		if got := exec(r, sub); got.state != vmstate.Fault {
			t.Errorf("SUBSTR overflow %+v: %s", r, got.state)
		}
	}
	// Only the error tells the two SUBSTR forms apart: the checked sum
	// comes with Echidna and stays after Gorgon.
	for r, want := range map[Rules]string{
		pre:       "Specified argument was out of the range of valid values.",
		preGorgon: "Arithmetic operation resulted in an overflow.",
		latest:    "Arithmetic operation resulted in an overflow.",
	} {
		v := New()
		v.SetRules(r)
		if _, err := v.LoadScript(NewScript(sub)); err != nil {
			t.Fatal(err)
		}
		v.Execute()
		if err := v.FaultError(); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("SUBSTR overflow %+v: error %v, want %q", r, err, want)
		}
	}
}

func TestValidateScript(t *testing.T) {
	good := [][]byte{
		{},
		{byte(opcode.JMP), 2, byte(opcode.RET)},
		{byte(opcode.TRY), 0, 3, byte(opcode.ENDFINALLY)},
		{byte(opcode.NEWARRAYT), 0x00},
		{byte(opcode.CONVERT), 0x28},
		{byte(opcode.PUSHA), 0, 0, 0, 0},
	}
	for _, s := range good {
		if err := ValidateScript(s); err != nil {
			t.Errorf("%x: %v", s, err)
		}
	}
	bad := [][]byte{
		{0xff},
		{byte(opcode.PUSHDATA1), 5, 1},
		{byte(opcode.JMP), 1, byte(opcode.RET)},
		{byte(opcode.JMP), 3, byte(opcode.RET)},
		{byte(opcode.CALL), 0x80},
		{byte(opcode.TRY), 0, 1},
		{byte(opcode.ISTYPE), 0x00},
		{byte(opcode.CONVERT), 0x01},
		{byte(opcode.PUSHA), 5, 0, 0, 0},
		{byte(opcode.PUSHDATA4), 0xff, 0xff, 0xff, 0xff},
	}
	for _, s := range bad {
		if err := ValidateScript(s); !errors.Is(err, ErrBadScript) {
			t.Errorf("%x: %v", s, err)
		}
	}
}

func TestDebugger(t *testing.T) {
	script := NewScript([]byte{byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.ADD), byte(opcode.PUSH3)})
	v := New()
	if _, err := v.LoadScript(script); err != nil {
		t.Fatal(err)
	}
	v.AddBreakPoint(script, 2)
	if st := v.Run(); st != vmstate.Break || v.Context().IP() != 2 {
		t.Fatalf("breakpoint: %s at %d", st, v.Context().IP())
	}
	if op, _, _ := v.Context().NextInstruction(); op != opcode.ADD {
		t.Errorf("next %s", op)
	}
	if !v.RemoveBreakPoint(script, 2) || v.RemoveBreakPoint(script, 2) {
		t.Error("RemoveBreakPoint")
	}
	if st := v.StepInto(); st != vmstate.Break || v.Context().IP() != 3 {
		t.Errorf("step: %s %d", st, v.Context().IP())
	}
	if st := v.Run(); st != vmstate.Halt || v.ResultStack().Len() != 2 {
		t.Errorf("run: %s %d", st, v.ResultStack().Len())
	}
}

func TestReset(t *testing.T) {
	v := New()
	v.SetExecFeeFactor(FeeFactor)
	v.SetRules(Rules{})
	run(t, v, []byte{byte(opcode.PUSH1), byte(opcode.NEWARRAY)})
	if v.Refs() != 2 || v.GasConsumed() == 0 {
		t.Fatalf("refs %d gas %d", v.Refs(), v.GasConsumed())
	}
	v.Reset()
	if v.Refs() != 0 || v.GasConsumed() != 0 || v.State() != vmstate.Break || v.ResultStack().Len() != 0 || v.Context() != nil || v.Rules() != LatestRules() {
		t.Fatal("reset left state behind")
	}
	if st := run(t, v, []byte{byte(opcode.PUSH5)}); st != vmstate.Halt || v.ResultStack().Len() != 1 {
		t.Errorf("reuse: %s", st)
	}
}

func TestLimits(t *testing.T) {
	// 2048 references are fine, 2049 fault.
	ok := build(t, func(w *nio.BinWriter) { emit.Int(w, 2047); emit.Opcodes(w, opcode.NEWARRAY) })
	if st := run(t, New(), ok); st != vmstate.Halt {
		t.Errorf("2048 refs: %s", st)
	}
	over := build(t, func(w *nio.BinWriter) { emit.Int(w, 2048); emit.Opcodes(w, opcode.NEWARRAY) })
	v := New()
	if st := run(t, v, over); st != vmstate.Fault || !errors.Is(v.FaultError(), ErrStackLimit) {
		t.Errorf("2049 refs: %s %v", st, v.FaultError())
	}
	// Recursion stops at MaxInvocationStackSize.
	v = New()
	if st := run(t, v, []byte{byte(opcode.CALL), 0}); st != vmstate.Fault {
		t.Errorf("recursion: %s", st)
	}
	if len(v.InvocationStack()) != MaxInvocationStackSize {
		t.Errorf("depth %d", len(v.InvocationStack()))
	}
	// TRY nesting stops at MaxTryNestingDepth.
	nest := make([]byte, 0, 3*(MaxTryNestingDepth+1))
	for range MaxTryNestingDepth + 1 {
		nest = append(nest, byte(opcode.TRY), 3, 0)
	}
	v = New()
	if st := run(t, v, nest); st != vmstate.Fault {
		t.Errorf("TRY nesting: %s", st)
	}
	// TRY_L and ENDTRY_L work like the short forms.
	s := build(t, func(w *nio.BinWriter) {
		emit.Instruction(w, opcode.TRYL, []byte{0, 0, 0, 0, 17, 0, 0, 0})
		emit.Int(w, 1)
		emit.Instruction(w, opcode.ENDTRYL, []byte{9, 0, 0, 0})
		emit.Int(w, 2)
		emit.Opcodes(w, opcode.RET)
		emit.Int(w, 3)
		emit.Opcodes(w, opcode.ENDFINALLY)
		emit.Int(w, 4)
	})
	v = New()
	if st := run(t, v, s); st != vmstate.Halt {
		t.Fatalf("TRY_L: %s %v", st, v.FaultError())
	}
	var got []int64
	for _, it := range v.ResultStack().Items() {
		x, _ := it.(*stackitem.Integer).Int64()
		got = append(got, x)
	}
	if len(got) != 3 || got[0] != 1 || got[1] != 3 || got[2] != 4 {
		t.Errorf("TRY_L results %v", got)
	}
}
