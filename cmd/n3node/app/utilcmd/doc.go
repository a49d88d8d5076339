// Package utilcmd is `n3node util`: convert prints every reading of a value
// (address, script hash, hex, base64, public key, integer).
package utilcmd
