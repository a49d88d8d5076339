// Package vmcmd is `n3node vm`: run executes a script (hex, base64, a raw
// script file or a NEF file) on a bare NeoVM and prints the result stack and GAS used.
package vmcmd
