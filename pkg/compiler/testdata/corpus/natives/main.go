package natives

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/crypto"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/gas"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/ledger"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/neo"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/std"
)

func Balance(h interop.Hash160) int {
	return gas.BalanceOf(h) + neo.BalanceOf(h)
}

func Height() int {
	return ledger.CurrentIndex()
}

func Itoa(x int) string {
	return std.Itoa10(x) + std.Itoa(x, 16)
}

func Hash(b []byte) interop.Hash256 {
	return crypto.Sha256(b)
}

func Committee() int {
	return len(neo.GetCommittee())
}

func Contract(h interop.Hash160) bool {
	return management.GetContract(h) != nil
}

func Ser(x int) []byte {
	return std.Serialize(x)
}
