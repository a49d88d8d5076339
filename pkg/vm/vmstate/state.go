package vmstate

import (
	"encoding/json"
	"fmt"
	"strings"
)

// State is a VM state. The values are the C# VMState flags.
type State uint8

// The VM states.
const (
	// None: running (or ready to run).
	None State = 0
	// Halt: finished normally.
	Halt State = 1 << 0
	// Fault: stopped with an error.
	Fault State = 1 << 1
	// Break: paused by a debugger step or breakpoint.
	Break State = 1 << 2
)

// String returns "NONE", "HALT", "FAULT" or "BREAK".
func (s State) String() string {
	switch s {
	case None:
		return "NONE"
	case Halt:
		return "HALT"
	case Fault:
		return "FAULT"
	case Break:
		return "BREAK"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// FromString parses a state name case-insensitively.
func FromString(s string) (State, error) {
	switch strings.ToUpper(s) {
	case "NONE":
		return None, nil
	case "HALT":
		return Halt, nil
	case "FAULT":
		return Fault, nil
	case "BREAK":
		return Break, nil
	}
	return 0, fmt.Errorf("unknown VM state %q", s)
}

// HasFlag reports whether s includes f.
func (s State) HasFlag(f State) bool { return s&f != 0 }

// MarshalJSON writes the state name.
func (s State) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a state name.
func (s *State) UnmarshalJSON(data []byte) error {
	var str string
	if err := json.Unmarshal(data, &str); err != nil {
		return err
	}
	v, err := FromString(str)
	if err != nil {
		return err
	}
	*s = v
	return nil
}
