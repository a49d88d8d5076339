package verifyargs

import "github.com/nspcc-dev/neo-go/pkg/interop/runtime"

func Verify(sig []byte, n int) bool {
	if n == 0 {
		return false
	}
	return len(sig) == 64 && runtime.GetTrigger() == runtime.Verification
}
