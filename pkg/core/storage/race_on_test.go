//go:build race

package storage_test

// raceEnabled lets slow process-level tests step aside under -race, where
// they would check nothing the race detector adds to.
const raceEnabled = true
