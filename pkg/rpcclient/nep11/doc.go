// Package nep11 holds the NEP-11 (non-fungible token) helpers of the RPC
// client: a Reader of a token's test-invoked methods (properties, ownerOf,
// tokensOf, tokens) and transfer scripts in the forms neo-go builds them
// (transfer + ASSERT, non-divisible and divisible).
//
// Iterators are expanded inside the VM, without RPC sessions: ExpandScript
// calls the method and collects at most max values of the iterator it
// returns into one array (neo-go's CLI reads 100, the node's default
// MaxIteratorResultItems), so a node without sessions answers it too.
//
// Token descriptions (symbol, decimals) come from nep17.InfoStandard with
// manifest.NEP11StandardName. Returned slices are fresh and owned by the
// caller.
package nep11
