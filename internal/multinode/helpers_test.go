package multinode

import (
	"os"
	"testing"
	"time"
)

// EnvMultinode enables the integration tests (`make multinode`).
const EnvMultinode = "N3NODE_MULTINODE"

func TestMain(m *testing.M) {
	code := m.Run()
	RemoveTestBinaries()
	os.Exit(code)
}

// needMultinode skips a test unless N3NODE_MULTINODE=1.
func needMultinode(t *testing.T) {
	t.Helper()
	if os.Getenv(EnvMultinode) != "1" {
		t.Skipf("set %s=1 (make multinode): starts node processes", EnvMultinode)
	}
}

// step logs a test step with the time since start.
type stepper struct {
	t     *testing.T
	start time.Time
}

func newStepper(t *testing.T) *stepper { return &stepper{t: t, start: time.Now()} }

func (s *stepper) log(format string, args ...any) {
	s.t.Helper()
	s.t.Logf("[%6.1fs] "+format, append([]any{time.Since(s.start).Seconds()}, args...)...)
}
