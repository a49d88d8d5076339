package fee_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/pkg/fee"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// The C# figures: Helper.SignatureContractCost() = 1<<15 + 2*(1<<3), and
// MultiSignatureContractCost(m, n) for the committee-sized contracts.
func TestWitnessCosts(t *testing.T) {
	require.EqualValues(t, 32784, fee.SignatureContractCost())
	require.EqualValues(t, 8*2+2+1<<15, fee.MultiSignatureContractCost(1, 1))
	require.EqualValues(t, 8*(3+4)+2+4<<15, fee.MultiSignatureContractCost(3, 4))
	require.EqualValues(t, 8*(14+21)+2+21<<15, fee.MultiSignatureContractCost(14, 21))
}

// MultiSignatureContractCost prices the pushes of m and n as emit.Int
// encodes them.
func TestPushPriceMatchesEmit(t *testing.T) {
	for _, v := range []int{-1, 0, 1, 16, 17, 127, 128, 1 << 15, 1<<31 - 1, 1 << 31, 1 << 40} {
		w := nio.NewBufBinWriter()
		emit.Int(w, int64(v))
		want := fee.Opcode(opcode.PUSHDATA1)*int64(2*v) + 2*fee.Opcode(opcode.Opcode(w.Bytes()[0])) + fee.CheckSigPrice*int64(v)
		require.Equal(t, want, fee.MultiSignatureContractCost(v, v), "v=%d", v)
	}
}

func TestOpcodePrices(t *testing.T) {
	require.EqualValues(t, 1<<3, fee.Opcode(opcode.PUSHDATA1))
	require.EqualValues(t, 0, fee.Opcode(opcode.SYSCALL))
	require.EqualValues(t, 1<<15, fee.Opcode(opcode.CALLT))
	require.EqualValues(t, 1<<13, fee.Opcode(opcode.CONVERT))
	require.EqualValues(t, 0, fee.Opcode(0xFF))
}

// Every opcode's price as C# OpCodePriceTable gives it (the defined opcodes
// and any priced one), pinned in testdata.
func TestOpcodePriceTable(t *testing.T) {
	want, err := os.ReadFile("testdata/opcode_prices.txt")
	require.NoError(t, err)
	var sb strings.Builder
	for i := range 256 {
		op := opcode.Opcode(i)
		if p := fee.Opcode(op); p != 0 || op.IsValid() {
			fmt.Fprintf(&sb, "%s %d\n", op, p)
		}
	}
	require.Equal(t, string(want), sb.String())
}
