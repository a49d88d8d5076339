// Package walletcmd is `n3node wallet`: wallet files (init, create,
// import, import-multisig, list, dump, dump-keys, remove, sign), GAS claims,
// the NEP-17 commands (balance, transfer, multitransfer, import, info) and
// the candidate commands (register, unregister, vote), in neo-go's syntax.
// The shared wallet and sending plumbing is package txsend.
package walletcmd
