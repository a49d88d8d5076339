package neotest

import (
	"bytes"
	"testing"
)

// CollectCoverage makes e collect coverage whatever the go tool's flags;
// the returned function gives the cover profile of what e collected so far.
func CollectCoverage(t testing.TB, e *Executor) func() string {
	e.startCoverage(t, func() {})
	return func() string {
		e.cov.mu.Lock()
		defer e.cov.mu.Unlock()
		var b bytes.Buffer
		if err := writeProfile(&b, e.cov.scripts); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
}
