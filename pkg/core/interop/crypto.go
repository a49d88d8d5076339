package interop

import (
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// verifyKey checks sig over the container's sign data with a public key
// given in bytes. The key decodes as in neo-go: the one-byte point at
// infinity is accepted and verifies nothing; other invalid keys are errors.
func (ic *Context) verifyKey(keyb, sig []byte) (bool, error) {
	if len(keyb) == 1 && keyb[0] == 0 {
		return false, nil
	}
	k, err := keys.NewPublicKeyFromBytes(keyb)
	if err != nil {
		return false, err
	}
	d, err := ic.signedDigest()
	if err != nil {
		return false, err
	}
	return k.Verify(sig, d[:]), nil
}

// cryptoCheckSig is System.Crypto.CheckSig. From HF_Gorgon a signature of
// other than 64 bytes faults (neo-go also faults on an invalid key before
// that hardfork).
func cryptoCheckSig(ic *Context) error {
	keyb, err := ic.popBytes()
	if err != nil {
		return err
	}
	sig, err := ic.popBytes()
	if err != nil {
		return err
	}
	if len(keyb) != 1 || keyb[0] != 0 {
		if _, err := keys.NewPublicKeyFromBytes(keyb); err != nil {
			return err
		}
	}
	if ic.IsHardforkEnabled(config.HFGorgon) && len(sig) != keys.SignatureLen {
		return fmt.Errorf("wrong signature length: expected %d, got %d", keys.SignatureLen, len(sig))
	}
	ok, err := ic.verifyKey(keyb, sig)
	if err != nil {
		return err
	}
	ic.VM.Push(stackitem.Bool(ok))
	return nil
}

// popSigElements pops a list of byte strings for CheckMultisig as neo-go
// does: an Array (not a Struct) of ByteStrings or Buffers, or a count
// followed by that many items.
func (ic *Context) popSigElements() ([][]byte, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	if a, ok := it.(*stackitem.Array); ok && !a.IsStruct() {
		if a.Len() < 1 {
			return nil, errors.New("less than one element in the array")
		}
		elems := make([][]byte, a.Len())
		for k, v := range a.Items() {
			switch x := v.(type) {
			case *stackitem.ByteString:
				elems[k] = x.Bytes()
			case *stackitem.Buffer:
				elems[k] = x.Bytes()
			default:
				return nil, fmt.Errorf("bad element %s", NeoGoItemName(v))
			}
		}
		return elems, nil
	}
	n, err := ItemInteger(it)
	if err != nil {
		return nil, &PanicError{Err: err}
	}
	have := ic.VM.Estack().Len()
	if !n.IsInt64() || n.Int64() < 1 || n.Int64() > int64(have) {
		return nil, fmt.Errorf("wrong number of elements: need %s, have %d", n, have)
	}
	elems := make([][]byte, n.Int64())
	for i := range elems {
		if elems[i], err = ic.popBytes(); err != nil {
			return nil, err
		}
	}
	return elems, nil
}

// cryptoCheckMultisig is System.Crypto.CheckMultisig: m signatures against n
// keys in order, priced fee.CheckSigPrice per key.
func cryptoCheckMultisig(ic *Context) error {
	pkeys, err := ic.popSigElements()
	if err != nil {
		return fmt.Errorf("wrong key parameters: %w", err)
	}
	sigs, err := ic.popSigElements()
	if err != nil {
		return fmt.Errorf("wrong signature parameters: %w", err)
	}
	if err := ic.VM.AddPriceUnits(fee.CheckSigPrice * int64(len(pkeys))); err != nil {
		return err
	}
	if len(sigs) > len(pkeys) {
		return errors.New("more signatures than there are keys")
	}
	// Since Gorgon every signature must have the standard length.
	badLen := func(sig []byte) bool { return len(sig) != keys.SignatureLen }
	if i := slices.IndexFunc(sigs, badLen); i >= 0 && ic.IsHardforkEnabled(config.HFGorgon) {
		return fmt.Errorf("wrong signature #%d length: expected %d, got %d", i, keys.SignatureLen, len(sigs[i]))
	}
	ok, err := ic.checkMultisig(pkeys, sigs)
	if err != nil {
		return err
	}
	ic.VM.Push(stackitem.Bool(ok))
	return nil
}

// checkMultisig verifies sigs against keys in order (C# CheckMultisig): each
// signature must match a later key than the previous one. Keys are decoded
// when reached; an invalid one faults (as in neo-go).
func (ic *Context) checkMultisig(pkeys, sigs [][]byte) (bool, error) {
	m, n := len(sigs), len(pkeys)
	for i, j := 0, 0; i < m && j < n; {
		ok, err := ic.verifyKey(pkeys[j], sigs[i])
		if err != nil {
			return false, err
		}
		if ok {
			i++
		}
		j++
		if m-i > n-j {
			return false, nil
		}
	}
	return true, nil
}
