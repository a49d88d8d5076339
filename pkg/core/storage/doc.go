// Package storage defines the key-value Store every part of the node persists
// through, its backends, and the layered write-back cache above them.
//
// # The Store contract
//
//   - Get returns ErrKeyNotFound for a missing key. A stored empty value is
//     not the same as a missing key.
//   - PutChangeSet applies a whole change set atomically: after a crash a
//     backend holds all of it or none of it.
//   - Seek yields keys in ascending byte order (descending with Backwards),
//     restricted to keys with the given prefix and starting at Prefix+Start.
//   - Slices passed to Seek callbacks are valid only during the callback;
//     copy them to keep them. Slices returned by Get belong to the caller.
//     Maps and slices passed to PutChangeSet must not be modified until it
//     returns; the store does not keep them afterwards.
package storage
