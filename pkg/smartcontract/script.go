package smartcontract

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
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

// InteropID returns the SYSCALL id of an interop name: the first four
// bytes of SHA-256(name) read as a little-endian uint32.
func InteropID(name string) uint32 {
	h := sha256.Sum256([]byte(name))
	return binary.LittleEndian.Uint32(h[:4])
}

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
	s := make([]byte, 0, 3+34*n+3+5)
	s = appendPushInt(s, int64(m))
	for _, p := range sorted {
		c := p.Compressed()
		s = append(s, opPUSHDATA1, keys.CompressedSize)
		s = append(s, c[:]...)
	}
	s = appendPushInt(s, int64(n))
	s = append(s, opSYSCALL)
	return binary.LittleEndian.AppendUint32(s, CheckMultisigID), nil
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
		script[0] == opPUSHDATA1 && script[1] == keys.CompressedSize &&
		script[35] == opSYSCALL &&
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
	switch b := script[0]; {
	case b == opPUSHINT8:
		m = int(script[1])
		i = 2
	case b == opPUSHINT16:
		m = int(binary.LittleEndian.Uint16(script[1:]))
		i = 3
	case b >= opPUSH1 && b <= opPUSH16:
		m = int(b - opPUSH0)
		i = 1
	default:
		return 0, 0, false
	}
	if m < 1 || m > MaxMultisigKeys {
		return 0, 0, false
	}
	for script[i] == opPUSHDATA1 {
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
	switch b := script[i]; {
	case b == opPUSHINT8:
		if len(script) <= i+1 || n != int(script[i+1]) {
			return 0, 0, false
		}
		i += 2
	case b == opPUSHINT16:
		if len(script) < i+3 || n != int(binary.LittleEndian.Uint16(script[i+1:])) {
			return 0, 0, false
		}
		i += 3
	case b >= opPUSH1 && b <= opPUSH16:
		if n != int(b-opPUSH0) {
			return 0, 0, false
		}
		i++
	default:
		return 0, 0, false
	}
	if len(script) != i+5 || script[i] != opSYSCALL ||
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
	if len(script) != SignatureInvocationSize || script[0] != opPUSHDATA1 || script[1] != keys.SignatureLen {
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
		if script[i] != opPUSHDATA1 || script[i+1] != keys.SignatureLen {
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
	s := make([]byte, 0, 1+2+hash.Uint160Size+9+5+len(name))
	s = append(s, opABORT)
	s = appendPushData(s, sender[:])
	s = appendPushInt(s, int64(checksum))
	s = appendPushData(s, []byte(name))
	return hash.Hash160(s)
}

// appendPushInt appends the shortest push of v as C# ScriptBuilder.EmitPush
// does: PUSHM1/PUSH0..PUSH16, else PUSHINT8..PUSHINT64 with v in
// little-endian two's complement, sign-extended to 1, 2, 4 or 8 bytes.
func appendPushInt(s []byte, v int64) []byte {
	if v >= -1 && v <= 16 {
		return append(s, byte(opPUSH0+v))
	}
	switch {
	case v >= math.MinInt8 && v <= math.MaxInt8:
		return append(s, opPUSHINT8, byte(v))
	case v >= math.MinInt16 && v <= math.MaxInt16:
		return binary.LittleEndian.AppendUint16(append(s, opPUSHINT16), uint16(v))
	case v >= math.MinInt32 && v <= math.MaxInt32:
		return binary.LittleEndian.AppendUint32(append(s, opPUSHINT32), uint32(v))
	default:
		return binary.LittleEndian.AppendUint64(append(s, opPUSHINT64), uint64(v))
	}
}

// appendPushData appends the shortest PUSHDATA of b.
func appendPushData(s, b []byte) []byte {
	switch n := len(b); {
	case n <= math.MaxUint8:
		s = append(s, opPUSHDATA1, byte(n))
	case n <= math.MaxUint16:
		s = binary.LittleEndian.AppendUint16(append(s, opPUSHDATA2), uint16(n))
	default:
		s = binary.LittleEndian.AppendUint32(append(s, opPUSHDATA4), uint32(n))
	}
	return append(s, b...)
}
