package hashes

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/lib/address"
	"github.com/nspcc-dev/neo-go/pkg/interop/util"
)

var owner = address.ToHash160("NbrUYaZgyhSkNoRo9ugRyEMdUZxrhkNaWB")

func Owner() interop.Hash160 {
	return owner
}

func Eq(a, b interop.Hash160) bool {
	return a.Equals(b) && util.Equals(a, b)
}

func Lit() interop.Hash160 {
	return interop.Hash160{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
}

func Conv(b []byte) interop.Hash160 {
	return interop.Hash160(b)
}
