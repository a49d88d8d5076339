package console

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"
)

// ErrPhraseMismatch: the two entries of a new password differ.
var ErrPhraseMismatch = errors.New("the entered pass-phrases do not match. Maybe you have misspelled them")

// Stdout is the standard output of a command (the root's Writer, set by
// tests; os.Stdout otherwise).
func Stdout(c *cli.Command) io.Writer {
	if w := c.Root().Writer; w != nil {
		return w
	}
	return os.Stdout
}

// Stderr is the standard error of a command (the root's ErrWriter or
// os.Stderr).
func Stderr(c *cli.Command) io.Writer {
	if w := c.Root().ErrWriter; w != nil {
		return w
	}
	return os.Stderr
}

// Stdin is the standard input of a command (the root's Reader or os.Stdin).
func Stdin(c *cli.Command) io.Reader {
	if r := c.Root().Reader; r != nil {
		return r
	}
	return os.Stdin
}

// readLine reads one line (without the newline) byte by byte, so nothing
// past it is consumed from a shared reader.
func readLine(r io.Reader) (string, error) {
	var sb strings.Builder
	var b [1]byte
	for {
		n, err := r.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				return strings.TrimSuffix(sb.String(), "\r"), nil
			}
			sb.WriteByte(b[0])
		}
		if err != nil {
			if err == io.EOF && sb.Len() > 0 {
				return sb.String(), nil
			}
			return "", err
		}
	}
}

// Prompt asks for a line of input (echoed).
func Prompt(c *cli.Command, text string) (string, error) {
	fmt.Fprint(Stderr(c), text)
	return readLine(Stdin(c))
}

// ReadPassword asks for a password without echo when the input is a
// terminal; otherwise (pipes, tests) it reads one line.
func ReadPassword(c *cli.Command, text string) (string, error) {
	in := Stdin(c)
	fmt.Fprint(Stderr(c), text)
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(Stderr(c))
		if err != nil {
			return "", fmt.Errorf("error reading password: %w", err)
		}
		return string(b), nil
	}
	s, err := readLine(in)
	if err != nil {
		return "", fmt.Errorf("error reading password: %w", err)
	}
	return s, nil
}

// ReadNewPassword asks twice.
func ReadNewPassword(c *cli.Command) (string, error) {
	p1, err := ReadPassword(c, "Enter new password > ")
	if err != nil {
		return "", err
	}
	p2, err := ReadPassword(c, "Confirm password > ")
	if err != nil {
		return "", err
	}
	if p1 != p2 {
		return "", ErrPhraseMismatch
	}
	return p1, nil
}

// EnsureNoArgs refuses positional arguments.
func EnsureNoArgs(c *cli.Command) error {
	if c.Args().Present() {
		return errors.New("additional arguments given while this command expects none")
	}
	return nil
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
