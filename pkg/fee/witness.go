package fee

import "github.com/n3node/n3node/pkg/vm/opcode"

// CheckSigPrice is the price of one signature check in price units (C#
// ApplicationEngine.CheckSigPrice): System.Crypto.CheckSig, and each key of
// System.Crypto.CheckMultisig.
const CheckSigPrice = 1 << 15

// HeaderVerificationGasLimit is the GAS (datoshi) a header witness may use
// (C# Header.Verify: 3 GAS; the per-witness cap of 1.5 GAS applies first).
const HeaderVerificationGasLimit = 3_00000000

// SignatureContractCost is the price of running a standard single-signature
// witness: two PUSHDATA1 (signature, key) and the CheckSig syscall (C#
// Helper.SignatureContractCost).
func SignatureContractCost() int64 {
	return 2*Opcode(opcode.PUSHDATA1) + Opcode(opcode.SYSCALL) + CheckSigPrice
}

// MultiSignatureContractCost is the price of running a standard m-of-n
// multi-signature witness: m signatures and n keys pushed, the pushes of m
// and n, and the CheckMultisig syscall checking n keys (C#
// Helper.MultiSignatureContractCost).
func MultiSignatureContractCost(m, n int) int64 {
	return Opcode(opcode.PUSHDATA1)*int64(m+n) + pushIntPrice(m) + pushIntPrice(n) +
		Opcode(opcode.SYSCALL) + CheckSigPrice*int64(n)
}

// pushIntPrice is the price of the instruction that pushes v: PUSHM1..PUSH16
// for small values, else the shortest PUSHINT8..PUSHINT64 (vm/emit.Int's
// choice; every int fits PUSHINT64).
func pushIntPrice(v int) int64 {
	switch {
	case v >= -1 && v <= 16:
		return Opcode(opcode.Opcode(int(opcode.PUSH0) + v))
	case v >= -1<<7 && v < 1<<7:
		return Opcode(opcode.PUSHINT8)
	case v >= -1<<15 && v < 1<<15:
		return Opcode(opcode.PUSHINT16)
	case v >= -1<<31 && v < 1<<31:
		return Opcode(opcode.PUSHINT32)
	default:
		return Opcode(opcode.PUSHINT64)
	}
}
