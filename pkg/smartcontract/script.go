package smartcontract

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	nio "github.com/n3node/n3node/pkg/io"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/interopid"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// Limits of standard scripts.
const (
	// MaxMultisigKeys is the largest n of an m-of-n script (C#
	// Contract.CreateMultiSigRedeemScript and Helper.IsMultiSigContract).
	MaxMultisigKeys = 1024
	// SignatureInvocationSize is PUSHDATA1 64 <signature>.
	SignatureInvocationSize = 66
)

// ErrInvalidMultisig is returned for an m or key count a multi-signature
// script cannot have.
var ErrInvalidMultisig = errors.New("invalid multisig parameters")

// InteropID returns the SYSCALL id of an interop name (interopid.FromName).
func InteropID(name string) uint32 { return interopid.FromName(name) }

// Syscall ids of the standard scripts.
var (
	CheckSigID      = InteropID("System.Crypto.CheckSig")
	CheckMultisigID = InteropID("System.Crypto.CheckMultisig")
)

// CreateSignatureRedeemScript returns the single-signature verification
// script of pub (C# Contract.CreateSignatureRedeemScript).
func CreateSignatureRedeemScript(pub *keys.PublicKey) []byte { return pub.VerificationScript() }

// CreateMultiSigRedeemScript returns the m-of-n verification script over
// pubs, which it sorts (a copy) in ECPoint order
// (C# Contract.CreateMultiSigRedeemScript).
func CreateMultiSigRedeemScript(m int, pubs []*keys.PublicKey) ([]byte, error) {
	n := len(pubs)
	if m < 1 || m > n || n > MaxMultisigKeys {
		return nil, fmt.Errorf("%w: m=%d, n=%d", ErrInvalidMultisig, m, n)
	}
	sorted := slices.Clone(pubs)
	keys.SortPublicKeys(sorted)
	w := nio.NewBinWriterWithCap(3 + 34*n + 3 + 5)
	emit.Int(w, int64(m))
	for _, p := range sorted {
		c := p.Compressed()
		emit.Bytes(w, c[:])
	}
	emit.Int(w, int64(n))
	emit.SyscallID(w, CheckMultisigID)
	return w.Bytes(), nil
}

// GetDefaultHonestNodeCount returns the BFT threshold n - (n-1)/3
// (C# ConsensusContext.M, Contract.CreateDefaultMultiSigRedeemScript).
func GetDefaultHonestNodeCount(n int) int { return n - (n-1)/3 }

// GetMajorityHonestNodeCount returns the majority threshold n - (n-1)/2
// used for the committee address.
func GetMajorityHonestNodeCount(n int) int { return n - (n-1)/2 }

// CreateDefaultMultiSigRedeemScript returns the BFT multi-signature script
// of validators (NextConsensus of a block is its hash).
func CreateDefaultMultiSigRedeemScript(pubs []*keys.PublicKey) ([]byte, error) {
	return CreateMultiSigRedeemScript(GetDefaultHonestNodeCount(len(pubs)), pubs)
}

// CreateMajorityMultiSigRedeemScript returns the committee multi-signature
// script (majority threshold).
func CreateMajorityMultiSigRedeemScript(pubs []*keys.PublicKey) ([]byte, error) {
	return CreateMultiSigRedeemScript(GetMajorityHonestNodeCount(len(pubs)), pubs)
}

// IsSignatureContract reports whether script is a single-signature script.
// The key is not decoded (C# Helper.IsSignatureContract).
func IsSignatureContract(script []byte) bool {
	return len(script) == keys.SignatureScriptSize &&
		opcode.Opcode(script[0]) == opcode.PUSHDATA1 && script[1] == keys.CompressedSize &&
		opcode.Opcode(script[35]) == opcode.SYSCALL &&
		binary.LittleEndian.Uint32(script[36:]) == CheckSigID
}

// ParseSignatureContract returns the 33-byte key of a single-signature
// script (aliasing script).
func ParseSignatureContract(script []byte) ([]byte, bool) {
	if !IsSignatureContract(script) {
		return nil, false
	}
	return script[2:35], true
}

// IsMultiSigContract reports whether script has the shape of a
// multi-signature script. Like C# IsMultiSigContract(script, out m, out n)
// it does not decode the keys.
func IsMultiSigContract(script []byte) bool {
	_, _, ok := parseMultiSig(script, nil)
	return ok
}

// ParseMultiSigContractMN returns m and n of a multi-signature script
// without decoding keys.
func ParseMultiSigContractMN(script []byte) (m, n int, ok bool) {
	return parseMultiSig(script, nil)
}

