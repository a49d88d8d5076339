// Package vmcmd is `n3node vm`: run executes a script (hex, base64, a raw
// script file or a NEF file) on a bare NeoVM and prints the result stack
// and GAS used; without a subcommand, an interactive VM (repl.go) reads
// commands from the standard input and runs scripts with syscalls and
// native contracts against an in-memory private network (load*, run,
// step*, breakpoints, stacks, slots, events, storage, changes).
package vmcmd
