// Package dotnetjson writes JSON strings the way .NET's System.Text.Json
// writes them with its default encoder (JavaScriptEncoder.Default), which is
// what the C# node and neo-go put on the wire: the stack item JSON of
// StdLib.jsonSerialize, the oracle's JSONPath results and the extra field
// of contract manifests.
//
// Rules: printable ASCII is written as is except " & ' + < > \ and `; \b
// \f \n \r \t and \\ use their short escapes; every other character,
// including DEL and all non-ASCII, is \uXXXX with upper-case hex (a
// surrogate pair above U+FFFF). A byte that is not valid UTF-8 is written
// as \u00XX of the byte itself (neo-go's behaviour; callers that must
// reject invalid UTF-8 check it first).
//
// AppendString appends to the caller's slice and returns it; it never
// fails and never keeps a reference to its input.
package dotnetjson
