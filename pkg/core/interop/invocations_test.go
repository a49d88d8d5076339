package interop_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// TestInvocationCounts: counts are exact for the listed contracts and for
// those beyond the list (the map), and unknown contracts are not counted.
func TestInvocationCounts(t *testing.T) {
	var ic interop.Context
	want := map[hash.Uint160]int{}
	for i := range 40 {
		h := hash.Uint160{byte(i % 13), 1}
		ic.CountInvocation(h)
		want[h]++
	}
	for h, n := range want {
		if got, ok := ic.Invocations.Get(h); !ok || got != n {
			t.Fatalf("%s: got %d, %v, want %d", h.StringLE(), got, ok, n)
		}
	}
	if n, ok := ic.Invocations.Get(hash.Uint160{99}); ok || n != 0 {
		t.Fatalf("uncounted contract: %d, %v", n, ok)
	}
}
