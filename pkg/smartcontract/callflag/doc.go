// Package callflag defines CallFlags, the set of operations a called
// contract may perform (C# Neo.SmartContract.CallFlags).
//
// A CallFlag is a byte; only the low four bits are defined. Values with any
// other bit set are invalid: decoders of untrusted data (NEF method tokens,
// System.Contract.Call arguments) must reject them with IsValid.
//
// # String forms
//
// String prints the form neo-go 0.120.0 uses in RPC answers: a single name
// when the value has one (None, ReadStates, States, ReadOnly, All, ...),
// otherwise a ", "-separated list built greedily from ReadOnly, States,
// ReadStates, WriteStates, AllowCall and AllowNotify in that order. For all
// valid values but one this equals the .NET [Flags] enum ToString of the C#
// node; the exception is States|AllowCall (7), which neo-go prints as
// "ReadOnly, WriteStates" and .NET as "WriteStates, ReadOnly".
// DotNetString gives the .NET form. FromString parses both.
package callflag
