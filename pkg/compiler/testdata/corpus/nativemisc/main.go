package nativemisc

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/neo"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/oracle"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/policy"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/roles"
)

func Fees() int {
	return policy.GetFeePerByte() + policy.GetExecFeeFactor() + policy.GetStoragePrice()
}

func Blocked(h interop.Hash160) bool {
	return policy.IsBlocked(h)
}

func Validators(i int) int {
	return len(neo.GetNextBlockValidators()) + len(roles.GetDesignatedByRole(roles.Oracle, uint32(i)))
}

func Request(url string) {
	oracle.Request(url, nil, "cb", nil, oracle.MinimumResponseGas)
}

func Vote(h interop.Hash160, pub interop.PublicKey) bool {
	return neo.Vote(h, pub)
}
