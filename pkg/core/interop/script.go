package interop

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrInvalidScript is returned by CheckScript.
var ErrInvalidScript = errors.New("invalid script")

// Sizes of CheckScript's stack buffers: 32 instructions and the starts
// bitmap of a 1,024-byte script (a signature witness has 3 instructions, a
// NEP-17 transfer about 12); longer scripts spill to the heap.
const (
	checkScriptBufIns   = 32
	checkScriptBufWords = 1024 / 64
)

// CheckScript is neo-go's script check (scparser.IsScriptCorrect), used for
// deployed and updated contracts (from HF_Basilisk), System.Runtime.
// LoadScript and witness scripts: every instruction decodes, every jump,
// call, TRY and PUSHA target is an instruction boundary or the end of the
// script, type operands are valid, and every method offset is an instruction
// boundary. (C# strict mode rejects a jump to the end of the script; neo-go
// accepts it and is followed.)
func CheckScript(script []byte, methodOffsets []int) error {
	// Witness and transaction scripts are short: their instructions and
	// the bitmap of instruction starts fit in buffers on the stack, so the
	// check allocates nothing on the transaction admission path.
	var (
		insBuf   [checkScriptBufIns]vm.Instruction
		startBuf [checkScriptBufWords]uint64
	)
	ins, err := vm.AppendInstructions(insBuf[:0], script)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidScript, err)
	}
	starts := startBuf[:]
	if words := (len(script) + 63) / 64; words > len(starts) {
		starts = make([]uint64, words)
	}
	for _, in := range ins {
		starts[in.IP/64] |= 1 << (in.IP % 64)
	}
	isStart := func(ip int) bool {
		return ip >= 0 && ip < len(script) && starts[ip/64]&(1<<(ip%64)) != 0
	}
	check := func(in vm.Instruction, off int64) error {
		t := int64(in.IP) + off
		if t < 0 || t > int64(len(script)) {
			return fmt.Errorf("%w: invalid offset %d at offset %d", ErrInvalidScript, off, in.IP)
		}
		if t == int64(len(script)) {
			return nil
		}
		if !isStart(int(t)) {
			return fmt.Errorf("%w: some jumps are done to wrong offsets (not to instruction boundary)", ErrInvalidScript)
		}
		return nil
	}
	err = vm.CheckOperands(ins, check, func(in vm.Instruction, t stackitem.Type) error {
		if !t.IsValid() {
			return fmt.Errorf("%w: invalid type specification at offset %d", ErrInvalidScript, in.IP)
		}
		if t == stackitem.AnyT && in.Op != opcode.NEWARRAYT {
			return fmt.Errorf("%w: using type ANY is incorrect at offset %d", ErrInvalidScript, in.IP)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, off := range methodOffsets {
		if !isStart(off) {
			return fmt.Errorf("%w: some methods point to wrong offsets (not to instruction boundary)", ErrInvalidScript)
		}
	}
	return nil
}
