package node

import (
	"testing"

	"go.uber.org/goleak"
)

// Every goroutine the node starts ends with Shutdown. The exception is
// Pebble's disk-health ticker, which a failed open of a locked database
// leaves behind (pebble v2.1.7; TestLocked).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/cockroachdb/pebble/v2/vfs.(*diskHealthCheckingFS).startTickerLocked.func1"))
}
