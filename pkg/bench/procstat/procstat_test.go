package procstat

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// statLine builds /proc/<pid>/stat with a command name that has spaces and
// parentheses, utime and stime set.
func statLine(pid int, utime, stime uint64) string {
	return fmt.Sprintf("%d (neo go (node)) S 1 %d %d 0 -1 4194560 2425 0 0 0 %d %d 0 0 20 0 12 0 5513 1700000000 30000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
		pid, pid, pid, utime, stime)
}

func hostStat(user, nice, system, idle, iowait, irq, softirq, steal, guest uint64) string {
	return fmt.Sprintf("cpu  %d %d %d %d %d %d %d %d %d 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 12345\n",
		user, nice, system, idle, iowait, irq, softirq, steal, guest)
}

func TestParsers(t *testing.T) {
	ticks, err := ParseProcStat([]byte(statLine(42, 1234, 567)))
	if err != nil || ticks != 1801 {
		t.Fatalf("ParseProcStat = %d, %v", ticks, err)
	}
	for _, bad := range []string{"", "42 no-paren S 1", "42 (x) S 1 2 3"} {
		if _, err := ParseProcStat([]byte(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("ParseProcStat(%q) = %v", bad, err)
		}
	}
	h, err := ParseHostStat([]byte(hostStat(100, 10, 50, 800, 20, 5, 5, 10, 99)))
	if err != nil || h.Total != 1000 || h.Idle != 820 {
		t.Fatalf("ParseHostStat = %+v, %v (guest must not count)", h, err)
	}
	if _, err := ParseHostStat([]byte("cpu0 1 2 3 4 5\n")); !errors.Is(err, ErrFormat) {
		t.Errorf("no aggregate line: %v", err)
	}
	rss, err := ParseRSS([]byte("Name:\tneogo\nVmPeak:\t 999 kB\nVmRSS:\t  123456 kB\nThreads: 12\n"))
	if err != nil || rss != 123456*1024 {
		t.Fatalf("ParseRSS = %d, %v", rss, err)
	}
	if _, err := ParseRSS([]byte("Name:\tkworker\n")); !errors.Is(err, ErrFormat) {
		t.Errorf("no VmRSS: %v", err)
	}
	tcp := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
		"   0: 0100007F:7682 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5551 1 0 100 0 0 10 0\n" +
		"   1: 0100007F:7682 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 5552 1 0 20 4 30 10 -1\n" +
		"   2: 0100007F:7681 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5553 1 0 100 0 0 10 0\n"
	if got := ParseListeners([]byte(tcp), 0x7682); len(got) != 1 || got[0] != 5551 {
		t.Fatalf("ParseListeners = %v", got)
	}
}

// fakeProc builds a /proc tree: the host stat, two processes, a listening socket.
type fakeProc struct {
	t    *testing.T
	root string
}

func newFakeProc(t *testing.T) *fakeProc {
	root := t.TempDir()
	return &fakeProc{t: t, root: root}
}

func (f *fakeProc) write(rel, data string) {
	p := filepath.Join(f.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeProc) proc(pid int, utime, stime, rssKB uint64) {
	f.write(strconv.Itoa(pid)+"/stat", statLine(pid, utime, stime))
	f.write(strconv.Itoa(pid)+"/status", fmt.Sprintf("Name:\tx\nVmRSS:\t%d kB\n", rssKB))
}

func TestSampler(t *testing.T) {
	f := newFakeProc(t)
	f.write("stat", hostStat(1000, 0, 0, 1000, 0, 0, 0, 0, 0))
	f.proc(10, 100, 50, 1024)
	f.proc(11, 10, 0, 10)
	s := &Sampler{FS: FS{Root: f.root}, Pid: 10, Self: 11}
	t0 := time.UnixMilli(1_700_000_000_000)
	if _, ok, err := s.Sample(t0); ok || err != nil {
		t.Fatalf("first sample: ok=%v err=%v", ok, err)
	}
	// 200 ticks pass on the host (2 cores × 1 s at 100 Hz): the node used
	// 120 of them (60 %), the client 20 (10 %), the host was busy 150 (75 %).
	f.write("stat", hostStat(1150, 0, 0, 1050, 0, 0, 0, 0, 0))
	f.proc(10, 200, 70, 2048)
	f.proc(11, 25, 5, 10)
	smp, ok, err := s.Sample(t0.Add(time.Second))
	if !ok || err != nil {
		t.Fatalf("second sample: ok=%v err=%v", ok, err)
	}
	want := Sample{UnixMilli: t0.UnixMilli() + 1000, CPU: 60, RSS: 2048 * 1024, SelfCPU: 10, HostBusy: 75}
	if smp != want {
		t.Fatalf("sample = %+v, want %+v", smp, want)
	}
	// Host counters that do not move give no sample.
	if _, ok, err := s.Sample(t0.Add(2 * time.Second)); ok || err != nil {
		t.Fatalf("still interval: ok=%v err=%v", ok, err)
	}
	// A vanished process is an error.
	if err := os.RemoveAll(filepath.Join(f.root, "10")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Sample(t0.Add(3 * time.Second)); err == nil {
		t.Fatal("sampling a gone process succeeded")
	}
}

func TestFindListener(t *testing.T) {
	f := newFakeProc(t)
	hdr := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	f.write("net/tcp", hdr+"   0: 0100007F:7532 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0 100 0 0 10 0\n")
	f.write("net/tcp6", hdr+"   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 888 1 0 100 0 0 10 0\n")
	for pid, links := range map[int][]string{5: {"/dev/null", "socket:[123]"}, 7: {"pipe:[9]", "socket:[777]"}, 9: {"socket:[888]"}} {
		dir := filepath.Join(f.root, strconv.Itoa(pid), "fd")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, l := range links {
			if err := os.Symlink(l, filepath.Join(dir, strconv.Itoa(i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	fs := FS{Root: f.root}
	if pid, err := FindListener(fs, 0x7532); err != nil || pid != 7 {
		t.Fatalf("tcp listener: %d, %v", pid, err)
	}
	if pid, err := FindListener(fs, 8080); err != nil || pid != 9 {
		t.Fatalf("tcp6 listener: %d, %v", pid, err)
	}
	if _, err := FindListener(fs, 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no listener: %v", err)
	}
}

func TestReadPidfile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pid")
	os.WriteFile(p, []byte(" 4242\n"), 0o644)
	if pid, err := ReadPidfile(p); err != nil || pid != 4242 {
		t.Fatalf("ReadPidfile = %d, %v", pid, err)
	}
	os.WriteFile(p, []byte("x"), 0o644)
	if _, err := ReadPidfile(p); err == nil {
		t.Fatal("bad pidfile accepted")
	}
}

// TestRealProc samples this test process through the real /proc.
func TestRealProc(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	s := &Sampler{FS: Proc, Pid: os.Getpid(), Self: os.Getpid()}
	if _, _, err := s.Sample(time.Now()); err != nil {
		t.Fatal(err)
	}
	if rss, err := Proc.RSS(os.Getpid()); err != nil || rss == 0 {
		t.Fatalf("RSS = %d, %v", rss, err)
	}
}

func FuzzParsers(f *testing.F) {
	f.Add([]byte(statLine(1, 2, 3)))
	f.Add([]byte(hostStat(1, 2, 3, 4, 5, 6, 7, 8, 9)))
	f.Add([]byte("VmRSS:\t 12 kB\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseProcStat(data)
		ParseHostStat(data)
		ParseRSS(data)
		ParseListeners(data, 80)
	})
}
