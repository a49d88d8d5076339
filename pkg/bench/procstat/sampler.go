package procstat

import (
	"fmt"
	"time"
)

// Sample is the resource use over one interval between two readings.
type Sample struct {
	UnixMilli int64   `json:"t"`         // end of the interval
	CPU       float64 `json:"cpu"`       // the process, % of the whole host
	RSS       uint64  `json:"rss"`       // the process's VmRSS at the end, bytes
	SelfCPU   float64 `json:"self_cpu"`  // the sampling process (the bench client), % of the host
	HostBusy  float64 `json:"host_busy"` // non-idle time of the host, %
}

type reading struct {
	host       HostCPU
	proc, self uint64
}

// Sampler computes Samples from successive readings of FS. It is not safe for
// concurrent use; one goroutine calls Sample, typically once a second.
type Sampler struct {
	FS   FS
	Pid  int // the process measured
	Self int // the bench client's own pid (0: not sampled)

	prev    reading
	started bool
}

// Sample takes a reading at now. It returns the sample of the interval since
// the previous reading; the first call only records a reading and returns
// ok == false, as does an interval in which the host counters did not move.
func (s *Sampler) Sample(now time.Time) (smp Sample, ok bool, err error) {
	var r reading
	if r.host, err = s.FS.Host(); err != nil {
		return Sample{}, false, err
	}
	if r.proc, err = s.FS.ProcCPU(s.Pid); err != nil {
		return Sample{}, false, fmt.Errorf("procstat: pid %d: %w", s.Pid, err)
	}
	if s.Self != 0 {
		if r.self, err = s.FS.ProcCPU(s.Self); err != nil {
			return Sample{}, false, err
		}
	}
	rss, err := s.FS.RSS(s.Pid)
	if err != nil {
		return Sample{}, false, fmt.Errorf("procstat: pid %d: %w", s.Pid, err)
	}
	prev, started := s.prev, s.started
	s.prev, s.started = r, true
	if !started {
		return Sample{}, false, nil
	}
	smp = interval(prev, r)
	if smp.CPU < 0 { // counters went backwards: a new process with the same pid
		return Sample{}, false, nil
	}
	smp.UnixMilli = now.UnixMilli()
	smp.RSS = rss
	return smp, r.host.Total > prev.host.Total, nil
}

// interval computes the CPU shares between two readings (RSS and time are
// left to the caller). A share is -1 when a process counter decreased.
func interval(a, b reading) Sample {
	dt := float64(b.host.Total) - float64(a.host.Total)
	if dt <= 0 {
		return Sample{}
	}
	share := func(x, y uint64) float64 {
		if y < x {
			return -1
		}
		return 100 * float64(y-x) / dt
	}
	busyA := a.host.Total - a.host.Idle
	busyB := b.host.Total - b.host.Idle
	return Sample{
		CPU:      share(a.proc, b.proc),
		SelfCPU:  max(share(a.self, b.self), 0),
		HostBusy: max(share(busyA, busyB), 0),
	}
}
