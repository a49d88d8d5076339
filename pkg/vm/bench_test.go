package vm

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// Benchmark scripts. Each is straight-line code repeating one pattern (so
// ns/step is the cost of one instruction of that class plus its share of
// the pattern) or a whole workload. The same bytes run on neo-go for the
// comparison in docs/perf.md (TestWriteBenchScripts exports them).

type benchScript struct {
	Name   string `json:"name"`
	Script []byte `json:"-"`
	Hex    string `json:"hex"`
	Steps  int    `json:"steps"`
}

func repeat(w *nio.BinWriter, n int, f func()) {
	for range n {
		f()
	}
}

func benchScripts() []benchScript {
	const n = 1000
	mk := func(name string, f func(w *nio.BinWriter)) benchScript {
		b, err := emit.Script(f)
		if err != nil {
			panic(err)
		}
		return benchScript{Name: name, Script: b}
	}
	big := make([]byte, 32)
	for i := range big {
		big[i] = byte(i * 7)
	}
	big[31] = 0x3f
	scripts := []benchScript{
		mk("push-drop", func(w *nio.BinWriter) {
			repeat(w, n, func() { emit.Opcodes(w, opcode.PUSH1, opcode.DROP) })
		}),
		mk("pushint32-drop", func(w *nio.BinWriter) {
			repeat(w, n, func() { emit.Int(w, 1000000); emit.Opcodes(w, opcode.DROP) })
		}),
		mk("pushdata-drop", func(w *nio.BinWriter) {
			repeat(w, n, func() { emit.Bytes(w, big); emit.Opcodes(w, opcode.DROP) })
		}),
		mk("add", func(w *nio.BinWriter) {
			emit.Int(w, 1)
			repeat(w, n, func() { emit.Opcodes(w, opcode.PUSH2, opcode.ADD) })
		}),
		mk("mul-big", func(w *nio.BinWriter) {
			emit.Instruction(w, opcode.PUSHINT128, big[:16])
			repeat(w, n, func() { emit.Opcodes(w, opcode.DUP, opcode.DUP, opcode.MUL, opcode.SWAP, opcode.DIV) })
		}),
		mk("lt-jmp", func(w *nio.BinWriter) {
			repeat(w, n, func() {
				emit.Opcodes(w, opcode.PUSH1, opcode.PUSH2, opcode.LT)
				emit.Jmp(w, opcode.JMPIFNOT, 2)
			})
		}),
		mk("stack-rot", func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.PUSH1, opcode.PUSH2, opcode.PUSH3)
			repeat(w, n, func() { emit.Opcodes(w, opcode.ROT, opcode.SWAP, opcode.OVER, opcode.DROP) })
		}),
		mk("slot-ld-st", func(w *nio.BinWriter) {
			emit.InitSlot(w, 1, 0)
			repeat(w, n, func() { emit.Opcodes(w, opcode.LDLOC0, opcode.STLOC0) })
		}),
		mk("call-ret", func(w *nio.BinWriter) {
			// JMP over the function (a RET at 2), then n CALL_Ls to it.
			emit.Jmp(w, opcode.JMP, 3)
			emit.Opcodes(w, opcode.RET)
			for k := range n {
				emit.Instruction(w, opcode.CALLL, le32(int32(2-(3+5*k))))
			}
		}),
		mk("append", func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWARRAY0)
			repeat(w, n, func() { emit.Opcodes(w, opcode.DUP, opcode.PUSH7, opcode.APPEND) })
		}),
		mk("pickitem", func(w *nio.BinWriter) {
			emit.Int(w, 16)
			emit.Opcodes(w, opcode.NEWARRAY)
			repeat(w, n, func() { emit.Opcodes(w, opcode.DUP, opcode.PUSH5, opcode.PICKITEM, opcode.DROP) })
		}),
		mk("cat-left", func(w *nio.BinWriter) {
			emit.Bytes(w, big)
			repeat(w, n, func() { emit.Opcodes(w, opcode.DUP, opcode.CAT); emit.Int(w, 32); emit.Opcodes(w, opcode.LEFT) })
		}),
		mk("equal-bytes", func(w *nio.BinWriter) {
			repeat(w, n, func() { emit.Bytes(w, big); emit.Bytes(w, big); emit.Opcodes(w, opcode.EQUAL, opcode.DROP) })
		}),
		mk("loop-1M", func(w *nio.BinWriter) {
			// i = 0; while (i < 1000000) i++;
			emit.InitSlot(w, 1, 0)                                                // 0..2
			emit.Opcodes(w, opcode.PUSH0, opcode.STLOC0)                          // 3, 4
			emit.Opcodes(w, opcode.LDLOC0)                                        // 5
			emit.Instruction(w, opcode.PUSHINT32, []byte{0x40, 0x42, 0x0f, 0x00}) // 6..10
			emit.Opcodes(w, opcode.LT)                                            // 11
			emit.Jmp(w, opcode.JMPIFNOT, 7)                                       // 12, 13 -> 19
			emit.Opcodes(w, opcode.LDLOC0, opcode.INC, opcode.STLOC0)             // 14..16
			emit.Jmp(w, opcode.JMP, -12)                                          // 17, 18 -> 5
			emit.Opcodes(w, opcode.RET)                                           // 19
		}),
		mk("pack-unpack-1000", func(w *nio.BinWriter) {
			repeat(w, n, func() { emit.Opcodes(w, opcode.PUSH1) })
			emit.Int(w, n)
			emit.Opcodes(w, opcode.PACK, opcode.UNPACK, opcode.PACK, opcode.DROP)
		}),
		mk("map-1000-set-get", func(w *nio.BinWriter) {
			emit.Opcodes(w, opcode.NEWMAP)
			for i := range n {
				emit.Opcodes(w, opcode.DUP)
				emit.Int(w, int64(i))
				emit.Int(w, int64(i))
				emit.Opcodes(w, opcode.SETITEM)
			}
			for i := range n {
				emit.Opcodes(w, opcode.DUP)
				emit.Int(w, int64(i))
				emit.Opcodes(w, opcode.PICKITEM, opcode.DROP)
			}
		}),
	}
	for i := range scripts {
		s := &scripts[i]
		s.Hex = hex.EncodeToString(s.Script)
		v := New()
		v.SetHooks(Hooks{PreStep: func(*VM, *Context, opcode.Opcode) { s.Steps++ }})
		if _, err := v.LoadScript(NewScript(s.Script)); err != nil {
			panic(err)
		}
		if st := v.Execute(); st != vmstate.Halt {
			panic(s.Name + ": " + v.FaultError().Error())
		}
	}
	return scripts
}

