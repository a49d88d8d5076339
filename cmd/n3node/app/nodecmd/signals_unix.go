//go:build unix

package nodecmd

import (
	"os"
	"syscall"
)

// reloadSignals are the signals that reload the configuration.
var reloadSignals = []os.Signal{syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2}

func reloadKind(s os.Signal) int {
	switch s {
	case syscall.SIGHUP:
		return reloadMonitoring
	case syscall.SIGUSR1:
		return reloadServices
	case syscall.SIGUSR2:
		return reloadConsensus
	}
	return 0
}
