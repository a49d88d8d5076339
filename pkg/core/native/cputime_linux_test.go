package native_test

import "syscall"

// threadCPU returns the CPU time of the calling OS thread in nanoseconds.
// Benchmarks lock their goroutine to its thread and report it per
// operation beside wall time, which on a shared machine measures the
// neighbours too.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
