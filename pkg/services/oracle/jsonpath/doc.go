// Package jsonpath implements the JSONPath filter of Neo oracle requests:
// the JSON documents it reads and writes and the JSONPath subset it
// evaluates, exactly as neo-go 0.120.0 does (pkg/services/oracle/jsonpath
// over nspcc-dev/go-ordered-json, its .NET-compatible JSON library), which
// is also what the C# node's Neo.Json JPath does on ordinary input.
//
// # JSON
//
// Decode reads the first JSON value of its input and ignores whatever
// follows it, as encoding/json's Decoder does: "1x" and "{}]" decode, "01"
// decodes as 0 at the top level (and is refused inside an array). Values
// are nil (null), bool, float64 (every number; one out of the float64
// range is an error), string, []any (array, never nil) and Object (the
// members in document order, duplicate keys kept). Strings are unquoted
// with neo-go's rules: invalid surrogate escapes and invalid UTF-8 become
// U+FFFD. There is no nesting limit (neo-go has none).
//
// Encode writes neo-go's form: no whitespace, numbers in the shortest
// form that reads back (exponent form below 1e-6 and from 1e21), and
// strings with every non-ASCII character and the ASCII characters
// " & ' + < > ` DEL and the controls escaped as \uXXXX (upper-case hex;
// \b \f \n \r \t and \\ keep their short forms), as .NET does.
//
// # JSONPath
//
// Get evaluates a path: "$" followed by ".name", ".*", "..name"
// (recursive descent), "[*]", "[n]", "[n,m,...]" (negative indices count
// from the end), "[start:end]", "[:end]", "[start:]" and "['name']",
// "['a','b',...]" (single-quoted JSON string content). An empty path
// selects the whole document. Limits (C# JPathToken): every step that
// descends costs one of MaxDepth (6) levels and no step may select more
// than MaxObjects (1024) values; exceeding either fails the path (a
// recursive descent that runs out of depth or objects stops there and
// keeps what it found, as neo-go's does).
//
// Deviation: a slice whose negative start lies before the beginning of an
// array ("$[-10:]" on four elements) starts at 0, as C# does; neo-go
// 0.120.0 panics on it.
//
// Filter is the whole oracle filter: UTF-8 check, Decode, Get, Encode of
// the selected values as one JSON array.
//
// # Ownership
//
// Decode copies what it keeps from its input; Get returns values shared
// with the document it was given. Nothing here keeps state; every function
// is safe for concurrent use.
package jsonpath
