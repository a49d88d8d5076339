// Package nep17 holds the NEP-17 token helpers of the RPC client: token
// descriptions (Info, the native NEO and GAS), transfer scripts as neo-go
// builds them (transfer + ASSERT per recipient), and decimal amounts.
//
// Amounts are integers in the token's smallest units (*big.Int); ParseAmount
// and FormatAmount convert to and from the decimal text users write,
// exactly: "1.5" with 8 decimals is 150000000, more fractional digits than
// the token has is an error, never a rounding.
//
// Ownership: Token values are copied freely; scripts returned by
// TransferScript are fresh slices owned by the caller.
package nep17
