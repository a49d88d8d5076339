package multinode

import "syscall"

// procAttr makes the kernel kill a node when the process that started it
// dies, so that a crashed or timed-out test leaves no node holding ports.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
