//go:build !linux

package multinode

import "syscall"

func procAttr() *syscall.SysProcAttr { return nil }
