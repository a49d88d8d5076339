// Package walletcmd is `n3node wallet`: wallet files (init, create,
// import, import-multisig, list, dump, dump-keys, remove, sign), keys
// (change-password, export, strip-keys, import-deployed, convert of Neo
// Legacy wallets), GAS claims, the NEP-17 commands (balance, transfer,
// multitransfer, import, info, remove), the NEP-11 ones and
// the candidate commands (register, unregister, vote), in neo-go's syntax.
// The shared wallet and sending plumbing is package txsend.
package walletcmd
