//go:build !linux

package mpt

func processCPU() int64 { return 0 }
