//go:build cgo

package storage

// pebbleBuffersInC: with cgo, Pebble allocates its block cache and
// memtables with C malloc (its internal/manual package).
const pebbleBuffersInC = true
