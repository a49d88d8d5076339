package utilops

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
	"github.com/nspcc-dev/neo-go/pkg/interop/util"
)

func Check(ok bool, x any) bool {
	util.Assert(ok)
	util.AssertMsg(x != nil, "nil")
	if !util.Equals(x, 1) {
		util.AbortMsg("not one")
	}
	if runtime.GetTime() == 0 {
		util.Abort()
	}
	return true
}
