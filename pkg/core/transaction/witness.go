package transaction

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// Witness script limits (C# Witness.MaxInvocationScript,
// Witness.MaxVerificationScript).
const (
	MaxInvocationScript   = 1024
	MaxVerificationScript = 1024
)

// Witness holds the invocation script (signatures) and verification script
// of one signer.
type Witness struct {
	InvocationScript   []byte `json:"invocation"`
	VerificationScript []byte `json:"verification"`
}

// ScriptHash returns the hash of the verification script.
func (w *Witness) ScriptHash() hash.Uint160 { return hash.Hash160(w.VerificationScript) }

// Size returns the encoded size.
func (w *Witness) Size() int {
	return nio.VarBytesSize(len(w.InvocationScript)) + nio.VarBytesSize(len(w.VerificationScript))
}

// EncodeBinary writes both scripts as var-bytes.
func (w *Witness) EncodeBinary(bw *nio.BinWriter) {
	bw.WriteVarBytes(w.InvocationScript)
	bw.WriteVarBytes(w.VerificationScript)
}

// DecodeBinary reads a witness; the scripts are copies.
func (w *Witness) DecodeBinary(r *nio.BinReader) {
	d := decoder{r: r}
	d.witness(w)
	if r.Err == nil {
		w.InvocationScript = append([]byte{}, w.InvocationScript...)
		w.VerificationScript = append([]byte{}, w.VerificationScript...)
	}
}

// Copy returns a deep copy.
func (w *Witness) Copy() Witness {
	return Witness{
		InvocationScript:   append([]byte{}, w.InvocationScript...),
		VerificationScript: append([]byte{}, w.VerificationScript...),
	}
}