func le32(v int32) []byte {
	return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
}

// TestWriteBenchScripts writes the benchmark scripts for the neo-go
// comparison when BENCH_SCRIPTS_OUT names a file.
func TestWriteBenchScripts(t *testing.T) {
	scripts := benchScripts()
	out := os.Getenv("BENCH_SCRIPTS_OUT")
	if out == "" {
		return
	}
	data, _ := json.MarshalIndent(scripts, "", " ")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// threadCPU returns the CPU time of the calling OS thread. The benchmarks
// report it next to wall time because the shared benchmark machine is often
// busy: wall time then includes time the thread waited for a CPU.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkScripts(b *testing.B) {
	for _, s := range benchScripts() {
		b.Run(s.Name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			v := New()
			script := NewScript(s.Script)
			b.ReportAllocs()
			cpu0 := threadCPU()
			for b.Loop() {
				v.Reset()
				if _, err := v.LoadScript(script); err != nil {
					b.Fatal(err)
				}
				if v.Execute() != vmstate.Halt {
					b.Fatal(v.FaultError())
				}
			}
			cpu := threadCPU() - cpu0
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.Steps), "ns/step")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(s.Steps), "cpu-ns/step")
		})
	}
}

// BenchmarkScriptsWithGas is BenchmarkScripts with opcode charging on, as a
// node runs transactions.
func BenchmarkScriptsWithGas(b *testing.B) {
	for _, s := range benchScripts() {
		if s.Name != "loop-1M" && s.Name != "add" && s.Name != "push-drop" {
			continue
		}
		b.Run(s.Name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			v := New()
			script := NewScript(s.Script)
			b.ReportAllocs()
			cpu0 := threadCPU()
			for b.Loop() {
				v.Reset()
				v.SetExecFeeFactor(30 * FeeFactor)
				v.SetGasLimit(1 << 40)
				if _, err := v.LoadScript(script); err != nil {
					b.Fatal(err)
				}
				if v.Execute() != vmstate.Halt {
					b.Fatal(v.FaultError())
				}
			}
			cpu := threadCPU() - cpu0
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.Steps), "ns/step")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(s.Steps), "cpu-ns/step")
		})
	}
}
