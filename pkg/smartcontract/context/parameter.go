package context

import (
	"errors"
	"fmt"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
)

// Item parameters are smartcontract.Parameter values; a parameter
// without a value (nil) is not set yet.

// ErrInvalidParameter is returned for parameters that do not fit the
// item (too many of them, or nested too deep in a file).
var ErrInvalidParameter = errors.New("invalid contract parameter")

// maxJSONDepth bounds the nesting of brackets in a context file, so that
// Array and Map parameters in untrusted files cannot nest without limit
// (the context, its items and their parameter lists take 4 levels; each
// nested parameter 2 more: 18 levels of parameters).
const maxJSONDepth = 40

// checkDepth rejects JSON nested deeper than maxJSONDepth.
func checkDepth(data []byte) error {
	depth, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > maxJSONDepth {
				return fmt.Errorf("%w: nested too deep", ErrInvalidParameter)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// emitPush emits the instruction that pushes p, as C#
// ScriptBuilder.EmitPush(ContractParameter) does.
func emitPush(w *nio.BinWriter, p smartcontract.Parameter) error {
	v, err := p.Emitable()
	if err != nil {
		return err
	}
	emit.Any(w, v)
	return w.Err
}
