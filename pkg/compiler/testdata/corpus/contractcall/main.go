package contractcall

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/contract"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/gas"
)

func Call(h interop.Hash160, method string) any {
	return contract.Call(h, method, contract.All, 1, "x")
}

func Transfer(from, to interop.Hash160, amount int) bool {
	return gas.Transfer(from, to, amount, nil)
}

func Static() any {
	return contract.Call(interop.Hash160("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14"), "foo", contract.ReadOnly)
}
