// Package txsend is the plumbing the wallet and contract commands share to
// build, sign and send transactions, in neo-go's CLI syntax and with its
// error texts:
//
//   - wallets: WalletFlags, OpenWallet/OpenWalletForWrite (a file, a YAML
//     wallet config or an embedded: wallet), Unlock, AccountFor and
//     OpenAccount (passwords from the config or prompted through package
//     console);
//   - the node: RPCFlags and DialRPC (a client and a context bounded by
//     --timeout);
//   - arguments: ParseAddress, ParseSigners (address[:scopes] after "--"),
//     ParseParams (typed or inferred contract parameters) and CLIArgs (the
//     positional arguments with the "--" urfave/cli drops put back);
//   - sending: TxFlags/ReadTxOptions (--gas, --sysgas, --out, --force,
//     --await), NewSender (wallet, unlocked sender and cosigners, client and
//     actor in one SenderSetup), SignAndSend, SendScript, InvokeAndSend, and the
//     parameter-context files of --out (WriteContext, ReadContext).
package txsend
