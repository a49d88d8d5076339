package procstat

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrFormat is returned when a /proc file does not have the expected layout.
var ErrFormat = errors.New("procstat: unexpected /proc format")

// ErrNotFound is returned by FindListener when no process listens on the port.
var ErrNotFound = errors.New("procstat: no process listens on the port")

// ParseProcStat returns utime+stime (clock ticks) from the contents of
// /proc/<pid>/stat. The command name (field 2) may hold spaces and
// parentheses, so fields are counted from the last ')'.
func ParseProcStat(data []byte) (uint64, error) {
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return 0, fmt.Errorf("%w: stat has no command name", ErrFormat)
	}
	// After ")": field 3 (state) is index 0, so utime (14) is 11, stime (15) 12.
	f := strings.Fields(string(data[end+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("%w: stat has %d fields after the name", ErrFormat, len(f))
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("%w: utime/stime %q %q", ErrFormat, f[11], f[12])
	}
	return ut + st, nil
}

// HostCPU is the aggregate "cpu" line of /proc/stat in clock ticks.
type HostCPU struct {
	Total uint64 // user+nice+system+idle+iowait+irq+softirq+steal
	Idle  uint64 // idle+iowait
}

// ParseHostStat reads the aggregate "cpu" line of /proc/stat. Total sums the
// first eight fields (user .. steal); guest and guest_nice are left out
// because the kernel already counts them in user and nice.
func ParseHostStat(data []byte) (HostCPU, error) {
	for line := range bytes.Lines(data) {
		f := strings.Fields(string(line))
		if len(f) == 0 || f[0] != "cpu" {
			continue
		}
		if len(f) < 5 {
			return HostCPU{}, fmt.Errorf("%w: short cpu line", ErrFormat)
		}
		var h HostCPU
		for i := 1; i < len(f) && i <= 8; i++ {
			v, err := strconv.ParseUint(f[i], 10, 64)
			if err != nil {
				return HostCPU{}, fmt.Errorf("%w: cpu field %d %q", ErrFormat, i, f[i])
			}
			h.Total += v
			if i == 4 || i == 5 { // idle, iowait
				h.Idle += v
			}
		}
		return h, nil
	}
	return HostCPU{}, fmt.Errorf("%w: no aggregate cpu line", ErrFormat)
}

// ParseRSS returns VmRSS in bytes from the contents of /proc/<pid>/status.
func ParseRSS(data []byte) (uint64, error) {
	for line := range bytes.Lines(data) {
		rest, ok := bytes.CutPrefix(line, []byte("VmRSS:"))
		if !ok {
			continue
		}
		f := strings.Fields(string(rest))
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("%w: VmRSS line %q", ErrFormat, bytes.TrimSpace(line))
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w: VmRSS %q", ErrFormat, f[0])
		}
		return kb * 1024, nil
	}
	return 0, fmt.Errorf("%w: no VmRSS line (kernel thread or zombie?)", ErrFormat)
}

// tcpListen is the socket state TCP_LISTEN in /proc/net/tcp.
const tcpListen = "0A"

// ParseListeners returns the socket inodes listening on port, read from the
// contents of /proc/net/tcp or /proc/net/tcp6.
func ParseListeners(data []byte, port int) []uint64 {
	var inodes []uint64
	first := true
	for line := range bytes.Lines(data) {
		if first { // header
			first = false
			continue
		}
		f := strings.Fields(string(line))
		if len(f) < 10 || f[3] != tcpListen {
			continue
		}
		i := strings.LastIndexByte(f[1], ':')
		if i < 0 {
			continue
		}
		p, err := strconv.ParseUint(f[1][i+1:], 16, 16)
		if err != nil || int(p) != port {
			continue
		}
		ino, err := strconv.ParseUint(f[9], 10, 64)
		if err == nil && ino != 0 {
			inodes = append(inodes, ino)
		}
	}
	return inodes
}

// FS reads process and host statistics below Root (normally "/proc").
type FS struct {
	Root string
}

// Proc is the real /proc.
var Proc = FS{Root: "/proc"}

func (fs FS) read(parts ...string) ([]byte, error) {
	return os.ReadFile(filepath.Join(append([]string{fs.Root}, parts...)...))
}

// ProcCPU returns utime+stime of pid in clock ticks.
func (fs FS) ProcCPU(pid int) (uint64, error) {
	data, err := fs.read(strconv.Itoa(pid), "stat")
	if err != nil {
		return 0, err
	}
	return ParseProcStat(data)
}

// Host returns the host's aggregate CPU counters.
func (fs FS) Host() (HostCPU, error) {
	data, err := fs.read("stat")
	if err != nil {
		return HostCPU{}, err
	}
	return ParseHostStat(data)
}

// RSS returns the resident set size of pid in bytes.
func (fs FS) RSS(pid int) (uint64, error) {
	data, err := fs.read(strconv.Itoa(pid), "status")
	if err != nil {
		return 0, err
	}
	return ParseRSS(data)
}

// FindListener returns the process that has a TCP socket listening on port
// (IPv4 or IPv6). It needs permission to read other processes' fd
// directories: the same user or root.
func FindListener(fs FS, port int) (int, error) {
	want := make(map[string]bool)
	for _, f := range []string{"tcp", "tcp6"} {
		data, err := fs.read("net", f)
		if err != nil {
			continue
		}
		for _, ino := range ParseListeners(data, port) {
			want["socket:["+strconv.FormatUint(ino, 10)+"]"] = true
		}
	}
	if len(want) == 0 {
		return 0, fmt.Errorf("%w: %d", ErrNotFound, port)
	}
	ents, err := os.ReadDir(fs.Root)
	if err != nil {
		return 0, err
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		dir := filepath.Join(fs.Root, e.Name(), "fd")
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue // not ours or gone
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && want[l] {
				return pid, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: %d (socket found but not its process; permissions?)", ErrNotFound, port)
}

// ReadPidfile reads a decimal process id from a file (surrounding white
// space allowed).
func ReadPidfile(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("procstat: %s holds no process id: %q", path, bytes.TrimSpace(data))
	}
	return pid, nil
}