// ParseMultiSigContract returns m and the decoded keys of a
// multi-signature script. Like C# IsMultiSigContract(script, out m, out
// points) it fails if any key is not a valid compressed point.
func ParseMultiSigContract(script []byte) (int, []*keys.PublicKey, bool) {
	pubs := make([]*keys.PublicKey, 0, 8)
	m, _, ok := parseMultiSig(script, &pubs)
	if !ok {
		return 0, nil, false
	}
	return m, pubs, true
}

// parseMultiSig follows C# Helper.IsMultiSigContract step by step,
// including reading PUSHINT8/PUSHINT16 counts as unsigned.
func parseMultiSig(script []byte, pubs *[]*keys.PublicKey) (m, n int, ok bool) {
	if len(script) < 42 {
		return 0, 0, false
	}
	i := 0
	switch b := opcode.Opcode(script[0]); {
	case b == opcode.PUSHINT8:
		m = int(script[1])
		i = 2
	case b == opcode.PUSHINT16:
		m = int(binary.LittleEndian.Uint16(script[1:]))
		i = 3
	case b >= opcode.PUSH1 && b <= opcode.PUSH16:
		m = int(b - opcode.PUSH0)
		i = 1
	default:
		return 0, 0, false
	}
	if m < 1 || m > MaxMultisigKeys {
		return 0, 0, false
	}
	for opcode.Opcode(script[i]) == opcode.PUSHDATA1 {
		if len(script) <= i+35 {
			return 0, 0, false
		}
		i++
		if script[i] != keys.CompressedSize {
			return 0, 0, false
		}
		if pubs != nil {
			p, err := keys.NewPublicKeyFromBytes(script[i+1 : i+1+keys.CompressedSize])
			if err != nil {
				return 0, 0, false
			}
			*pubs = append(*pubs, p)
		}
		i += 34
		n++
	}
	if n < m || n > MaxMultisigKeys {
		return 0, 0, false
	}
	switch b := opcode.Opcode(script[i]); {
	case b == opcode.PUSHINT8:
		if len(script) <= i+1 || n != int(script[i+1]) {
			return 0, 0, false
		}
		i += 2
	case b == opcode.PUSHINT16:
		if len(script) < i+3 || n != int(binary.LittleEndian.Uint16(script[i+1:])) {
			return 0, 0, false
		}
		i += 3
	case b >= opcode.PUSH1 && b <= opcode.PUSH16:
		if n != int(b-opcode.PUSH0) {
			return 0, 0, false
		}
		i++
	default:
		return 0, 0, false
	}
	if len(script) != i+5 || opcode.Opcode(script[i]) != opcode.SYSCALL ||
		binary.LittleEndian.Uint32(script[i+1:]) != CheckMultisigID {
		return 0, 0, false
	}
	return m, n, true
}

// IsStandardContract reports whether script is a single- or
// multi-signature script.
func IsStandardContract(script []byte) bool {
	return IsSignatureContract(script) || IsMultiSigContract(script)
}

// ParseSignatureInvocation returns the signature of a single-signature
// invocation script (PUSHDATA1 64 <sig>), aliasing script.
func ParseSignatureInvocation(script []byte) ([]byte, bool) {
	if len(script) != SignatureInvocationSize || opcode.Opcode(script[0]) != opcode.PUSHDATA1 || script[1] != keys.SignatureLen {
		return nil, false
	}
	return script[2:], true
}

// ParseMultiSigInvocation returns the m signatures of a multi-signature
// invocation script, aliasing script (C# IsMultiSignatureInvocationScript).
func ParseMultiSigInvocation(m int, script []byte) ([][]byte, bool) {
	if len(script) != m*SignatureInvocationSize {
		return nil, false
	}
	sigs := make([][]byte, 0, m)
	for i := 0; i < len(script); i += SignatureInvocationSize {
		if opcode.Opcode(script[i]) != opcode.PUSHDATA1 || script[i+1] != keys.SignatureLen {
			return nil, false
		}
		sigs = append(sigs, script[i+2:i+SignatureInvocationSize])
	}
	return sigs, true
}

// GetContractHash returns the hash of a contract deployed by sender with
// the given NEF checksum and manifest name (C# Helper.GetContractHash):
// Hash160(ABORT, PUSHDATA sender, PUSH checksum, PUSHDATA name).
func GetContractHash(sender hash.Uint160, checksum uint32, name string) hash.Uint160 {
	w := nio.NewBinWriterWithCap(1 + 2 + hash.Uint160Size + 9 + 5 + len(name))
	emit.Opcodes(w, opcode.ABORT)
	emit.Bytes(w, sender[:])
	emit.Int(w, int64(checksum))
	emit.String(w, name)
	return hash.Hash160(w.Bytes())
}
