//go:build !cgo

package storage

// pebbleBuffersInC: without cgo, Pebble's block cache and memtables are
// ordinary Go allocations.
const pebbleBuffersInC = false
