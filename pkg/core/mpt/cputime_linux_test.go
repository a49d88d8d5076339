package mpt

import "syscall"

// processCPU returns the CPU time (user and system) the process has used,
// in nanoseconds. Benchmarks report it per operation beside wall time,
// since wall time on a shared machine measures the neighbours too.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
