// Package console is the terminal side of the n3node commands: a command's
// standard output, error and input (the root command's Writer, ErrWriter and
// Reader when set, as tests do; the process's otherwise), prompts, password
// entry without echo on a terminal, and the no-arguments check.
//
// Input is read byte by byte up to a newline, so several prompts can share
// one reader (a pipe or a test's strings.Reader) without one consuming the
// next one's line.
package console
