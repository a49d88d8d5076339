package management

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/native/management"
)

func Update(nef, manifest []byte) {
	management.Update(nef, manifest)
}

func Destroy() {
	management.Destroy()
}

func Deploy(nef, manifest []byte) int {
	c := management.Deploy(nef, manifest)
	return c.ID + c.UpdateCounter + len(c.Hash)
}

func Min() int {
	return management.GetMinimumDeploymentFee()
}
