// Package trigger defines the trigger types a script runs under (C#
// Neo.SmartContract.TriggerType): OnPersist and PostPersist for the native
// contracts' block hooks, Verification for witness checks and Application
// for transaction scripts.
//
// The byte values are part of the protocol (System.Runtime.GetTrigger
// returns them). String and JSON use the C# names; FromString is
// case-insensitive, as in neo-go, and also accepts the composites System and
// All.
package trigger
