package transaction

import (
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

// decoder wraps a BinReader and notes whether the input was canonical:
// minimal var-ints and compressed keys only. C# accepts both, and hashes
// and sizes the canonical re-encoding, so a non-canonical input must not be
// hashed as is.
type decoder struct {
	r            *nio.BinReader
	nonCanonical bool
}

func (d *decoder) varUint(max uint64) uint64 {
	start := d.r.Offset()
	v := d.r.ReadVarUintMax(max)
	if d.r.Err == nil && d.r.Offset()-start != nio.VarUintSize(v) {
		d.nonCanonical = true
	}
	return v
}

// count reads an array length bounded by max and by the remaining input
// (each element takes at least minElem bytes), so nothing is allocated
// for counts the input cannot hold.
func (d *decoder) count(max, minElem int) int {
	n := int(d.varUint(uint64(max)))
	if d.r.Err == nil && n*minElem > d.r.Len() {
		d.r.SetError(nio.ErrUnexpectedEOF)
		return 0
	}
	return n
}

// varBytes reads var-bytes of at most max bytes, aliasing the input.
func (d *decoder) varBytes(max int) []byte {
	n := d.varUint(uint64(max))
	if d.r.Err != nil {
		return nil
	}
	return d.r.ReadBytesAlias(int(n))
}

// bool reads a strict boolean (C# MemoryReader.ReadBoolean: 0 or 1).
func (d *decoder) bool() bool {
	b := d.r.ReadU8()
	if b > 1 {
		d.r.SetError(fmt.Errorf("%w: boolean byte 0x%02x", nio.ErrFormat, b))
	}
	return b == 1
}

// publicKey reads an ECPoint as C# ECPoint.DeserializeFrom does.
func (d *decoder) publicKey() *keys.PublicKey {
	p := d.r.ReadBytesAlias(1)
	if d.r.Err != nil {
		return nil
	}
	var k *keys.PublicKey
	var err error
	switch p[0] {
	case 0x02, 0x03:
		var c [keys.CompressedSize]byte
		c[0] = p[0]
		d.r.ReadBytes(c[1:])
		if d.r.Err != nil {
			return nil
		}
		k, err = keys.DecodeCompressed(&c)
	case 0x04:
		var u [keys.UncompressedSize]byte
		u[0] = 0x04
		d.r.ReadBytes(u[1:])
		if d.r.Err != nil {
			return nil
		}
		d.nonCanonical = true
		k, err = keys.NewPublicKeyFromBytes(u[:])
	default:
		err = fmt.Errorf("%w: prefix 0x%02x", keys.ErrInvalidKey, p[0])
	}
	if err != nil {
		d.r.SetError(err)
		return nil
	}
	return k
}

func (d *decoder) witness(w *Witness) {
	w.InvocationScript = d.varBytes(MaxInvocationScript)
	w.VerificationScript = d.varBytes(MaxVerificationScript)
}
