// Package wallet reads, edits and writes NEP-6 wallet files and signs with
// their accounts.
//
// # File format
//
// A Wallet is the NEP-6 JSON document in the form neo-go v0.120.0 writes:
// {"version", "accounts", "scrypt", "extra": {"Tokens"}}, each account
// {"address", "key" (NEP-2), "label", "contract" {"script" (base64),
// "parameters" [{"name", "type"}], "deployed"}, "lock", "isDefault"}. The C#
// form's "name" (wallet) and "extra" (account) fields are kept when present
// and written back after the neo-go ones; files neo-go wrote round-trip byte
// for byte through NewWalletFromBytes and SavePretty (Save writes the
// compact form).
//
// # Files
//
// NewWalletFromFile only reads the file. Save and SavePretty write the
// whole document to a temporary file in the same directory, sync it and
// rename it over the old one, so a crash leaves either the old or the new
// wallet, never a mix. New files get mode 0600; an existing file keeps its
// mode.
//
// # Keys
//
// Accounts keep their private keys NEP-2 encrypted; Decrypt (with the
// wallet's scrypt parameters) makes an account able to sign until Close.
// Signatures are deterministic (RFC 6979) over SHA-256 of network magic ||
// hash. Multi-signature accounts sign one share each; package
// smartcontract/context collects the shares.
//
// # Ownership
//
// Accounts and contracts are shared with the Wallet that holds them;
// scripts returned by accessors are the stored slices and must not be
// modified.
package wallet
