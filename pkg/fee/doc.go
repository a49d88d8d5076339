// Package fee is the one home of the protocol's prices that more than one
// layer needs: the price of each opcode (Opcode), the price of a signature
// check (CheckSigPrice), the verification cost of the standard witnesses
// (SignatureContractCost, MultiSignatureContractCost) and the GAS limits of
// header verification.
//
// Prices are in price units: the VM multiplies them by the exec fee factor
// (Policy's, in datoshi before HF_Faun, picoGAS after it). The VM charges
// Opcode for every instruction; the ledger charges the witness costs when it
// checks a standard witness without the VM; the RPC client, the oracle
// service and the load generator use them to compute network fees before
// sending. A caller that needs a price takes it from here and never writes
// the number again.
//
// The package depends only on pkg/vm/opcode, so the VM can import it.
package fee
