package contractmisc

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/contract"
)

func Account(pub interop.PublicKey) interop.Hash160 {
	return contract.CreateStandardAccount(pub)
}

func Multi(pubs []interop.PublicKey) interop.Hash160 {
	return contract.CreateMultisigAccount(2, pubs)
}

func Flags() int {
	return int(contract.GetCallFlags())
}
