// Package procstat samples the CPU and memory use of a process from the
// Linux /proc file system, the way the throughput benchmark (package bench)
// reports them.
//
// CPU is a share of the whole host: Δ(utime+stime of the process) divided by
// Δ(total jiffies of the host's aggregate "cpu" line in /proc/stat) × 100,
// so 100 % means every core was busy with the process. This is the formula
// neo-bench applies to Docker statistics. Memory is VmRSS from
// /proc/<pid>/status.
//
// Parsers (ParseProcStat, ParseHostStat, ParseRSS, ParseListeners) are pure
// functions of the file contents; FS reads the files below a root directory,
// "/proc" in production and a fake tree in tests. The Sampler is the only
// part that owns a goroutine and a clock, both given by the caller.
//
// Nothing returned aliases the caller's input.
package procstat
