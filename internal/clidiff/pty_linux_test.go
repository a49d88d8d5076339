//go:build linux

package clidiff

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// withTTY gives cmd a controlling terminal (a new pseudo-terminal) whose
// input is typed, and returns a function that releases it after the
// command ended. neo-go reads passwords from /dev/tty, never from
// standard input, and its password prompts go to the terminal; the
// terminal is also its standard input (confirmations).
func withTTY(cmd *exec.Cmd, typed string) (func(), error) {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, fmt.Errorf("unlock pty: %w", err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, fmt.Errorf("pty number: %w", err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, err
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, slave)
	// Standard input too: neo-go asks for confirmations there (in raw
	// mode, echoing to standard output).
	cmd.Stdin = slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2 + len(cmd.ExtraFiles)}
	// Echo and prompts come back on the master: drain them.
	go func() { _, _ = io.Copy(io.Discard, master) }()
	if _, err := master.Write([]byte(typed)); err != nil {
		master.Close()
		slave.Close()
		return nil, err
	}
	return func() {
		slave.Close()
		master.Close()
	}, nil
}
