package notary

import "github.com/n3node/n3node/pkg/vm/opcode"

// NeoGoDiff exposes the static script readers to the differential test
// against neo-go's scparser (the nested module internal/neogodiff, which
// cannot see unexported names). It is not API: nothing in the node uses
// it.
var NeoGoDiff = struct {
	ParseMultiSig  func(script []byte) (m int, pubs [][]byte, ok bool)
	ParseSignature func(script []byte) (key []byte, ok bool)
	ParseAppCall   func(script []byte) (n, m int, err error)
	CountPushes    func(script []byte) (int, error)
	// HugeInts reports whether script pushes an integer beyond the PACK
	// count the readers accept (neo-go allocates such counts as given and
	// runs out of memory, so the comparison skips them).
	HugeInts func(script []byte) bool
}{
	ParseMultiSig:  parseMultiSig,
	ParseSignature: parseSignature,
	ParseAppCall:   parseAppCall,
	CountPushes:    countPushes,
	HugeInts:       pushesHugeInt,
}

// pushesHugeInt is NeoGoDiff.HugeInts.
func pushesHugeInt(script []byte) bool {
	c := reader{prog: script}
	for c.next < len(script) {
		op, param, err := c.read()
		if err != nil {
			return false
		}
		if v, err := int64Of(instr{op, param}); err == nil && (v > maxPack || v < -maxPack) {
			return true
		}
		if op >= opcode.PUSHINT128 && op <= opcode.PUSHINT256 {
			return true
		}
	}
	return false
}
