// Package vmstate defines the NeoVM execution states (C# VMState) with the
// names RPC and the JSON tests print.
package vmstate
