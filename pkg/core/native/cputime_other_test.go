//go:build !linux

package native_test

func threadCPU() int64 { return 0 }
